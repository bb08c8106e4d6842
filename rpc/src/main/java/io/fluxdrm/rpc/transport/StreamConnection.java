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
 *
 * <p>System calls per message (issue 11, the round-trip regression): a read that leaves room in the
 * buffer drained the socket, so no second read is made to learn so (the selector is level
 * triggered: bytes that come later make the channel ready again); and the frames queued during one
 * turn of the loop leave in one gathering write at the end of it ({@link #GATHER} buffers or {@link
 * #CORK_BYTES} bytes at most wait), not one write each. Nothing waits longer than the turn: {@link
 * #close} first writes what the socket takes of it, and {@link #flushPending} lets a codec check
 * its output limit against what the socket refused, as when every frame was written at once.
 */
final class StreamConnection {
  private static final Logger LOG = LoggerFactory.getLogger(StreamConnection.class);

  /** The most bytes read from one connection per readiness. */
  static final int READ_BUDGET = 256 * 1024;

  /** The most buffers handed to one gathering write, and the most that wait for the turn's end. */
  static final int GATHER = 64;

  /** The most bytes that wait for the end of the loop's turn before they are written. */
  static final int CORK_BYTES = 64 * 1024;

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
  private final ByteBuffer[] batch = new ByteBuffer[GATHER];
  private final Runnable flushTask = this::flushPending;
  private Handler handler;
  private SelectionKey key;
  private long queued;
  private boolean closed;
  private boolean reading = true;
  private boolean closeWhenFlushed;

  /** Bytes are queued that no write has tried yet; a flush at the end of the turn is due. */
  private boolean corked;

  private long corkedBytes;
  private long reads;
  private long writes;

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
        reads++;
        int n = channel.read(readBuf);
        if (n < 0) {
          handler.onEof();
          return;
        }
        if (n == 0) {
          break;
        }
        total += n;
        boolean drained = readBuf.hasRemaining(); // the socket had less than the room left
        readBuf.flip();
        handler.onBytes(readBuf);
        if (drained) {
          break;
        }
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

  /**
   * Queues bytes; they are written at the end of the loop's turn, with whatever else is queued in
   * it (at once when {@link #GATHER} buffers or {@link #CORK_BYTES} bytes wait), once connected.
   * While the socket takes nothing more they wait for it to become writable.
   */
  void write(byte[] bytes) {
    if (closed) {
      return;
    }
    boolean waitingWritable = !out.isEmpty() && !corked;
    out.add(ByteBuffer.wrap(bytes));
    queued += bytes.length;
    if (waitingWritable || channel.isConnectionPending()) {
      return;
    }
    corkedBytes += bytes.length;
    if (out.size() >= GATHER || corkedBytes >= CORK_BYTES) {
      flush();
    } else if (!corked) {
      corked = true;
      try {
        reactor.execute(flushTask);
      } catch (IllegalStateException stopped) {
        flush(); // the loop is stopping (closing its resources): no later turn
      }
    }
  }

  /** Returns how many bytes wait to be written (including those waiting for the turn's end). */
  long queuedBytes() {
    return queued;
  }

  /**
   * Writes at once what waits for the end of the turn, and returns how many bytes still wait: what
   * the socket did not take. A codec checks its output limit against this.
   */
  long flushPending() {
    if (corked && !closed) {
      flush();
    }
    return queued;
  }

  /** Returns how many reads and writes were made on the socket (for tests). */
  long[] ioCalls() {
    return new long[] {reads, writes};
  }

  private void flush() {
    corked = false;
    corkedBytes = 0;
    try {
      writeQueue();
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

  /** Writes the queue, gathering, until it is empty or the socket takes nothing more. */
  private void writeQueue() throws IOException {
    if (out.size() == 1) {
      ByteBuffer b = out.peek();
      writes++;
      queued -= channel.write(b);
      if (!b.hasRemaining()) {
        out.poll();
      }
      return;
    }
    while (!out.isEmpty()) {
      int k = 0;
      for (ByteBuffer b : out) {
        if (k == GATHER) {
          break;
        }
        batch[k++] = b;
      }
      writes++;
      long n = channel.write(batch, 0, k);
      queued -= n;
      boolean rest = batch[k - 1].hasRemaining();
      java.util.Arrays.fill(batch, 0, k, null);
      while (!out.isEmpty() && !out.peek().hasRemaining()) {
        out.poll();
      }
      if (n == 0 || rest) {
        break;
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

  /**
   * Closes the channel, reporting nothing: what waits for the end of the turn is first written as
   * far as the socket takes it now (as it would have been had each write gone out at once, e.g. an
   * answer before a disconnect); the rest of the queue is dropped.
   */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (corked) {
      corked = false;
      try {
        writeQueue();
      } catch (IOException e) {
        LOG.debug("{}: write on close: {}", name, e.getMessage());
      }
    }
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
