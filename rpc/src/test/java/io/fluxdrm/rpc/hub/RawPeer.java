package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/** A raw local-connector peer for bad-input tests: bytes in, bytes out, bounded waits. */
final class RawPeer implements AutoCloseable {
  private final SocketChannel ch;
  private final Selector sel;
  private final LocalFraming.Decoder decoder = new LocalFraming.Decoder(1 << 24);
  final int handshake;
  private boolean eof;

  private RawPeer(SocketChannel ch, Selector sel, int handshake) {
    this.ch = ch;
    this.sel = sel;
    this.handshake = handshake;
  }

  static RawPeer connect(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    ch.connect(UnixDomainSocketAddress.of(socket));
    ch.configureBlocking(false);
    Selector sel = Selector.open();
    ch.register(sel, SelectionKey.OP_READ);
    ByteBuffer one = ByteBuffer.allocate(1);
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (one.hasRemaining()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("no handshake byte");
      }
      sel.select(50);
      sel.selectedKeys().clear();
      if (ch.read(one) < 0) {
        throw new IOException("eof before handshake");
      }
    }
    return new RawPeer(ch, sel, one.get(0) & 0xff);
  }

  /** Writes all bytes, blocking up to five seconds; returns false if the hub closed the socket. */
  boolean write(byte[] b) {
    ByteBuffer buf = ByteBuffer.wrap(b);
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    try {
      while (buf.hasRemaining()) {
        if (ch.write(buf) == 0) {
          if (System.nanoTime() > deadline) {
            return true;
          }
          Thread.sleep(1); // polling with a deadline: the socket's buffer is full
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Reads until a message arrives (returned), EOF (null), or the limit passes (AssertionError). */
  Message read(Duration limit) throws IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    ByteBuffer buf = ByteBuffer.allocate(65536);
    while (true) {
      Message m = decoder.next();
      if (m != null) {
        return m;
      }
      if (eof) {
        return null;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("nothing read within " + limit);
      }
      sel.select(Math.max(1, left / 1_000_000));
      sel.selectedKeys().clear();
      buf.clear();
      int n;
      try {
        n = ch.read(buf);
      } catch (IOException e) {
        n = -1;
      }
      if (n < 0) {
        eof = true;
      } else {
        buf.flip();
        decoder.feed(buf);
      }
    }
  }

  /** Returns true when the hub closes the connection within the limit (messages are skipped). */
  boolean closedWithin(Duration limit) throws IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (read(Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))) == null) {
          return true;
        }
      } catch (AssertionError e) {
        return false;
      }
    }
    return false;
  }

  /** Closes the socket (used by tests that end the stream mid-frame). */
  void hangUp() throws IOException {
    close();
  }

  @Override
  public void close() throws IOException {
    sel.close();
    ch.close();
  }
}
