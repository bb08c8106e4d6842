package io.fluxdrm.rpc.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The local framing's output limit with writes that wait for the end of the loop's turn (issue 11):
 * the limit counts what the socket refused, as when every frame was written at once, so a burst the
 * socket takes passes whatever its size, and a peer that reads nothing is still cut off. Waits are
 * on events (30 s bounds), never on time.
 */
@Timeout(60)
class FramedChannelTest {
  private static final Duration T = Duration.ofSeconds(30);
  private static final long LIMIT = 4096;

  private Reactor reactor;
  private ServerSocketChannel server;
  private Socket peer;
  private FramedChannel channel;
  private final CompletableFuture<RpcException> closed = new CompletableFuture<>();

  @BeforeEach
  void listen() throws Exception {
    reactor = Reactor.start("framed-test");
    server = ServerSocketChannel.open();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  private void connect(boolean smallWindow) throws Exception {
    peer = new Socket();
    if (smallWindow) {
      peer.setReceiveBufferSize(4096); // before connecting: a small window for the stalled peer
    }
    peer.connect(server.getLocalAddress());
    SocketChannel ch = server.accept();
    ch.configureBlocking(false);
    channel =
        new FramedChannel(reactor, ch, LocalFraming.DEFAULT_MAX_MESSAGE_SIZE, LIMIT, "peer test");
    reactor.runAndWait(
        () ->
            channel.start(
                new FramedChannel.Listener() {
                  @Override
                  public void onMessage(Message m) {}

                  @Override
                  public void onClosed(RpcException cause) {
                    closed.complete(cause);
                  }
                }),
        T);
  }

  @AfterEach
  void stop() throws Exception {
    if (channel != null) {
      reactor.runAndWait(channel::close, T);
      peer.close();
    }
    server.close();
    reactor.close();
  }

  private static Message message(int i) {
    byte[] payload = new byte[1000];
    payload[0] = (byte) i;
    return Message.request("test.burst", payload);
  }

  /** Sends {@code count} messages in one task (one turn of the loop); returns their bytes. */
  private int sendInOneTurn(int count) throws Exception {
    CompletableFuture<Integer> sent = new CompletableFuture<>();
    reactor.execute(
        () -> {
          int bytes = 0;
          for (int i = 0; i < count; i++) {
            Message m = message(i);
            bytes += LocalFraming.frame(m).length;
            channel.send(m);
          }
          sent.complete(bytes);
        });
    return sent.get(30, TimeUnit.SECONDS);
  }

  @Test
  void burstTheSocketTakes_passesALimitSmallerThanIt() throws Exception {
    connect(false);
    int count = 6; // about 6 KB: over the limit, well within what a loopback socket buffers
    int bytes = sendInOneTurn(count);
    assertThat(bytes).isGreaterThan((int) LIMIT);
    byte[] got = new byte[bytes];
    InputStream in = peer.getInputStream();
    int off = 0;
    while (off < bytes) {
      int n = in.read(got, off, bytes - off);
      assertThat(n).as("bytes at %d (closed: %s)", off, closed.getNow(null)).isPositive();
      off += n;
    }
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    d.feed(ByteBuffer.wrap(got));
    List<Integer> firsts = new ArrayList<>();
    for (Message m = d.next(); m != null; m = d.next()) {
      firsts.add((int) m.payload()[0]);
    }
    assertThat(firsts).containsExactly(0, 1, 2, 3, 4, 5);
    CompletableFuture<Boolean> open = new CompletableFuture<>();
    reactor.execute(() -> open.complete(!closed.isDone()));
    assertThat(open.get(30, TimeUnit.SECONDS)).as("still open").isTrue();
  }

  @Test
  void peerReadingNothing_isCutOffAtTheLimit() throws Exception {
    connect(true);
    sendInOneTurn(20_000); // 20 MB: more than both kernel buffers hold
    RpcException cause = closed.get(30, TimeUnit.SECONDS);
    assertThat(cause.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(cause.getMessage()).contains("peer stopped reading").contains("limit " + LIMIT);
  }
}
