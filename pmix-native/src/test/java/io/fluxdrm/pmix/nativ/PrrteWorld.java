package io.fluxdrm.pmix.nativ;

import io.fluxdrm.dvm.sidebyside.World;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * PRRTE as a side-by-side {@link World}: {@code prte} elastic over fakessh nodes (the head and
 * node1 from its hostfile; at radix 2, {@code rml_base_radix 2}; elastic mode off, without {@code
 * prte_elastic_mode}; with a scheduler, {@code ras/pmix} and this JVM as its PMIx scheduler,
 * started first, whose upcalls go to the scenario's script), and a tool, {@link ToolServerMain}, as
 * a process of its own behind a {@link RemoteToolPort}. The daemons are what {@code prun --map-by
 * ppr:1:node hostname} prints.
 */
final class PrrteWorld implements World {
  private static final Duration WAIT = Duration.ofSeconds(120);

  /** How long a scenario waits for events it does not expect, or for extras after those it does. */
  private static final Duration GRACE = Duration.ofSeconds(3);

  private final Path dir;
  private final Path prrte;
  private final Path uri;
  private final String head;
  private final Process prte;
  private final Process toolProcess;
  private final RemoteToolPort tool;
  private final PmixProc toolProc;
  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final Map<String, String> memo = new HashMap<>();
  private final ExecutorService reactor = Executors.newSingleThreadExecutor();
  private final List<Process> others = new java.util.concurrent.CopyOnWriteArrayList<>();
  private PmixScheduler scheduler;
  private volatile SchedulerUpcalls script;

  PrrteWorld(Group group, Path dir, Path prrte, Path fakessh) throws Exception {
    this.dir = Files.createDirectories(dir);
    this.prrte = prrte;
    this.uri = dir.resolve("dvm.uri");
    this.head = Peer.run(List.of("hostname"), dir).strip();
    Path hosts = dir.resolve("hosts");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                prrte.resolve("bin/prte").toString(),
                "--prtemca",
                "plm_ssh_agent",
                fakessh.toString()));
    if (group != Group.ELASTIC_OFF) {
      cmd.addAll(List.of("--prtemca", "prte_elastic_mode", "1"));
    }
    if (group == Group.RADIX2) {
      cmd.addAll(List.of("--prtemca", "rml_base_radix", "2"));
    }
    if (group == Group.SCHEDULER) {
      Files.writeString(
          hosts, head + " slots=2\nnode4 slots=2\nnode5 slots=2\n", StandardCharsets.UTF_8);
      cmd.addAll(List.of("--prtemca", "ras_pmix_system_scheduler", "1"));
      // before a scenario sets its script: refuses everything
      script = SchedulerUpcalls.refusing(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
      SchedulerUpcalls upcalls = SchedulerUpcalls.delegating(() -> script);
      scheduler =
          PmixScheduler.start(
                  new PmixProc("fluxdrm-sched", 0),
                  upcalls,
                  "file:" + uri,
                  Duration.ofSeconds(30),
                  reactor)
              .toCompletableFuture()
              .get(60, TimeUnit.SECONDS);
    } else {
      Files.writeString(hosts, head + " slots=2\nnode1 slots=2\n", StandardCharsets.UTF_8);
    }
    cmd.addAll(List.of("--hostfile", hosts.toString(), "--report-uri", uri.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    Peer.prrteEnv(pb);
    prte = pb.start();
    Peer.awaitDvmReady(prte, WAIT);

    toolProcess = startTool();
    tool = new RemoteToolPort(toolProcess, events::add);
    toolProc = tool.self().get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  /**
   * The command running {@code main} with {@code args} in a JVM of this one's kind: its java, the
   * tests' class path, native access and the libpmix prefix, then {@code properties} as {@code -D}
   * settings.
   */
  static List<String> javaCommand(List<String> properties, Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-D" + Libpmix.PREFIX_PROPERTY + "=" + Peer.pmixPrefix());
    properties.forEach(p -> cmd.add("-D" + p));
    cmd.add("-cp");
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** A {@link ToolServerMain} process connected to this DVM. */
  private Process startTool() throws java.io.IOException {
    ProcessBuilder tb =
        new ProcessBuilder(
                javaCommand(
                    List.of("org.slf4j.simpleLogger.logFile=System.err"),
                    ToolServerMain.class,
                    "file:" + uri))
            .directory(dir.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    Peer.prrteEnv(tb);
    Process p = tb.start();
    others.add(p);
    return p;
  }

  @Override
  public DvmPort schedulerPort() {
    if (scheduler == null) {
      throw new IllegalStateException("no scheduler in this world");
    }
    return scheduler.port();
  }

  @Override
  public DvmPort newTool(boolean withEvents) {
    try {
      RemoteToolPort t = new RemoteToolPort(startTool(), withEvents ? events::add : e -> {});
      t.self().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      return t;
    } catch (Exception e) {
      throw new IllegalStateException("another tool: " + e, e);
    }
  }

  @Override
  public String master() {
    return head;
  }

  @Override
  public DvmPort tool() {
    return tool;
  }

  @Override
  public PmixProc toolProc() {
    return toolProc;
  }

  @Override
  public <T> T await(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("no answer within " + WAIT.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public List<Event> events(int atLeast) {
    List<Event> out = new ArrayList<>();
    try {
      while (out.size() < atLeast) {
        Event e = events.poll(60, TimeUnit.SECONDS);
        if (e == null) {
          break;
        }
        out.add(e);
      }
      Event e;
      while ((e = events.poll(GRACE.toMillis(), TimeUnit.MILLISECONDS)) != null) {
        out.add(e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return out;
  }

  @Override
  public List<String> daemons() {
    try {
      ProcessBuilder pb =
          new ProcessBuilder(
                  prrte.resolve("bin/prun").toString(),
                  "--dvm-uri",
                  "file:" + uri,
                  "--map-by",
                  "ppr:1:node",
                  "hostname")
              .directory(dir.toFile())
              .redirectErrorStream(true);
      Peer.prrteEnv(pb);
      Peer.Ran r = Peer.runFor(pb, WAIT);
      if (r.timedOut()) {
        return List.of("prun did not end");
      }
      String s = r.out();
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("PMIx_Spawn failed \\(-?[0-9]+\\): (\\S+)").matcher(s);
      if (m.find()) {
        return List.of("none: prun fails, " + m.group(1).replaceFirst("^PMIX_", ""));
      }
      if (r.exit() != 0) {
        return List.of("none: prun exits " + r.exit());
      }
      return s.lines()
          .map(String::strip)
          .filter(l -> !l.isEmpty())
          .map(l -> l.equals(head) ? "head" : l)
          .sorted()
          .toList();
    } catch (Exception e) {
      return List.of("prun: " + e);
    }
  }

  @Override
  public void script(SchedulerUpcalls s) {
    script = s;
  }

  @Override
  public Map<String, String> memo() {
    return memo;
  }

  @Override
  public boolean eventually(BooleanSupplier condition) {
    for (int i = 0; i < 30; i++) {
      if (condition.getAsBoolean()) {
        return true;
      }
      try {
        Thread.sleep(1000); // polling with a deadline (30 tries)
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  @Override
  public void elapse(Duration d) {
    // a bounded wait for what must not happen within d (D451, D462): nothing to wait on
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    try {
      tool.disconnect().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      toolProcess.destroyForcibly();
    }
    others.stream().filter(Process::isAlive).forEach(p -> Peer.killTree(p.toHandle()));
    // what prte started (its daemons, through fakessh) is killed with it if it does not end
    List<ProcessHandle> started = prte.descendants().toList();
    try {
      ProcessBuilder pb =
          new ProcessBuilder(prrte.resolve("bin/pterm").toString(), "--dvm-uri", "file:" + uri)
              .directory(dir.toFile());
      Peer.prrteEnv(pb);
      Peer.Ran r = Peer.runFor(pb, Duration.ofSeconds(60));
      if (r.timedOut()) {
        System.err.println("pterm did not end in 60 s: " + r.out());
      }
      if (!prte.waitFor(60, TimeUnit.SECONDS)) {
        System.err.println("prte did not end in 60 s after pterm: killed");
      }
    } catch (Exception e) {
      System.err.println("pterm: " + e);
    }
    Peer.killTree(prte.toHandle());
    started.stream().filter(ProcessHandle::isAlive).forEach(Peer::killTree);
    if (scheduler != null) {
      scheduler.close();
    }
    reactor.shutdown();
  }
}
