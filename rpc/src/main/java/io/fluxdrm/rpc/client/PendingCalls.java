package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of a {@link FluxHandle} that await their responses, by matchtag: matchtags from a pool,
 * reused only after the final response; single responses, streams until ENODATA, per-call timeouts
 * (issue 31, scope 7; decision D542). Used on the handle's loop only.
 */
final class PendingCalls {
  /** Logged under the handle's name, as before the calls left it (D542). */
  private static final Logger LOG = LoggerFactory.getLogger(FluxHandle.class);

  private final FluxHandle handle;
  private final MatchtagPool tags = new MatchtagPool(Integer.MAX_VALUE - 1);
  private final Map<Integer, Call> calls = new HashMap<>();

  static final class Call {
    final String topic;
    final boolean streaming;
    final CompletableFuture<Message> single;
    final Consumer<Message> each;
    final RpcStream stream;
    CompletableFuture<Integer> sentTag;
    EventLoop.Cancellable timer;
    boolean orphan;

    Call(String topic, CompletableFuture<Message> single) {
      this.topic = topic;
      this.streaming = false;
      this.single = single;
      this.each = null;
      this.stream = null;
    }

    Call(String topic, Consumer<Message> each, RpcStream stream) {
      this.topic = topic;
      this.streaming = true;
      this.single = null;
      this.each = each;
      this.stream = stream;
    }

    void fail(RpcException e) {
      if (sentTag != null) {
        sentTag.completeExceptionally(e);
      }
      if (streaming) {
        stream.doneFuture().completeExceptionally(e);
      } else {
        single.completeExceptionally(e);
      }
    }
  }

  PendingCalls(FluxHandle handle) {
    this.handle = handle;
  }

  /**
   * Gives a call its matchtag and starts its timer; returns the request to send, with that
   * matchtag, or null when no matchtag is free (the call has failed).
   */
  Message start(Message request, Call c, Duration timeout) {
    int tag;
    try {
      tag = tags.alloc();
    } catch (RpcException e) {
      c.fail(e);
      return null;
    }
    calls.put(tag, c);
    if (timeout != null) {
      c.timer = handle.loop().schedule(timeout, () -> expire(tag, c, timeout));
    }
    if (c.stream != null) {
      c.stream.sent(tag);
    }
    if (c.sentTag != null) {
      c.sentTag.complete(tag);
    }
    return request.withMatchtag(tag);
  }

  /** A duration in plain seconds, "30 s" or "0.5 s", as error lines say it (D480). */
  private static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0
        ? ms / 1000 + " s"
        : java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s";
  }

  private void expire(int tag, Call c, Duration timeout) {
    if (calls.get(tag) != c || c.orphan) {
      return;
    }
    c.orphan = true;
    c.fail(new RpcException(Errno.ETIMEDOUT, c.topic + ": no response within " + seconds(timeout)));
    if (c.streaming) {
      handle.sendCancel(c.topic, tag);
    }
  }

  /** Hands a response with a matchtag (not 0) to the call that owns it. */
  void onResponse(Message m) {
    Call c = calls.get(m.matchtag());
    if (c == null) {
      LOG.debug("response with unknown matchtag {} dropped: {}", m.matchtag(), m.topic());
      return;
    }
    boolean fin = !c.streaming || m.errnum() != 0;
    if (fin) {
      calls.remove(m.matchtag());
      tags.free(m.matchtag());
      if (c.timer != null) {
        c.timer.cancel();
      }
    }
    if (c.orphan) {
      return;
    }
    if (!c.streaming) {
      if (m.errnum() == 0) {
        c.single.complete(m);
      } else {
        c.single.completeExceptionally(FluxHandle.error(m));
      }
      return;
    }
    if (m.errnum() == 0) {
      try {
        c.each.accept(m);
      } catch (RuntimeException e) {
        LOG.error("stream consumer of {} failed", c.topic, e);
      }
    } else if (m.errnum() == Errno.ENODATA) {
      c.stream.doneFuture().complete(null);
    } else {
      c.stream.doneFuture().completeExceptionally(FluxHandle.error(m));
    }
  }

  /** Fails every call with {@code e} (the handle is closed) and forgets them. */
  void failAll(RpcException e) {
    for (Call c : List.copyOf(calls.values())) {
      if (c.timer != null) {
        c.timer.cancel();
      }
      if (!c.orphan) {
        c.fail(e);
      }
    }
    calls.clear();
  }

  int inUse() {
    return tags.inUse();
  }
}
