package io.fluxdrm.pmix.nativ;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's side of its {@link ShrinkAgentMain} process (D434): started on first use with
 * this JVM's java and the given class path, asked to shrink over its standard input, its answers
 * read from its standard output by a thread of its own and completed on the executor.
 */
public final class ShrinkAgent implements PrrteScheduler.Shrinker, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShrinkAgent.class);

  /**
   * How long a shrink may wait for PRRTE to report its daemons gone, in seconds (system property
   * {@code fluxdrm.prrte.shrink-timeout}, default 60): PRRTE reports no departure for a node whose
   * daemon never started, and a shrink must not wait for ever.
   */
  public static final String TIMEOUT_PROPERTY = "fluxdrm.prrte.shrink-timeout";

  private final String dvmUri;
  private final String classPath;
  private final Executor executor;
  private final List<String> command;
  private final Duration timeout;
  private final Map<String, CompletableFuture<Integer>> pending = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<Map<String, Boolean>>> pools =
      new ConcurrentHashMap<>();
  private int nextPool;
  private CompletableFuture<String> ready;
  private Process process;
  private Writer in;

  /**
   * An agent, not started yet.
   *
   * @param dvmUri the DVM's URI or {@code file:PATH}
   * @param classPath the class path holding this module and its dependencies
   * @param executor where the answers complete (the reactor)
   */
  public ShrinkAgent(String dvmUri, String classPath, Executor executor) {
    this(
        dvmUri,
        classPath,
        executor,
        null,
        Duration.ofSeconds(Math.max(1, Long.getLong(TIMEOUT_PROPERTY, 60))));
  }

  /** An agent run as {@code command} (tests: a stand-in process), shrinks bounded by timeout. */
  ShrinkAgent(
      String dvmUri, String classPath, Executor executor, List<String> command, Duration timeout) {
    this.dvmUri = dvmUri;
    this.classPath = classPath;
    this.executor = executor;
    this.command = command;
    this.timeout = timeout;
  }

  /**
   * The agent's namespace, once it is connected to the DVM (starting it on first call).
   *
   * @return its namespace; fails when it could not start or connect
   */
  @Override
  public synchronized CompletionStage<String> nspace() {
    if (ready == null || ready.isCompletedExceptionally()) {
      ready = new CompletableFuture<>();
      start(ready);
    }
    return ready;
  }

  private void start(CompletableFuture<String> r) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        command != null
            ? command
            : List.of(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-D" + Libpmix.PREFIX_PROPERTY + "=" + Libpmix.prefix(),
                "-cp",
                classPath,
                ShrinkAgentMain.class.getName(),
                dvmUri);
    try {
      process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      r.completeExceptionally(new PmixNativeException("shrink agent: " + e.getMessage(), e));
      return;
    }
    in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Process p = process;
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                  String[] w = line.split(" ");
                  if (w.length == 2 && w[0].equals("READY")) {
                    LOG.info("shrink agent {} (pid {}) connected to {}", w[1], p.pid(), dvmUri);
                    executor.execute(() -> r.complete(w[1]));
                  } else if (w.length == 3 && w[0].equals("DONE")) {
                    CompletableFuture<Integer> f = pending.remove(w[1]);
                    int code = Integer.parseInt(w[2]);
                    if (f != null) {
                      executor.execute(() -> f.complete(code));
                    }
                  } else if (w.length == 3 && w[0].equals("POOL")) {
                    CompletableFuture<Map<String, Boolean>> f = pools.remove(w[1]);
                    if (f != null) {
                      executor.execute(
                          () -> {
                            if (w[2].startsWith("!")) {
                              f.completeExceptionally(
                                  new PmixNativeException(
                                      "PMIx_Query_info(PMIX_QUERY_PROC_TABLE): status "
                                          + w[2].substring(1)));
                            } else {
                              f.complete(DvmPool.parse(w[2]));
                            }
                          });
                    }
                  } else if (w.length == 3 && w[0].equals("NOTIFIED")) {
                    LOG.info("shrink agent: event sent to {}: status {}", w[1], w[2]);
                  } else {
                    LOG.warn("shrink agent: unexpected line \"{}\"", line);
                  }
                }
              } catch (IOException | RuntimeException e) {
                LOG.warn("shrink agent: {}", e.toString());
              }
              PmixNativeException gone = new PmixNativeException("shrink agent ended");
              executor.execute(
                  () -> {
                    r.completeExceptionally(gone);
                    pending.values().forEach(f -> f.completeExceptionally(gone));
                    pending.clear();
                    pools.values().forEach(f -> f.completeExceptionally(gone));
                    pools.clear();
                  });
            },
            "fluxdrm-shrink-agent");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Asks for the shrink of {@code hosts}.
   *
   * @param reqId its request id (the scheduler recognises it when PRRTE forwards it back)
   * @param hosts bare host names, comma separated
   * @return the phase-two event's code, or the first phase's failure status
   */
  @Override
  public synchronized CompletionStage<Integer> shrink(String reqId, String hosts) {
    CompletableFuture<Integer> f = new CompletableFuture<>();
    pending.put(reqId, f);
    try {
      in.write("SHRINK " + reqId + " " + hosts + "\n");
      in.flush();
    } catch (IOException | RuntimeException e) {
      pending.remove(reqId);
      f.completeExceptionally(new PmixNativeException("shrink agent: " + e.getMessage(), e));
      return f;
    }
    // PRRTE reports no departure of a daemon that never started: bounded, the nodes then stay held
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS, executor)
        .execute(
            () -> {
              if (pending.remove(reqId, f)) {
                f.completeExceptionally(
                    new PmixNativeException(
                        "shrink agent: PRRTE reported no departure of "
                            + hosts
                            + " within "
                            + timeout.toSeconds()
                            + " s ("
                            + TIMEOUT_PROPERTY
                            + ")"));
              }
            });
    return f;
  }

  /**
   * Asks PRRTE, through the agent, where its daemons run (D476); bounded by the shrink timeout.
   *
   * @return each host PRRTE recorded a daemon for, to whether one runs there
   */
  @Override
  public synchronized CompletionStage<Map<String, Boolean>> pool() {
    CompletableFuture<Map<String, Boolean>> f = new CompletableFuture<>();
    if (in == null) {
      f.completeExceptionally(new PmixNativeException("shrink agent: not started"));
      return f;
    }
    String tag = Integer.toString(++nextPool);
    pools.put(tag, f);
    try {
      in.write("POOL " + tag + "\n");
      in.flush();
    } catch (IOException | RuntimeException e) {
      pools.remove(tag);
      f.completeExceptionally(new PmixNativeException("shrink agent: " + e.getMessage(), e));
      return f;
    }
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS, executor)
        .execute(
            () -> {
              if (pools.remove(tag, f)) {
                f.completeExceptionally(
                    new PmixNativeException(
                        "shrink agent: no answer to PMIx_Query_info within "
                            + timeout.toSeconds()
                            + " s"));
              }
            });
    return f;
  }

  /**
   * Has the agent send event {@code code} to {@code target} alone (D456), with {@code
   * PMIX_ALLOC_REQ_ID} {@code reqId} when there is one; its outcome is a log line.
   */
  @Override
  public synchronized void notify(io.fluxdrm.pmix.PmixProc target, String reqId, int code) {
    if (in == null) {
      LOG.warn("shrink agent: not started, no event for {}", target.nspace());
      return;
    }
    try {
      in.write(
          "NOTIFY "
              + target.nspace()
              + " "
              + target.rank()
              + " "
              + code
              + (reqId == null ? "" : " " + reqId)
              + "\n");
      in.flush();
    } catch (IOException | RuntimeException e) {
      LOG.warn("shrink agent: event for {}: {}", target.nspace(), e.toString());
    }
  }

  /** Ends the agent (its standard input closes; it finalises its tool). */
  @Override
  public synchronized void close() {
    if (process == null) {
      return;
    }
    try {
      in.close();
    } catch (IOException e) {
      LOG.debug("shrink agent: {}", e.toString());
    }
    try {
      if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
