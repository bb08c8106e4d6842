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
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
   * timeout} for a server that accepts but is slow to answer. When no server listens there (no
   * socket, or a stale one that refuses) it fails at once: a command should not wait for a server
   * that is not running (issue 29, finding 2; D480).
   *
   * @throws RpcException ENOENT when the socket does not exist, ECONNREFUSED when nothing listens
   *     on it, EACCES when it may not be opened, the errno the server sent instead of 0, ECONNRESET
   *     on EOF, ETIMEDOUT when the handshake byte does not come in time
   */
  public static LocalConnector connect(
      Reactor reactor, Path path, Duration timeout, int maxMessage) {
    return connect(reactor, path, timeout, maxMessage, false);
  }

  /**
   * As {@link #connect}, but waits for a server that is starting: while the socket does not exist
   * yet or refuses, it tries again with a doubling back-off (10 ms to 500 ms), as flux-core's
   * connector does, until {@code timeout}. For a caller that has just started that server.
   *
   * @throws RpcException as {@link #connect}, ENOENT or ECONNREFUSED only once {@code timeout} has
   *     passed
   */
  public static LocalConnector connectWhenUp(
      Reactor reactor, Path path, Duration timeout, int maxMessage) {
    return connect(reactor, path, timeout, maxMessage, true);
  }

  private static LocalConnector connect(
      Reactor reactor, Path path, Duration timeout, int maxMessage, boolean waitForServer) {
    if (reactor.inLoop()) {
      throw new IllegalStateException("connect blocks: call it off the reactor thread");
    }
    String where = "local://" + path;
    long deadline = System.nanoTime() + timeout.toNanos();
    SocketChannel ch = null;
    try {
      ch = connectSocket(path, where, deadline, timeout, waitForServer);
      ch.configureBlocking(false);
      ByteBuffer one = ByteBuffer.allocate(1);
      try (Selector sel = Selector.open()) {
        ch.register(sel, SelectionKey.OP_READ);
        while (one.hasRemaining()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new RpcException(
                Errno.ETIMEDOUT,
                where
                    + ": no handshake byte within "
                    + seconds(timeout)
                    + " (a server accepted the connection but did not answer)");
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
   * Connects the socket; without {@code waitForServer} a missing or refusing socket fails at once,
   * with it they are tried again until the deadline.
   */
  private static SocketChannel connectSocket(
      Path path, String where, long deadline, Duration timeout, boolean waitForServer)
      throws IOException {
    long backoffMs = 10;
    while (true) {
      SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
      try {
        ch.connect(UnixDomainSocketAddress.of(path));
        return ch;
      } catch (IOException e) {
        ch.close();
        RpcException why = notListening(path, where, e);
        boolean absent = why.errnum() == Errno.ENOENT || why.errnum() == Errno.ECONNREFUSED;
        if (!absent || !waitForServer) {
          throw why;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new RpcException(
              why.errnum(),
              why.getMessage()
                  .replaceFirst(
                      ": no server listens there",
                      ": no server listens there after " + seconds(timeout)));
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

  /** Why connecting to {@code path} failed, located and said in words (D480). */
  private static RpcException notListening(Path path, String where, IOException e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("denied")) {
      return new RpcException(
          Errno.EACCES,
          where + ": permission denied (expected: access to " + path + " and its directories)");
    }
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return new RpcException(
          Errno.ENOENT,
          where + ": no server listens there (the socket " + path + " does not exist)");
    }
    if (m.contains("refused")) {
      return new RpcException(
          Errno.ECONNREFUSED,
          where
              + ": no server listens there (the socket "
              + path
              + " refuses connections: a server that stopped left it)");
    }
    return new RpcException(Errno.ECONNREFUSED, where + ": cannot connect (" + m + ")");
  }

  /** A duration in plain seconds, "30 s" or "0.1 s", as error lines say it. */
  static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0
        ? ms / 1000 + " s"
        : java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s";
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
