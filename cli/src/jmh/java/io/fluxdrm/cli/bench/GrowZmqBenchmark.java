package io.fluxdrm.cli.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The RFC 51 grow round trip across three processes over ZeroMQ loopback: the trial set-up starts
 * {@code fluxdrm sched --listen tcp://127.0.0.1:*} (16 nodes of 4 cores) and {@code fluxdrm bridge
 * --connect tcp://127.0.0.1:PORT --state-dir DIR} as child JVMs (the benchmark's own class path,
 * logs in a temporary directory, at {@code childLogLevel}: the commands log every job event at info
 * by default), submits a one-node job with {@code bridge.submit}, and runs its shell plugin in this
 * JVM as a ZeroMQ client of the scheduler's hub.
 *
 * <p>One operation: a grow of one exclusive node. Path: application → shell ({@code api=java}:
 * {@link ShellPlugin#realloc} in this process; {@code api=rpc}: {@code <uid>-shell-<f58>.realloc}
 * from a second ZeroMQ client, which adds two hub hops) → hub → bridge process ({@code
 * job-manager.realloc}, eventlog append) → hub → scheduler ({@code sched.realloc}) → hub → bridge
 * (eventlog append) → hub → shell → application. After each operation, not measured, the node is
 * shrunk away and released. {@code -p hub=unix} runs the same over the scheduler's Unix socket.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(jvmArgsAppend = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
public class GrowZmqBenchmark {
  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");
  private static final int EAGAIN = 11;
  private static final int ENOSYS = 38;

  @Param({"java", "rpc"})
  public String api;

  /**
   * The scheduler's hub: {@code tcp} (ZeroMQ loopback, the figure of issue 6) or {@code unix} (its
   * Unix socket, {@code --listen unix:DIR}, for comparison).
   */
  @Param({"tcp"})
  public String hub;

  /**
   * The log level of the two child processes (slf4j-simple: trace, debug, info, warn, error);
   * {@code io.fluxdrm.cli} stays at info.
   */
  @Param({"info"})
  public String childLogLevel;

  private Path dir;
  private final List<Process> children = new ArrayList<>();
  private Reactor shellReactor;
  private Reactor appReactor;
  private GrowClient client;

  private Process child(String log, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=" + childLogLevel);
    // the commands' own lines (the endpoint the scheduler listens on) whatever the level
    cmd.add("-Dorg.slf4j.simpleLogger.log.io.fluxdrm.cli=info");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.fluxdrm.cli.Main");
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(log).toFile())
            .start();
    children.add(p);
    return p;
  }

  private FluxHandle connect(Reactor r, String uri) {
    return hub.equals("tcp")
        ? FluxHandle.connectZmq(r, uri, null)
        : FluxHandle.connect(r, uri, java.time.Duration.ofSeconds(30));
  }

  private String awaitEndpoint(Process p) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Path log = dir.resolve("sched.log");
    while (System.nanoTime() < deadline) {
      String text = Files.readString(log, StandardCharsets.UTF_8);
      Matcher m = LISTENING.matcher(text);
      if (m.find()) {
        return m.group(1);
      }
      if (!p.isAlive()) {
        throw new IllegalStateException("fluxdrm sched exited: " + text);
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("fluxdrm sched: no endpoint in its log within 60 s");
  }

  /**
   * {@code bridge.submit}, retried while the bridge is starting or its scheduler not online; fails
   * with the bridge's log when it exited.
   */
  private ObjectNode submit(FluxHandle h, ObjectNode jobspec, Process bridge) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        return h.rpc("bridge.submit", Json.object().set("jobspec", jobspec))
            .get(10, TimeUnit.SECONDS)
            .json();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RpcException r)
            || r.errnum() != EAGAIN && r.errnum() != ENOSYS
            || System.nanoTime() > deadline) {
          throw e;
        }
        if (!bridge.isAlive()) {
          throw new IllegalStateException(
              "fluxdrm bridge exited: "
                  + Files.readString(dir.resolve("bridge.log"), StandardCharsets.UTF_8));
        }
        Thread.sleep(50);
      }
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("fluxdrm-grow-zmq-bench");
    if (!hub.equals("tcp") && !hub.equals("unix")) {
      throw new IllegalArgumentException("hub: \"" + hub + "\" (expected: tcp or unix)");
    }
    String listen = hub.equals("tcp") ? "tcp://127.0.0.1:*" : "unix:" + dir.resolve("hub");
    Runtime.getRuntime().addShutdownHook(new Thread(this::stopChildren));
    Process sched =
        hub.equals("tcp")
            ? child(
                "sched.log",
                "sched",
                "--listen",
                listen,
                "--tcp-loopback-role",
                "owner",
                "--hosts",
                "node[0-15]",
                "--cores",
                "0-3")
            : child(
                "sched.log",
                "sched",
                "--listen",
                listen,
                "--hosts",
                "node[0-15]",
                "--cores",
                "0-3");
    String uri = awaitEndpoint(sched);
    Process bridge =
        child(
            "bridge.log",
            "bridge",
            "--connect",
            hub.equals("tcp") ? uri : listen,
            "--state-dir",
            dir.resolve("state").toString());
    shellReactor = Reactor.start("bench-shell");
    FluxHandle h = connect(shellReactor, uri);
    ObjectNode job = submit(h, Jobspecs.nodes(1), bridge);
    ShellPlugin shell =
        ShellPlugin.create(
            job.get("id").asLong(), job.get("userid").asInt(), ResourceSet.fromJson(job.get("R")));
    shell.start(h).get(10, TimeUnit.SECONDS);
    appReactor = Reactor.start("bench-app");
    FluxHandle app = connect(appReactor, uri);
    client = new GrowClient(shell, app, api);
  }

  private void stopChildren() {
    for (Process p : children) {
      p.destroy();
    }
    for (Process p : children) {
      try {
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    appReactor.close();
    shellReactor.close();
    stopChildren();
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public Object grow() throws Exception {
    return client.grow();
  }

  /** Not measured: shrinks the grown node away and releases it. */
  @TearDown(Level.Invocation)
  public void shrinkBack() throws Exception {
    client.shrinkBack();
  }
}
