package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * A stream socket carrying local-connector frames, driven by the reactor: reads at most a budget
 * per readiness so one busy peer cannot starve the others, queues writes, and closes the connection
 * when its peer stops reading and the queue passes a limit.
 */
public final class FramedChannel {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(FramedChannel.class);

  /** What the channel reports, on the loop. */
  public interface Listener {
    void onMessage(Message m);

    void onClosed(RpcException cause);
  }

  private static final int READ_BUDGET = 256 * 1024;

  private final Reactor reactor;
  private final SocketChannel channel;
  private final LocalFraming.Decoder decoder;
  private final long maxQueued;
  private final String name;
  private final ByteBuffer readBuf = ByteBuffer.allocateDirect(64 * 1024);
  private final ArrayDeque<ByteBuffer> queue = new ArrayDeque<>();
  private long queued;
  private SelectionKey key;
  private Listener listener;
  private boolean closed;

  public FramedChannel(
      Reactor reactor, SocketChannel channel, int maxMessage, long maxQueued, String name) {
    this.reactor = reactor;
    this.channel = channel;
    this.decoder = new LocalFraming.Decoder(maxMessage);
    this.maxQueued = maxQueued;
    this.name = name;
  }

  public void start(Listener l) {
    this.listener = l;
    key = reactor.register(channel, SelectionKey.OP_READ, k -> ready());
  }

  private void ready() {
    if (closed) {
      return;
    }
    if (key.isValid() && key.isWritable()) {
      flush();
    }
    if (!closed && key.isValid() && key.isReadable()) {
      read();
    }
  }

  private void read() {
    int total = 0;
    try {
      while (total < READ_BUDGET && !closed) {
        readBuf.clear();
        int n = channel.read(readBuf);
        if (n < 0) {
          RpcException cause =
              decoder.truncated()
                  ? RpcException.proto(name + ": " + decoder.truncation())
                  : new RpcException(Errno.ECONNRESET, name + ": connection closed by peer");
          fail(cause);
          return;
        }
        if (n == 0) {
          break;
        }
        total += n;
        readBuf.flip();
        decoder.feed(readBuf);
        for (Message m = decoder.next(); m != null && !closed; m = decoder.next()) {
          listener.onMessage(m);
        }
      }
    } catch (RpcException e) {
      fail(RpcException.proto(name + ": " + e.getMessage()));
    } catch (IOException e) {
      fail(new RpcException(Errno.ECONNRESET, name + ": " + e.getMessage()));
    }
  }

  /** Queues a message; closes the channel with EPROTO when the queue passes its limit. */
  public void send(Message m) {
    if (closed) {
      return;
    }
    byte[] frame = LocalFraming.frame(m);
    if (queued + frame.length > maxQueued) {
      fail(
          new RpcException(
              Errno.EPROTO,
              name
                  + ": peer stopped reading ("
                  + queued
                  + " bytes queued, limit "
                  + maxQueued
                  + ")"));
      return;
    }
    queue.add(ByteBuffer.wrap(frame));
    queued += frame.length;
    if (queue.size() == 1) {
      flush();
    }
  }

  private void flush() {
    try {
      while (!queue.isEmpty()) {
        ByteBuffer b = queue.peek();
        int before = b.remaining();
        channel.write(b);
        queued -= before - b.remaining();
        if (b.hasRemaining()) {
          break;
        }
        queue.poll();
      }
    } catch (IOException e) {
      fail(new RpcException(Errno.ECONNRESET, name + ": " + e.getMessage()));
      return;
    }
    if (key != null && key.isValid()) {
      int ops = SelectionKey.OP_READ | (queue.isEmpty() ? 0 : SelectionKey.OP_WRITE);
      if (key.interestOps() != ops) {
        key.interestOps(ops);
      }
    }
  }

  private void fail(RpcException cause) {
    if (closed) {
      return;
    }
    close();
    listener.onClosed(cause);
  }

  /** Closes without reporting. */
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    queue.clear();
    queued = 0;
    if (key != null) {
      key.cancel();
    }
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("{}: close: {}", name, e.getMessage());
    }
  }
}
