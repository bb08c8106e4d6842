package io.fluxdrm.rpc.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EventLoopTest {
  @Test
  void manualLoopClock_advance_readsStartPlusLoopTimeInUtc() {
    ManualEventLoop loop = new ManualEventLoop();
    Instant t0 = Instant.parse("2026-11-29T00:00:00Z");
    Clock clock = loop.clock(t0);
    assertThat(clock.instant()).isEqualTo(t0);
    assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    loop.advance(Duration.ofMillis(1500));
    assertThat(clock.instant()).isEqualTo(Instant.parse("2026-11-29T00:00:01.500Z"));
    Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));
    assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
    loop.advance(Duration.ofNanos(1));
    assertThat(paris.instant()).isEqualTo(Instant.parse("2026-11-29T00:00:01.500000001Z"));
  }

  @Test
  void manualLoop_timersFireInDeadlineThenSubmissionOrder() {
    ManualEventLoop loop = new ManualEventLoop();
    List<String> ran = new ArrayList<>();
    loop.schedule(Duration.ofMillis(30), () -> ran.add("30"));
    loop.schedule(Duration.ofMillis(10), () -> ran.add("10a"));
    loop.schedule(Duration.ofMillis(10), () -> ran.add("10b"));
    EventLoop.Cancellable c = loop.schedule(Duration.ofMillis(20), () -> ran.add("20"));
    loop.execute(() -> ran.add("task"));
    c.cancel();
    loop.advance(Duration.ofMillis(29));
    assertThat(ran).containsExactly("task", "10a", "10b");
    assertThat(loop.nanoTime()).isEqualTo(29_000_000L);
    loop.advance(Duration.ofMillis(1));
    assertThat(ran).containsExactly("task", "10a", "10b", "30");
  }

  @Test
  void manualLoop_timerSchedulesTimer_firesWithinSameAdvance() {
    ManualEventLoop loop = new ManualEventLoop();
    List<Long> at = new ArrayList<>();
    loop.schedule(
        Duration.ofSeconds(1),
        () -> {
          at.add(loop.nanoTime());
          loop.schedule(Duration.ofSeconds(1), () -> at.add(loop.nanoTime()));
        });
    loop.advance(Duration.ofSeconds(5));
    assertThat(at).containsExactly(1_000_000_000L, 2_000_000_000L);
    assertThat(loop.inLoop()).isFalse();
  }

  @ParameterizedTest(name = "deadline {0} ns from now: {1}")
  @CsvSource({
    "30000000000, 30000",
    "5000000, 5",
    "4000001, 5",
    "1, 1",
    "0, -1",
    "-5, -1",
  })
  void selectWait_timerPending_waitsUntilItRoundedUp(long inNanos, long expectedMs) {
    long now = 1_000_000_000L;
    assertThat(Reactor.selectWait(now + inNanos, now)).isEqualTo(expectedMs);
  }

  @Test
  void selectWait_noTimer_forever() {
    assertThat(Reactor.selectWait(Long.MAX_VALUE, 42L)).isZero();
  }

  @ParameterizedTest
  @CsvSource({
    "'', 0",
    "' ', 0",
    "0, 0",
    "50, 50000",
    " 7 , 7000",
    "10000, 10000000",
    "10001, 0",
    "-1, 0",
    "fast, 0"
  })
  void spinFromProperty_values_microsecondsOrZero(String value, long nanos) {
    assertThat(Reactor.spinFromProperty(value)).isEqualTo(nanos);
  }

  @Test
  void start_spinOutOfRange_refusedWithReason() {
    assertThatThrownBy(() -> Reactor.start("bad-spin", Duration.ofMillis(11)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reactor spin 11000 us (expected: 0 to 10000 us)");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 200})
  @Timeout(20)
  void reactor_spinningOrNot_tasksTimersAndIoAllServed(long spinMicros) throws Exception {
    try (Reactor r = Reactor.start("spin-test", Duration.ofNanos(spinMicros * 1000))) {
      // tasks handed over one at a time, each after the loop has gone back to waiting
      for (int i = 0; i < 200; i++) {
        CompletableFuture<Boolean> ran = new CompletableFuture<>();
        r.execute(() -> ran.complete(r.inLoop()));
        assertThat(ran.get(5, TimeUnit.SECONDS)).isTrue();
      }
      CompletableFuture<Void> timer = new CompletableFuture<>();
      r.schedule(Duration.ofMillis(5), () -> timer.complete(null));
      timer.get(5, TimeUnit.SECONDS);
      java.nio.channels.Pipe pipe = java.nio.channels.Pipe.open();
      java.util.concurrent.LinkedBlockingQueue<Integer> got =
          new java.util.concurrent.LinkedBlockingQueue<>();
      r.runAndWait(
          () ->
              r.register(
                  pipe.source(),
                  java.nio.channels.SelectionKey.OP_READ,
                  k -> {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16);
                    try {
                      while (pipe.source().read(b) > 0) {
                        b.flip();
                        while (b.hasRemaining()) {
                          got.add((int) b.get());
                        }
                        b.clear();
                      }
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  }),
          Duration.ofSeconds(5));
      for (int i = 1; i <= 50; i++) {
        pipe.sink().write(java.nio.ByteBuffer.wrap(new byte[] {(byte) i}));
        assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo(i);
      }
      pipe.sink().close();
    }
  }

  @Test
  @Timeout(10)
  void reactor_tasksFromOtherThreads_runInOrderOnTheLoop() throws Exception {
    try (Reactor r = Reactor.start("loop-test")) {
      List<Integer> ran = new CopyOnWriteArrayList<>();
      CompletableFuture<Boolean> inLoop = new CompletableFuture<>();
      for (int i = 0; i < 1000; i++) {
        int n = i;
        r.execute(() -> ran.add(n));
      }
      r.execute(() -> inLoop.complete(r.inLoop()));
      assertThat(inLoop.get(5, TimeUnit.SECONDS)).isTrue();
      assertThat(ran).hasSize(1000).isSorted();
      assertThat(r.inLoop()).isFalse();
    }
  }

  @Test
  @Timeout(10)
  void reactor_timers_fireInDeadlineOrderAndCancelledOnesNot() throws Exception {
    try (Reactor r = Reactor.start("timer-test")) {
      List<String> ran = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(1);
      r.schedule(
          Duration.ofMillis(60),
          () -> {
            ran.add("60");
            done.countDown();
          });
      r.schedule(Duration.ofMillis(20), () -> ran.add("20"));
      EventLoop.Cancellable c = r.schedule(Duration.ofMillis(40), () -> ran.add("40"));
      c.cancel();
      assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(ran).containsExactly("20", "60");
    }
  }

  @Test
  @Timeout(10)
  void reactor_failingTask_loopKeepsRunning() throws Exception {
    try (Reactor r = Reactor.start("fail-test")) {
      r.execute(
          () -> {
            throw new IllegalStateException("boom");
          });
      CompletableFuture<String> after = new CompletableFuture<>();
      r.execute(() -> after.complete("ok"));
      assertThat(after.get(5, TimeUnit.SECONDS)).isEqualTo("ok");
    }
  }

  @Test
  @Timeout(10)
  void reactor_executeAfterClose_refused() {
    Reactor r = Reactor.start("closed-test");
    r.close();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.execute(() -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("reactor closed-test has stopped");
  }
}
