package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one non-blocking stream connection under both framings (issue 11, scope 3): the local
 * connector's length-prefixed frames ({@link FramedChannel}) and ZMTP ({@link ZmtpConnection}) are
 * codecs on top of it. It completes a pending connect, reads at most {@link #READ_BUDGET} bytes per
 * readiness into one direct buffer (so one busy peer cannot starve the others; a codec grows its
 * own buffers with the bytes that arrived), queues writes and writes them gathering, keeps the
 * interest ops in step with the queue, and closes. What the bytes mean, the output limit and what a
 * failure is reported as are the codec's.
 */
final class StreamConnection {
  private static final Logger LOG = LoggerFactory.getLogger(StreamConnection.class);

  /** The most bytes read from one connection per readiness. */
  static final int READ_BUDGET = 256 * 1024;

  /** The most buffers handed to one gathering write. */
  private static final int GATHER = 64;

  /** Where an I/O error happened. */
  enum Phase {
    CONNECT,
    READ,
    WRITE
  }

  /** The codec driving the connection; every call comes on the loop. */
  interface Handler {
    /** The connection is established (at once for a channel connected already). */
    void onConnected();

    /** Bytes arrived: {@code in} is flipped, valid during the call only. */
    void onBytes(ByteBuffer in);

    /** One readiness's reads are done and the connection is still open. */
    void afterRead();

    /**
     * The peer closed its end. The codec closes the connection (or the channel stays readable and
     * this is told again at the next readiness).
     */
    void onEof();

    /**
     * Connecting, reading or writing failed; the connection is left open for the codec to close.
     */
    void onIoError(Phase phase, IOException e);

    /** Everything queued is written after {@link #closeWhenFlushed}: the codec closes. */
    void onFlushed();
  }

  private final Reactor reactor;
  private final SocketChannel channel;
  private final String name;
  private final ByteBuffer readBuf = ByteBuffer.allocateDirect(64 * 1024);
  private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
  private Handler handler;
  private SelectionKey key;
  private long queued;
  private boolean closed;
  private boolean reading = true;
  private boolean closeWhenFlushed;

  StreamConnection(Reactor reactor, SocketChannel channel, String name) {
    this.reactor = reactor;
    this.channel = channel;
    this.name = name;
  }

  /** Starts driving the channel (on the loop); a pending connect is completed first. */
  void start(Handler h) {
    this.handler = h;
    if (channel.isConnectionPending()) {
      key = reactor.register(channel, SelectionKey.OP_CONNECT, k -> ready());
    } else {
      key = reactor.register(channel, SelectionKey.OP_READ, k -> ready());
      h.onConnected();
    }
  }

  private void ready() {
    if (closed || !key.isValid()) {
      return;
    }
    if (key.isConnectable()) {
      try {
        if (!channel.finishConnect()) {
          return;
        }
      } catch (IOException e) {
        handler.onIoError(Phase.CONNECT, e);
        return;
      }
      key.interestOps(SelectionKey.OP_READ);
      handler.onConnected();
      return;
    }
    if (key.isWritable()) {
      flush();
    }
    if (!closed && reading && key.isValid() && key.isReadable()) {
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
          handler.onEof();
          return;
        }
        if (n == 0) {
          break;
        }
        total += n;
        readBuf.flip();
        handler.onBytes(readBuf);
      }
    } catch (IOException e) {
      handler.onIoError(Phase.READ, e);
      return;
    }
    if (!closed) {
      handler.afterRead();
    }
  }

  /** Stops reading (a refused peer whose ERROR is still being written); writes go on. */
  void stopReading() {
    reading = false;
  }

  /** Queues bytes and writes what the socket takes now (once connected). */
  void write(byte[] bytes) {
    if (closed) {
      return;
    }
    out.add(ByteBuffer.wrap(bytes));
    queued += bytes.length;
    if (out.size() == 1 && !channel.isConnectionPending()) {
      flush();
    }
  }

  /** Returns how many bytes wait to be written. */
  long queuedBytes() {
    return queued;
  }

  private void flush() {
    try {
      if (out.size() == 1) {
        ByteBuffer b = out.peek();
        queued -= channel.write(b);
        if (!b.hasRemaining()) {
          out.poll();
        }
      } else {
        while (!out.isEmpty()) {
          ByteBuffer[] batch = out.stream().limit(GATHER).toArray(ByteBuffer[]::new);
          long n = channel.write(batch);
          queued -= n;
          while (!out.isEmpty() && !out.peek().hasRemaining()) {
            out.poll();
          }
          if (n == 0 || batch[batch.length - 1].hasRemaining()) {
            break;
          }
        }
      }
    } catch (IOException e) {
      handler.onIoError(Phase.WRITE, e);
      return;
    }
    if (out.isEmpty() && closeWhenFlushed) {
      handler.onFlushed();
      return;
    }
    if (key != null && key.isValid() && (key.interestOps() & SelectionKey.OP_CONNECT) == 0) {
      int ops = (reading ? SelectionKey.OP_READ : 0) | (out.isEmpty() ? 0 : SelectionKey.OP_WRITE);
      if (key.interestOps() != ops) {
        key.interestOps(ops);
      }
    }
  }

  /**
   * Asks for {@link Handler#onFlushed} once everything queued is written (at once when nothing is).
   */
  void closeWhenFlushed() {
    closeWhenFlushed = true;
    if (out.isEmpty()) {
      handler.onFlushed();
    }
  }

  /** Returns whether the connection is closed. */
  boolean isClosed() {
    return closed;
  }

  /** Drops what is queued and closes the channel, reporting nothing. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    out.clear();
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
