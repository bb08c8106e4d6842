package io.fluxdrm.showcase.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.shell.ShellPlugin;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The story's world as processes, each connected the way its command documents: {@code fluxdrm
 * sched --listen unix:DIR/sched} (the reference scheduler and the hub), {@code fluxdrm bridge
 * --connect unix:DIR/sched} (the job manager; jobs come through {@code bridge.submit} and end with
 * {@code bridge.finish}), and {@code fluxdrm dvm --elastic --simulated --listen unix:DIR/dvm}. This
 * JVM holds what a job holds: its shell plugin and facade, on connections of its own to the
 * scheduler's hub, and the DVM job's side toward the DVM (the bridge as the DVM's scheduler, the
 * application as a tool). Every process is started with its output in {@code DIR/NAME.out} and
 * {@code DIR/NAME.err}, waited for by the line that says it serves, and stopped with SIGTERM at the
 * end (SIGKILL after {@link #STOP_GRACE}); a shutdown hook stops any still running if this JVM is
 * stopped early, so none is left behind.
 *
 * <p>Why one class: it is one {@link World}, whose operations each start, wait for or stop the same
 * three processes and the connections the JVM holds to them.
 */
public final class ProcessWorld implements World {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessWorld.class);

  /** How long a process has to stop after SIGTERM. */
  static final Duration STOP_GRACE = Duration.ofSeconds(10);

  /** How the parts are started: the command that runs {@code fluxdrm} with arguments appended. */
  public record Launcher(List<String> command) {
    public Launcher {
      command = List.copyOf(command);
    }

    /**
     * {@code fluxdrm} from this JVM's class path, with this JVM's {@code java}.
     *
     * @param mainClass the command line's main class
     * @return the launcher
     */
    public static Launcher thisJvm(String mainClass) {
      return new Launcher(
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-XX:+UseSerialGC",
              "-XX:TieredStopAtLevel=1",
              "-Xshare:auto",
              "-cp",
              System.getProperty("java.class.path"),
              mainClass));
    }
  }

  private final Reactor reactor;
  private final ResourceSet pool;
  private final Path dir;
  private final Launcher launcher;
  private final TranscriptRecorder recorder;
  private final TranscriptRecorder dvmRecorder;
  private final Demo.ServerTranscripts servers;
  private final int uid;
  private final List<Process> procs = new ArrayList<>();
  private final Thread reaper = new Thread(this::destroyAll, "fluxdrm-demo-reaper");
  private FluxHandle owner;
  private Process sched;
  private Process bridge;
  private Process dvm;
  private SchedulerOptions options;
  private int restarts;

  private ProcessWorld(
      Reactor reactor,
      ResourceSet pool,
      Path dir,
      Launcher launcher,
      TranscriptRecorder recorder,
      TranscriptRecorder dvmRecorder,
      Demo.ServerTranscripts servers) {
    this.reactor = reactor;
    this.pool = pool;
    this.dir = dir;
    this.launcher = launcher;
    this.recorder = recorder;
    this.dvmRecorder = dvmRecorder;
    this.servers = servers;
    this.uid = currentUid();
  }

  /**
   * Starts {@code fluxdrm sched} and {@code fluxdrm bridge} in {@code dir} and connects.
   *
   * @param servers where the bridge and the DVM record their endpoints' transcripts, or null
   */
  static ProcessWorld start(
      Reactor reactor,
      ResourceSet pool,
      SchedulerOptions options,
      Path dir,
      Launcher launcher,
      TranscriptRecorder recorder,
      TranscriptRecorder dvmRecorder,
      Demo.ServerTranscripts servers) {
    ProcessWorld w = new ProcessWorld(reactor, pool, dir, launcher, recorder, dvmRecorder, servers);
    Runtime.getRuntime().addShutdownHook(w.reaper);
    try {
      w.boot(options);
    } catch (RuntimeException e) {
      w.close();
      throw e;
    }
    return w;
  }

  private void boot(SchedulerOptions opts) {
    this.options = opts;
    startSchedAndBridge("");
  }

  private void startSchedAndBridge(String suffix) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "sched",
                "--listen",
                "unix:" + dir.resolve("sched"),
                "--hosts",
                pool.nodelist().toString(),
                "--cores",
                pool.resources(pool.ranks().first(), "core").toString(),
                "--state-dir",
                dir.resolve("sched-state").toString()));
    if (!options.realloc()) {
      args.add("--no-realloc");
    }
    sched = spawn("sched" + suffix, args);
    awaitLine(sched, "sched" + suffix + ".err", "listening on ");
    List<String> bridgeArgs =
        new ArrayList<>(
            List.of(
                "bridge",
                "--connect",
                "unix:" + dir.resolve("sched"),
                "--state-dir",
                dir.resolve("jobs").toString()));
    if (servers != null) {
      bridgeArgs.addAll(List.of("--transcript", servers.bridge(restarts + 1).toString()));
    }
    bridge = spawn("bridge" + suffix, bridgeArgs);
    awaitLine(bridge, "bridge" + suffix + ".err", "serving job-manager and bridge");
    owner = schedHub(uid);
  }

  /**
   * Kills the scheduler (SIGKILL) and starts it again on the same socket and state directory; the
   * job manager, whose connection went with the scheduler's hub, is stopped and started again on
   * its state directory, and its hello tells the new scheduler every running job's R (RFC 27).
   * Every connection to the scheduler's hub is then gone: the caller makes new ones.
   */
  void restartScheduler() {
    kill(sched);
    stop(bridge);
    FluxHandle h = owner;
    Waits.onLoop(
        reactor,
        () -> {
          h.close();
          return null;
        });
    restarts++;
    startSchedAndBridge("-" + (restarts + 1));
  }

  /** Kills the DVM (SIGKILL): its connections close, nothing of it says goodbye. */
  void killDvm() {
    if (dvm != null) {
      kill(dvm);
    }
  }

  private static void kill(Process p) {
    p.destroyForcibly();
    try {
      if (!p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new Waits.Stopped("pid " + p.pid() + " still alive after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Waits.Stopped("interrupted");
    }
  }

  /** This process's user, whom every part runs as (all are the instance owner). */
  int uid() {
    return uid;
  }

  private static int currentUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new Waits.Stopped("cannot tell this process's user id (" + e.getMessage() + ")");
    }
  }

  private Process spawn(String name, List<String> args) {
    List<String> cmd = new ArrayList<>(launcher.command());
    cmd.addAll(args);
    try {
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .redirectOutput(dir.resolve(name + ".out").toFile())
              .redirectError(dir.resolve(name + ".err").toFile());
      Process p = pb.start();
      p.getOutputStream().close();
      synchronized (procs) {
        procs.add(p);
      }
      LOG.info("started {} (pid {}): {}", name, p.pid(), String.join(" ", args));
      return p;
    } catch (IOException e) {
      throw new Waits.Stopped("cannot start fluxdrm " + name + ": " + e.getMessage());
    }
  }

  /** Waits until {@code file} of this world's directory has {@code text}, its process alive. */
  private void awaitLine(Process p, String file, String text) {
    boolean seen =
        Waits.until(
            () -> {
              if (read(file).contains(text)) {
                return true;
              }
              if (!p.isAlive()) {
                throw new Waits.Stopped(
                    file.replaceFirst("\\..*", "")
                        + " exited with status "
                        + p.exitValue()
                        + ": "
                        + last(read(file)));
              }
              return false;
            });
    if (!seen) {
      throw new Waits.Stopped(file + ": no \"" + text + "\" in time: " + last(read(file)));
    }
  }

  private String read(String file) {
    Path p = dir.resolve(file);
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static String last(String text) {
    String t = text.strip();
    int nl = t.lastIndexOf('\n');
    return nl < 0 ? t : t.substring(nl + 1);
  }

  @Override
  public Reactor reactor() {
    return reactor;
  }

  @Override
  public CompletableFuture<Job> submit(int userid, int nodes) {
    ObjectNode p = Json.object();
    p.set("jobspec", DemoReplayProvider.jobspec(nodes));
    return submitRetrying(p, System.nanoTime() + Waits.STEP_TIMEOUT.toNanos());
  }

  /** {@code bridge.submit}, again while the scheduler is not online yet (EAGAIN). */
  private CompletableFuture<Job> submitRetrying(ObjectNode p, long deadline) {
    return owner
        .rpc("bridge.submit", p)
        .thenApply(ProcessWorld::job)
        .handle(
            (j, err) -> {
              if (err == null) {
                return CompletableFuture.completedFuture(j);
              }
              Throwable c = err.getCause() == null ? err : err.getCause();
              if (c instanceof RpcException r && r.errnum() == 11 && System.nanoTime() < deadline) {
                CompletableFuture<Job> again = new CompletableFuture<>();
                reactor.schedule(
                    Duration.ofMillis(20),
                    () ->
                        submitRetrying(p, deadline)
                            .whenComplete(
                                (v, e) -> {
                                  if (e != null) {
                                    again.completeExceptionally(e);
                                  } else {
                                    again.complete(v);
                                  }
                                }));
                return again;
              }
              return CompletableFuture.<Job>failedFuture(c);
            })
        .thenCompose(f -> f);
  }

  private static Job job(Message m) {
    JsonNode o = m.json();
    long id = FluxPayloads.readId(o.get("id"), "bridge.submit: /id");
    return new Job(id, o.path("userid").asInt(), ResourceSet.fromJson(o.get("R")));
  }

  @Override
  public CompletableFuture<Void> finish(long id) {
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(id));
    return owner.rpc("bridge.finish", p).thenApply(m -> null);
  }

  @Override
  public FluxHandle schedHub(int userid) {
    return connect("sched");
  }

  private FluxHandle connect(String hub) {
    try {
      // the hub's process may still be starting
      return io.fluxdrm.rpc.endpoint.Connectors.openWhenUp(
          reactor, "local://" + dir.resolve(hub).resolve("local"), Waits.STEP_TIMEOUT);
    } catch (RpcException e) {
      throw new Waits.Stopped("connect to the " + hub + " hub: " + e.getMessage());
    }
  }

  @Override
  public CompletableFuture<ResourceSet> free() {
    return owner
        .rpc("sched.resource-status", Json.object())
        .thenApply(
            m -> {
              JsonNode o = m.json();
              return ResourceSet.fromJson(o.get("all"))
                  .diff(ResourceSet.fromJson(o.get("allocated")))
                  .diff(ResourceSet.fromJson(o.get("down")));
            });
  }

  @Override
  public ResourceSet pool() {
    return pool;
  }

  @Override
  public CompletableFuture<Void> startDvm(DvmSpec spec) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "dvm",
                "--hosts",
                Hostlist.of(spec.hosts()).toString(),
                "--slots",
                Integer.toString(spec.slots()),
                "--simulated",
                "--elastic",
                "--daemon-latency",
                Long.toString(spec.startLatencyMs()),
                "--stop-latency",
                Long.toString(spec.stopLatencyMs()),
                "--fail-daemons",
                spec.failingHost(),
                "--listen",
                "unix:" + dir.resolve("dvm")));
    if (servers != null) {
      args.addAll(List.of("--transcript", servers.dvm().toString()));
    }
    dvm = spawn("dvm", args);
    return CompletableFuture.supplyAsync(
        () -> {
          awaitLine(dvm, "dvm.out", "listening on ");
          return null;
        });
  }

  @Override
  public FluxHandle dvmHub(int userid) {
    FluxHandle h = connect("dvm");
    h.tap(dvmRecorder);
    return h;
  }

  @Override
  public void stopDvm() {
    if (dvm != null) {
      stop(dvm);
      dvm = null;
    }
  }

  private static void stop(Process p) {
    p.destroy();
    try {
      if (!p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
  }

  @Override
  public Optional<Supplier<DvmView>> dvmView() {
    return Optional.empty();
  }

  @Override
  public OptionalInt pendingReallocs() {
    return OptionalInt.empty();
  }

  @Override
  public Optional<List<JsonNode>> freesSent() {
    return Optional.empty();
  }

  @Override
  public void recordShell(ShellPlugin plugin) {
    plugin.tap(recorder);
  }

  @Override
  public Optional<String> problems() {
    List<String> names = new ArrayList<>(List.of("sched", "bridge", "dvm"));
    for (int i = 2; i <= restarts + 1; i++) {
      names.add("sched-" + i);
      names.add("bridge-" + i);
    }
    for (String name : names) {
      String err = read(name + ".err");
      if (err.contains("invariant broken") || err.contains("Exception")) {
        return Optional.of(name + ": " + last(err));
      }
    }
    return Optional.empty();
  }

  @Override
  public String where() {
    return "as processes in " + dir;
  }

  /** Stops every process, the last started first. */
  @Override
  public void close() {
    if (owner != null) {
      FluxHandle h = owner;
      Waits.onLoop(
          reactor,
          () -> {
            h.close();
            return null;
          });
    }
    destroyAll();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  private void destroyAll() {
    List<Process> all;
    synchronized (procs) {
      all = new ArrayList<>(procs);
      procs.clear();
    }
    for (int i = all.size() - 1; i >= 0; i--) {
      stop(all.get(i));
    }
  }
}
