package io.fluxdrm.rpc.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.hub.RawZmtpPeer;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.NullMechanism;
import io.fluxdrm.rpc.zmtp.SocketType;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, finding 13 at the engine: whatever ends a connection (a handshake that fails part-way,
 * the peer leaving mid-handshake, a close after the handshake), the connection wipes its mechanism
 * once, so that no short-term secret or session key outlives it. The CURVE mechanisms' wiping
 * itself is shown by {@code CurveHardeningTest}.
 */
@Timeout(60)
class ZmtpConnectionWipeTest {
  private static final Duration T = Duration.ofSeconds(30);

  /** A NULL mechanism that counts {@link #wipe} calls. */
  private static final class Counting implements Mechanism {
    final Mechanism inner = new NullMechanism(SocketType.ROUTER, new byte[0]);
    final AtomicInteger wipes = new AtomicInteger();

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public boolean asServer() {
      return inner.asServer();
    }

    @Override
    public List<byte[]> start() {
      return inner.start();
    }

    @Override
    public List<byte[]> onHandshakeCommand(byte[] body) throws ZmtpException {
      return inner.onHandshakeCommand(body);
    }

    @Override
    public boolean done() {
      return inner.done();
    }

    @Override
    public Map<String, byte[]> peerMetadata() {
      return inner.peerMetadata();
    }

    @Override
    public byte[] peerKey() {
      return inner.peerKey();
    }

    @Override
    public Frame encode(Frame plain) {
      return inner.encode(plain);
    }

    @Override
    public Frame decode(Frame wire) throws ZmtpException {
      return inner.decode(wire);
    }

    @Override
    public void wipe() {
      wipes.incrementAndGet();
    }
  }

  private Reactor reactor;
  private ServerSocketChannel server;
  private final Counting mechanism = new Counting();
  private final CompletableFuture<String> closed = new CompletableFuture<>();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private ZmtpConnection connection;

  @BeforeEach
  void listen() throws Exception {
    reactor = Reactor.start("wipe-test");
    server = ServerSocketChannel.open();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
    reactor.close();
  }

  /** Connects a raw peer and drives the accepted end with a connection of {@link #mechanism}. */
  private RawZmtpPeer connect() throws Exception {
    int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
    RawZmtpPeer peer = RawZmtpPeer.connect("tcp://127.0.0.1:" + port);
    SocketChannel ch = server.accept();
    ch.configureBlocking(false);
    ZmtpConnection.Settings s =
        new ZmtpConnection.Settings(1 << 20, 1 << 20, T, Duration.ZERO, Duration.ZERO);
    assertThat(
            reactor.runAndWait(
                () -> {
                  connection =
                      new ZmtpConnection(reactor, ch, mechanism, SocketType.ROUTER, s, "test peer");
                  connection.start(
                      new ZmtpConnection.Listener() {
                        @Override
                        public void onReady(ZmtpConnection c) {
                          ready.complete(null);
                        }

                        @Override
                        public void onMessage(ZmtpConnection c, List<byte[]> parts) {}

                        @Override
                        public void onClosed(ZmtpConnection c, String reason, boolean bad) {
                          closed.complete(reason);
                        }
                      });
                },
                T))
        .isTrue();
    return peer;
  }

  private int wipesOnLoop() {
    int[] n = {-1};
    reactor.runAndWait(() -> n[0] = mechanism.wipes.get(), T);
    return n[0];
  }

  @Test
  void handshakeFailingPartWay_wipesTheMechanism() throws Exception {
    try (RawZmtpPeer p = connect()) {
      p.write(Greeting.encode("NULL", false));
      p.read(64);
      p.write(FrameEncoder.encode(Frame.part(new byte[] {1}, false))); // a message, no READY
      assertThat(closed.get(30, TimeUnit.SECONDS))
          .isEqualTo("handshake: a message frame before the handshake is complete");
      assertThat(wipesOnLoop()).isEqualTo(1);
    }
  }

  @Test
  void peerLeavingMidHandshake_wipesTheMechanism() throws Exception {
    RawZmtpPeer p = connect();
    p.write(Greeting.encode("NULL", false));
    p.read(64);
    p.close();
    assertThat(closed.get(30, TimeUnit.SECONDS)).isEqualTo("closed by peer during the handshake");
    assertThat(wipesOnLoop()).isEqualTo(1);
  }

  @Test
  void closeAfterTheHandshake_wipesTheMechanismOnce() throws Exception {
    try (RawZmtpPeer p = connect()) {
      p.handshake("DEALER", "w");
      ready.get(30, TimeUnit.SECONDS);
      assertThat(wipesOnLoop()).as("while the connection is open").isZero();
      assertThat(reactor.runAndWait(() -> connection.close(), T)).isTrue();
      assertThat(reactor.runAndWait(() -> connection.close(), T)).isTrue();
      assertThat(wipesOnLoop()).isEqualTo(1);
      assertThat(p.closedWithin(T)).isTrue();
    }
  }
}
