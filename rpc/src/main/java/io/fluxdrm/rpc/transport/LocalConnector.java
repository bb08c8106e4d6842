package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/** The client of flux-core's local connector: a Unix stream socket, one handshake byte, frames. */
public final class LocalConnector implements Connector {
  private final FramedChannel channel;

  private LocalConnector(FramedChannel channel) {
    this.channel = channel;
  }

  /**
   * Connects and reads the handshake byte, blocking the caller (never the reactor) up to {@code
   * timeout}.
   *
   * @throws RpcException the errno the server sent instead of 0, ECONNRESET on EOF, ETIMEDOUT
   */
  public static LocalConnector connect(
      Reactor reactor, Path path, Duration timeout, int maxMessage) {
    if (reactor.inLoop()) {
      throw new IllegalStateException("connect blocks: call it off the reactor thread");
    }
    String where = "local://" + path;
    long deadline = System.nanoTime() + timeout.toNanos();
    SocketChannel ch = null;
    try {
      ch = connectWithRetry(path, where, deadline, timeout);
      ch.configureBlocking(false);
      ByteBuffer one = ByteBuffer.allocate(1);
      try (Selector sel = Selector.open()) {
        ch.register(sel, SelectionKey.OP_READ);
        while (one.hasRemaining()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new RpcException(
                Errno.ETIMEDOUT, where + ": no handshake byte within " + timeout);
          }
          sel.select(Math.max(1, left / 1_000_000));
          sel.selectedKeys().clear();
          int n = ch.read(one);
          if (n < 0) {
            throw new RpcException(Errno.ECONNRESET, where + ": closed before the handshake byte");
          }
        }
        ch.keyFor(sel).cancel();
        sel.selectNow();
      }
      int b = one.get(0) & 0xff;
      if (b != LocalFraming.HANDSHAKE_ACCEPTED) {
        throw new RpcException(
            b, where + ": connection refused by the server (" + Errno.name(b) + " " + b + ")");
      }
      return new LocalConnector(new FramedChannel(reactor, ch, maxMessage, Long.MAX_VALUE, where));
    } catch (IOException e) {
      closeQuietly(ch);
      throw new RpcException(Errno.ECONNRESET, where + ": " + e.getMessage());
    } catch (RpcException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  /**
   * Connects, retrying with a doubling back-off (10 ms to 500 ms) while the socket does not exist
   * yet or refuses, as flux-core's connector does, until the deadline.
   */
  private static SocketChannel connectWithRetry(
      Path path, String where, long deadline, Duration timeout) throws IOException {
    long backoffMs = 10;
    while (true) {
      SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
      try {
        ch.connect(UnixDomainSocketAddress.of(path));
        return ch;
      } catch (IOException e) {
        ch.close();
        boolean missing = !java.nio.file.Files.exists(path);
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new RpcException(
              missing ? Errno.ENOENT : Errno.ECONNREFUSED,
              where
                  + ": cannot connect within "
                  + timeout
                  + (missing ? " (no such socket)" : " (" + e.getMessage() + ")"));
        }
        try {
          Thread.sleep(Math.min(backoffMs, Math.max(1, left / 1_000_000)));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new RpcException(Errno.ECONNREFUSED, where + ": interrupted while connecting");
        }
        backoffMs = Math.min(500, backoffMs * 2);
      }
    }
  }

  private static void closeQuietly(SocketChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        org.slf4j.LoggerFactory.getLogger(LocalConnector.class).debug("close: {}", e.getMessage());
      }
    }
  }

  @Override
  public void start(Connector.Inbound inbound) {
    channel.start(
        new FramedChannel.Listener() {
          @Override
          public void onMessage(Message m) {
            inbound.onMessage(m);
          }

          @Override
          public void onClosed(RpcException cause) {
            inbound.onClosed(cause);
          }
        });
  }

  @Override
  public void send(Message m) {
    channel.send(m);
  }

  @Override
  public void close() {
    channel.close();
  }
}
