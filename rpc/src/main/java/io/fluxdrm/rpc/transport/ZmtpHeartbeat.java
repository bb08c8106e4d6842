package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.zmtp.Ping;
import java.time.Duration;

/**
 * The heartbeats of one {@link ZmtpSession}: a PING every interval, the session ended after a
 * timeout with no traffic once PINGed, and the time to live of the peer's PINGs honoured (the tick
 * then runs at least every half of it). Time is the session's loop's.
 */
final class ZmtpHeartbeat {
  private final EventLoop loop;
  private final Duration interval;
  private final Duration timeout;
  private final ZmtpSession session;
  private long lastHeard;
  private long lastPing;
  private long peerTtlNanos;
  private long pingsReceived;
  private long pongsReceived;
  private EventLoop.Cancellable tick;

  ZmtpHeartbeat(EventLoop loop, Duration interval, Duration timeout, ZmtpSession session) {
    this.loop = loop;
    this.interval = interval;
    this.timeout = timeout;
    this.session = session;
  }

  /** Traffic arrived (or the connection was made): the peer is alive now. */
  void heard() {
    lastHeard = loop.nanoTime();
  }

  /** Returns how many PINGs the peer has sent. */
  long pingsReceived() {
    return pingsReceived;
  }

  /** Returns how many PONGs the peer has sent. */
  long pongsReceived() {
    return pongsReceived;
  }

  /** The peer sent a PING: counts it and takes its time to live; the caller answers it. */
  void onPing(Ping p) {
    pingsReceived++;
    if (p.ttlDeciseconds() > 0) {
      boolean first = peerTtlNanos == 0;
      peerTtlNanos = p.ttlDeciseconds() * 100_000_000L;
      if (first) {
        arm();
      }
    }
  }

  /** The peer sent a PONG (its traffic already proved it alive). */
  void onPong() {
    pongsReceived++;
  }

  /** Starts (or restarts) the tick, whose period is the interval or half the peer's TTL. */
  void arm() {
    if (tick != null) {
      tick.cancel();
      tick = null;
    }
    long period = 0;
    if (!interval.isZero()) {
      period = interval.toNanos();
    }
    if (peerTtlNanos > 0) {
      period = period == 0 ? peerTtlNanos / 2 : Math.min(period, peerTtlNanos / 2);
    }
    if (period == 0 || session.isClosed()) {
      return;
    }
    long p = Math.max(period, 10_000_000L);
    tick = loop.schedule(Duration.ofNanos(p), () -> onTick(p));
  }

  private void onTick(long period) {
    if (session.isClosed()) {
      return;
    }
    long now = loop.nanoTime();
    long silent = now - lastHeard;
    boolean pinging = !interval.isZero();
    if (pinging && !timeout.isZero() && silent > timeout.toNanos() && lastPing != 0) {
      session.fail(
          "no traffic for " + silent / 1_000_000 + " ms after a PING (heartbeat timeout)", false);
      return;
    }
    if (peerTtlNanos > 0 && silent > peerTtlNanos) {
      session.fail(
          "no traffic for " + silent / 1_000_000 + " ms (the peer's heartbeat ttl)", false);
      return;
    }
    if (pinging && now - lastPing >= interval.toNanos() - period / 10) {
      int ttl = (int) Math.min(0xffff, timeout.toMillis() / 100);
      session.sendCommand(new Ping(ttl, new byte[0]).encode());
      lastPing = now;
    }
    tick = loop.schedule(Duration.ofNanos(period), () -> onTick(period));
  }

  /** Stops the tick. */
  void stop() {
    if (tick != null) {
      tick.cancel();
    }
  }
}
