package io.fluxdrm.rpc.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.reactor.Reactor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NIO connection under both framings, driven directly over a loopback socket: bytes arrive in
 * order and in budgeted reads, the end of stream is told once, a write queue that the peer does not
 * read grows and drains in order once it does, and {@code closeWhenFlushed} waits for the queue.
 * Waits are on events (30 s bounds), never on time.
 */
@Timeout(60)
class StreamConnectionTest {
  private static final Duration T = Duration.ofSeconds(30);

  private Reactor reactor;
  private ServerSocketChannel server;
  private Socket peer;
  private StreamConnection conn;

  /** A handler recording what the connection tells; it closes on end of stream, as codecs do. */
  private final class Recording implements StreamConnection.Handler {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger eofs = new AtomicInteger();
    final CompletableFuture<Void> eof = new CompletableFuture<>();
    final CompletableFuture<Void> flushed = new CompletableFuture<>();
    final CountDownLatch connected = new CountDownLatch(1);
    volatile int expected = Integer.MAX_VALUE;
    final CompletableFuture<Void> all = new CompletableFuture<>();

    @Override
    public void onConnected() {
      connected.countDown();
    }

    @Override
    public void onBytes(ByteBuffer in) {
      assertThat(in.remaining()).isLessThanOrEqualTo(StreamConnection.READ_BUDGET);
      byte[] b = new byte[in.remaining()];
      in.get(b);
      bytes.writeBytes(b);
      if (bytes.size() >= expected) {
        all.complete(null);
      }
    }

    @Override
    public void afterRead() {
      reads.incrementAndGet();
    }

    @Override
    public void onEof() {
      eofs.incrementAndGet();
      eof.complete(null);
      conn.close();
    }

    @Override
    public void onIoError(StreamConnection.Phase phase, IOException e) {
      eof.completeExceptionally(e);
    }

    @Override
    public void onFlushed() {
      flushed.complete(null);
    }
  }

  @BeforeEach
  void connect() throws Exception {
    reactor = Reactor.start("stream-test");
    server = ServerSocketChannel.open();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    peer = new Socket();
    peer.setReceiveBufferSize(4096); // before connecting: a small window, so writes queue up
    peer.connect(server.getLocalAddress());
    SocketChannel ch = server.accept();
    ch.configureBlocking(false);
    conn = new StreamConnection(reactor, ch, "test");
  }

  @AfterEach
  void stop() throws Exception {
    reactor.runAndWait(conn::close, T);
    peer.close();
    server.close();
    reactor.close();
  }

  private Recording start() throws Exception {
    Recording r = new Recording();
    reactor.runAndWait(() -> conn.start(r), T);
    assertThat(r.connected.await(30, TimeUnit.SECONDS)).isTrue();
    return r;
  }

  private long queued() throws Exception {
    CompletableFuture<Long> q = new CompletableFuture<>();
    reactor.execute(() -> q.complete(conn.queuedBytes()));
    return q.get(30, TimeUnit.SECONDS);
  }

  @Test
  void peerWrites_bytesArriveInOrderThenEofOnce() throws Exception {
    Recording r = start();
    byte[] data = new byte[700_000];
    new Random(1).nextBytes(data);
    r.expected = data.length;
    peer.getOutputStream().write(data);
    r.all.get(30, TimeUnit.SECONDS);
    peer.shutdownOutput();
    r.eof.get(30, TimeUnit.SECONDS);
    CompletableFuture<byte[]> got = new CompletableFuture<>();
    reactor.execute(() -> got.complete(r.bytes.toByteArray()));
    assertThat(got.get(30, TimeUnit.SECONDS)).isEqualTo(data);
    assertThat(r.eofs.get()).as("no read after the codec closed").isEqualTo(1);
    assertThat(r.reads.get()).isPositive();
  }

  @Test
  void peerNotReading_queueGrowsThenDrainsInOrderAndFlushedIsTold() throws Exception {
    Recording r = start();
    byte[] chunk = new byte[64 * 1024];
    int chunks = 160; // 10 MiB: more than the kernel buffers of both ends hold
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    Random rnd = new Random(2);
    CompletableFuture<Void> written = new CompletableFuture<>();
    reactor.execute(
        () -> {
          for (int i = 0; i < chunks; i++) {
            byte[] c = chunk.clone();
            rnd.nextBytes(c);
            sent.writeBytes(c);
            conn.write(c);
          }
          written.complete(null);
        });
    written.get(30, TimeUnit.SECONDS);
    assertThat(queued()).as("what the socket did not take waits").isPositive();
    reactor.execute(conn::closeWhenFlushed);
    assertThat(r.flushed).as("not flushed while the peer reads nothing").isNotDone();
    byte[] got = new byte[chunk.length * chunks];
    InputStream in = peer.getInputStream();
    int off = 0;
    while (off < got.length) {
      int n = in.read(got, off, got.length - off);
      assertThat(n).as("bytes at %d", off).isPositive();
      off += n;
    }
    r.flushed.get(30, TimeUnit.SECONDS);
    assertThat(got).isEqualTo(sent.toByteArray());
    assertThat(queued()).isZero();
  }
}
