package io.fluxdrm.cli.bench;

import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.shell.ShellPlugin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * The RFC 51 grow round trip in one JVM: the real scheduler ({@link SchedService}, sched-simple on
 * 16 nodes of 4 cores), the real {@link JobManager} (eventlogs in a temporary directory, written
 * before every answer), a {@link ShellPlugin} and an application, all attached to one in-memory
 * {@link Hub} on one reactor thread; the JMH thread is the application and waits for the answer.
 *
 * <p>One operation: a grow of one exclusive node, application → shell → {@code job-manager.realloc}
 * → {@code sched.realloc} → back, answered SUCCESS with {@code R_delta_add}. {@code api=java}: the
 * application calls {@link ShellPlugin#realloc} (the Java API a PMIx server in the shell's process
 * uses); {@code api=rpc}: it sends {@code <uid>-shell-<f58>.realloc} over the hub as a separate
 * client. After each operation, not measured (an invocation tear-down), the node is shrunk away and
 * released so the pool never runs out and every grow is alike.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(jvmArgsAppend = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
public class GrowRoundTripBenchmark {
  static final int OWNER = 100;
  static final int USER = 1000;

  @Param({"java", "rpc"})
  public String api;

  private Path dir;
  private Reactor reactor;
  private GrowClient client;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("fluxdrm-grow-bench");
    reactor = Reactor.start("bench-hub");
    Hub hub = new Hub(reactor);
    JobManager jm = JobManager.create(dir, () -> System.currentTimeMillis() / 1000.0);
    jm.start(hub.attach(Credentials.owner(OWNER))).get(10, TimeUnit.SECONDS);
    ResourceSet pool =
        ResourceSet.of(
            IdSet.range(0, 15), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("node[0-15]"));
    SchedService sched = SchedService.standalone(pool).build();
    FluxHandle schedHandle = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Void> started = new CompletableFuture<>();
    reactor.execute(
        () ->
            sched
                .start(schedHandle)
                .whenComplete(
                    (v, e) -> {
                      if (e != null) {
                        started.completeExceptionally(e);
                      } else {
                        started.complete(null);
                      }
                    }));
    started.get(10, TimeUnit.SECONDS);
    sched.online().get(10, TimeUnit.SECONDS);
    long id = jm.submit(Jobspecs.nodes(1), USER).get(10, TimeUnit.SECONDS);
    CompletableFuture<ResourceSet> r = new CompletableFuture<>();
    reactor.execute(() -> r.complete(jm.jobR(id).orElseThrow()));
    ShellPlugin shell = ShellPlugin.create(id, USER, r.get(10, TimeUnit.SECONDS));
    shell.start(hub.attach(Credentials.user(USER))).get(10, TimeUnit.SECONDS);
    FluxHandle app = hub.attach(Credentials.user(USER));
    client = new GrowClient(shell, app, api);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    reactor.close();
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
