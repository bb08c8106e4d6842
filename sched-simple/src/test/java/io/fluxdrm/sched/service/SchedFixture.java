package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A standalone scheduler on an in-memory hub driven by a {@link ManualEventLoop}: deterministic ids
 * ({@code peer-1}, ...), time that moves only when a test says so, an optional transcript of the
 * scheduler's endpoint.
 */
final class SchedFixture {
  static final int OWNER = 100;

  final ManualEventLoop loop = new ManualEventLoop();
  private int nextPeer = 1;
  final Hub hub = new Hub(loop, () -> "peer-" + nextPeer++);
  final FluxHandle schedHandle;
  final SchedService svc;
  final StringWriter transcript = new StringWriter();
  private TranscriptRecorder recorder;

  SchedFixture(ResourceSet pool, SchedulerOptions options) {
    this(pool, options, StateStore.inMemory());
  }

  SchedFixture(ResourceSet pool, SchedulerOptions options, StateStore store) {
    schedHandle = hub.attach(Credentials.owner(OWNER));
    svc =
        SchedService.standalone(pool)
            .options(options)
            .clock(() -> 1000 + loop.nanoTime() / 1e9)
            .store(store)
            .retry(Duration.ofMillis(100), Duration.ofSeconds(1))
            .build();
  }

  /** Records every message at the scheduler's endpoint, times from the loop. */
  SchedFixture recording() {
    Clock clock = loop.clock(Instant.EPOCH);
    recorder = new TranscriptRecorder(transcript, clock);
    schedHandle.tap(recorder);
    return this;
  }

  String transcript() {
    recorder.flush();
    return transcript.toString();
  }

  /** {@code n} nodes {@code node[0-(n-1)]}, ranks 0.., with {@code cores} cores each. */
  static ResourceSet pool(int n, int cores) {
    return ResourceSet.of(
        IdSet.range(0, n - 1),
        IdSet.range(0, cores - 1),
        IdSet.empty(),
        Hostlist.parse(n == 1 ? "node0" : "node[0-" + (n - 1) + "]"));
  }

  void start() {
    CompletableFuture<Void> f = svc.start(schedHandle);
    settle();
    assertThat(f).isCompleted();
  }

  SchedulerFacingJobManager jobManager() {
    SchedulerFacingJobManager jm =
        new SchedulerFacingJobManager(hub.attach(Credentials.owner(OWNER)));
    CompletableFuture<Void> f = jm.register();
    settle();
    assertThat(f).isCompleted();
    return jm;
  }

  /** A client that is not the instance owner. */
  FluxHandle user(int uid) {
    return hub.attach(Credentials.user(uid));
  }

  void settle() {
    loop.runPending();
  }

  void advance(Duration d) {
    loop.advance(d);
  }

  void checkInvariants() {
    svc.core().pool().checkInvariants();
  }

  /** The response payload of a completed call. */
  static ObjectNode answer(CompletableFuture<Message> f) {
    assertThat(f).as("answered").isDone();
    return f.join().json();
  }

  /** The error of a call that failed. */
  static RpcException error(CompletableFuture<Message> f) {
    assertThat(f).as("answered").isCompletedExceptionally();
    try {
      f.join();
    } catch (CompletionException e) {
      return (RpcException) e.getCause();
    }
    throw new AssertionError("not failed");
  }
}
