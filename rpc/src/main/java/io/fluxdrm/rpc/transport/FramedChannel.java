package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A stream socket carrying local-connector frames ({@link LocalFraming}), driven by the reactor:
 * the framing's codec on the shared {@link StreamConnection}, which reads at most a budget per
 * readiness so one busy peer cannot starve the others and queues writes; this closes the connection
 * when its peer stops reading and the queue passes a limit.
 */
public final class FramedChannel {
  /** What the channel reports, on the loop. */
  public interface Listener {
    void onMessage(Message m);

    void onClosed(RpcException cause);
  }

  private final StreamConnection conn;
  private final LocalFraming.Decoder decoder;
  private final long maxQueued;
  private final String name;
  private Listener listener;

  public FramedChannel(
      Reactor reactor, SocketChannel channel, int maxMessage, long maxQueued, String name) {
    this.conn = new StreamConnection(reactor, channel, name);
    this.decoder = new LocalFraming.Decoder(maxMessage);
    this.maxQueued = maxQueued;
    this.name = name;
  }

  public void start(Listener l) {
    this.listener = l;
    conn.start(new Codec());
  }

  /** The local framing on the shared connection. */
  private final class Codec implements StreamConnection.Handler {
    @Override
    public void onConnected() {}

    @Override
    public void onBytes(ByteBuffer in) {
      try {
        decoder.feed(in);
        for (Message m = decoder.next(); m != null && !conn.isClosed(); m = decoder.next()) {
          listener.onMessage(m);
        }
      } catch (RpcException e) {
        fail(RpcException.proto(name + ": " + e.getMessage()));
      }
    }

    @Override
    public void afterRead() {}

    @Override
    public void onEof() {
      fail(
          decoder.truncated()
              ? RpcException.proto(name + ": " + decoder.truncation())
              : new RpcException(Errno.ECONNRESET, name + ": connection closed by peer"));
    }

    @Override
    public void onIoError(StreamConnection.Phase phase, IOException e) {
      fail(new RpcException(Errno.ECONNRESET, name + ": " + e.getMessage()));
    }

    @Override
    public void onFlushed() {
      close();
    }
  }

  /** Queues a message; closes the channel with EPROTO when the queue passes its limit. */
  public void send(Message m) {
    if (conn.isClosed()) {
      return;
    }
    byte[] frame = LocalFraming.frame(m);
    long queued = conn.queuedBytes();
    if (queued + frame.length > maxQueued) {
      // the limit counts what the socket refused, not what waits for the end of the turn
      queued = conn.flushPending();
    }
    if (conn.isClosed()) {
      return; // the write failed, and was reported
    }
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
    conn.write(frame);
  }

  private void fail(RpcException cause) {
    if (conn.isClosed()) {
      return;
    }
    close();
    listener.onClosed(cause);
  }

  /** Closes without reporting. */
  public void close() {
    conn.close();
  }
}
