package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.zmtp.FrameDecoder;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The deadline of the frame in progress of one {@link ZmtpSession}: proportional to its size with a
 * floor, so trickling a byte now and then keeps a connection alive but no longer holds a large
 * buffer (issue 12, finding 10). A frame that completes in time, or the next one, replaces the
 * deadline. Time is the session's loop's.
 */
final class FrameDeadline {
  private final EventLoop loop;
  private final FrameDecoder decoder;
  private final Duration floor;
  private final long minRate;
  private final Consumer<String> expired;
  private EventLoop.Cancellable timer;
  private long timerAt = -1;
  private long timerSize = -2;
  private long started;

  /**
   * @param expired given the reason when a frame is still incomplete at its deadline
   */
  FrameDeadline(
      EventLoop loop,
      FrameDecoder decoder,
      Duration floor,
      long minRate,
      Consumer<String> expired) {
    this.loop = loop;
    this.decoder = decoder;
    this.floor = floor;
    this.minRate = minRate;
    this.expired = expired;
  }

  /** Sets the deadline after one read's bytes: none between frames, one per frame in progress. */
  void check() {
    if (!decoder.midFrame()) {
      if (timer != null) {
        timer.cancel();
        timer = null;
      }
      timerAt = -1;
      return;
    }
    long size = decoder.claimedSize();
    if (timer != null && timerAt == decoder.frameAt() && timerSize == size) {
      return;
    }
    if (timer != null) {
      timer.cancel();
    }
    long at = decoder.frameAt();
    long since = timerAt == at ? started : loop.nanoTime();
    started = since;
    timerAt = at;
    timerSize = size;
    long allowed =
        floor.toNanos() + (size <= 0 ? 0 : Math.multiplyExact(size, 1_000_000_000L) / minRate);
    long left = Math.max(1, allowed - (loop.nanoTime() - since));
    timer =
        loop.schedule(
            Duration.ofNanos(left),
            () -> {
              if (decoder.midFrame() && decoder.frameAt() == at) {
                expired.accept(
                    "frame at byte "
                        + at
                        + " ("
                        + (size < 0 ? "header" : size + " bytes")
                        + ") incomplete after "
                        + allowed / 1_000_000
                        + " ms (expected: "
                        + floor.toMillis()
                        + " ms plus "
                        + minRate
                        + " bytes per second)");
              }
            });
  }

  /** Cancels the deadline. */
  void stop() {
    if (timer != null) {
      timer.cancel();
    }
  }
}
