package io.fluxdrm.showcase.plot;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * {@code fluxdrm plot --live} against a running sched-simple and job manager on an in-memory hub:
 * the snapshot of what is held when the watch starts, then each alloc and free as it happens.
 */
class LivePlotTest {
  private final ManualEventLoop loop = new ManualEventLoop();
  private final Hub hub = new Hub(loop);
  private final JobManager jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);

  private void start() {
    FluxHandle jmHandle = hub.attach(Credentials.owner(0));
    jm.attach(jmHandle);
    jmHandle.register(jm.service());
    SchedService.standalone(DemoReplayProvider.pool(Hostlist.parse("n[0-7]"), IdSet.range(0, 3)))
        .clock(() -> 1000 + loop.nanoTime() / 1e9)
        .build()
        .start(hub.attach(Credentials.owner(0)));
    loop.runPending();
  }

  private long submit(int nodes) {
    CompletableFuture<Long> f = jm.submit(DemoReplayProvider.jobspec(nodes), 1000);
    loop.runPending();
    loop.advance(Duration.ofMillis(5));
    loop.runPending();
    assertThat(f).isCompleted();
    return f.join();
  }

  @Test
  void live_snapshotThenAllocAndFree_gridFollows() {
    start();
    submit(2);
    StringWriter out = new StringWriter();
    LivePlot plot =
        new LivePlot(
            hub.attach(Credentials.owner(0)),
            new PrintWriter(out),
            false,
            60,
            loop.clock(Instant.parse("2026-01-01T00:00:00Z")));
    CompletableFuture<Void> ready = plot.start();
    loop.runPending();
    assertThat(ready).isCompleted();
    List<String> first = plot.frame().lines().toList();
    assertThat(first.get(0)).startsWith("fluxdrm plot --live: 8 nodes, 1 jobs");
    assertThat(first.subList(1, 9))
        .extracting(l -> l.substring(0, 6))
        .containsExactly(
            "  n0 |", "  n1 |", "  n2 |", "  n3 |", "  n4 |", "  n5 |", "  n6 |", "  n7 |");
    // the job held 2 nodes when the watch began
    assertThat(first.subList(1, 9)).filteredOn(l -> l.contains("A")).hasSize(2);

    loop.advance(Duration.ofMillis(100));
    long second = submit(3);
    loop.advance(Duration.ofMillis(100));
    plot.draw();
    List<String> next = plot.frame().lines().toList();
    assertThat(next.get(0)).contains("8 nodes, 2 jobs");
    assertThat(next.subList(1, 9)).filteredOn(l -> l.contains("B")).hasSize(3);

    CompletableFuture<Void> fin = jm.finish(second);
    loop.runPending();
    assertThat(fin).isCompleted();
    loop.advance(Duration.ofMillis(300));
    plot.draw();
    // B's rows end before the right edge: its last cells are free again
    assertThat(plot.frame().lines().toList().subList(1, 9))
        .filteredOn(l -> l.contains("B"))
        .hasSize(3)
        .allSatisfy(l -> assertThat(l).endsWith(".|"));
    assertThat(out.toString()).contains(plot.frame());
    assertThat(plot.frames()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void live_notTheInstanceOwner_eperm() {
    start();
    LivePlot plot =
        new LivePlot(
            hub.attach(Credentials.user(1000)),
            new PrintWriter(new StringWriter()),
            false,
            60,
            loop.clock(Instant.EPOCH));
    CompletableFuture<Void> ready = plot.start();
    loop.runPending();
    assertThat(ready).isCompletedExceptionally();
    Throwable c =
        ready.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    assertThat(c).isInstanceOf(RpcException.class);
    assertThat(((RpcException) c).errnum()).isEqualTo(Errno.EPERM);
    assertThat(c.getMessage())
        .isEqualTo(
            "sched.watch: user 1000 is not the instance owner (expected: the instance owner)");
  }

  @Test
  void live_noScheduler_enosys() {
    LivePlot plot =
        new LivePlot(
            hub.attach(Credentials.owner(0)),
            new PrintWriter(new StringWriter()),
            false,
            60,
            loop.clock(Instant.EPOCH));
    CompletableFuture<Void> ready = plot.start();
    loop.runPending();
    assertThat(ready).isCompletedExceptionally();
    Throwable c =
        ready.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    assertThat(((RpcException) c).errnum()).isEqualTo(Errno.ENOSYS);
  }
}
