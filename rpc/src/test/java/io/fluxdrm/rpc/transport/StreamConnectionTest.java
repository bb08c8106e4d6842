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
import java.util.Arrays;
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
 * read grows and drains in order once it does, and {@code closeWhenFlushed} waits for the queue;
 * and the system calls per message (issue 11): the frames of one loop turn leave in one gathering
 * write, a read that leaves room in the buffer is not followed by one that finds nothing, and a
 * close right after a write still sends it. Waits are on events (30 s bounds), never on time.
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

  private <T> T onLoop(java.util.concurrent.Callable<T> c) throws Exception {
    CompletableFuture<T> f = new CompletableFuture<>();
    reactor.execute(
        () -> {
          try {
            f.complete(c.call());
          } catch (Exception e) {
            f.completeExceptionally(e);
          }
        });
    return f.get(30, TimeUnit.SECONDS);
  }

  private byte[] readFully(int length) throws IOException {
    byte[] got = new byte[length];
    InputStream in = peer.getInputStream();
    int off = 0;
    while (off < length) {
      int n = in.read(got, off, length - off);
      assertThat(n).as("bytes at %d", off).isPositive();
      off += n;
    }
    return got;
  }

  @Test
  void framesOfOneTurn_leaveInOneGatheringWrite() throws Exception {
    start();
    int frames = 10;
    byte[] sent = new byte[frames * 100];
    new Random(3).nextBytes(sent);
    long[] duringTurn =
        onLoop(
            () -> {
              for (int i = 0; i < frames; i++) {
                conn.write(Arrays.copyOfRange(sent, i * 100, (i + 1) * 100));
              }
              return new long[] {conn.ioCalls()[1], conn.queuedBytes()};
            });
    assertThat(duringTurn[0]).as("writes before the turn ends").isZero();
    assertThat(duringTurn[1]).as("bytes waiting for the turn's end").isEqualTo(sent.length);
    assertThat(readFully(sent.length)).isEqualTo(sent);
    assertThat(onLoop(() -> conn.ioCalls()[1])).as("writes for %d frames", frames).isEqualTo(1);
    assertThat(onLoop(conn::queuedBytes)).isZero();
  }

  @Test
  void manyFramesInOneTurn_leaveInBatchesOfGather() throws Exception {
    start();
    int frames = 3 * StreamConnection.GATHER;
    byte[] sent = new byte[frames * 10];
    new Random(4).nextBytes(sent);
    long writesDuringTurn =
        onLoop(
            () -> {
              for (int i = 0; i < frames; i++) {
                conn.write(Arrays.copyOfRange(sent, i * 10, (i + 1) * 10));
              }
              return conn.ioCalls()[1];
            });
    assertThat(writesDuringTurn).as("no more than GATHER frames wait").isEqualTo(3);
    assertThat(readFully(sent.length)).isEqualTo(sent);
    assertThat(onLoop(() -> conn.ioCalls()[1])).isEqualTo(3);
  }

  @Test
  void flushPending_writesNowAndReturnsWhatTheSocketRefused() throws Exception {
    start();
    byte[] small = new byte[500];
    new Random(5).nextBytes(small);
    long left =
        onLoop(
            () -> {
              conn.write(small);
              return conn.flushPending();
            });
    assertThat(left).as("a small frame fits in the socket").isZero();
    assertThat(readFully(small.length)).isEqualTo(small);
    assertThat(onLoop(() -> conn.ioCalls()[1]))
        .as("the end of the turn writes nothing more")
        .isEqualTo(1);
  }

  @Test
  void closeRightAfterWrite_stillSendsTheFrame() throws Exception {
    start();
    byte[] last =
        "the answer before the disconnect".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    onLoop(
        () -> {
          conn.write(last);
          conn.close();
          return null;
        });
    assertThat(readFully(last.length)).isEqualTo(last);
    assertThat(peer.getInputStream().read()).as("then the end of the stream").isEqualTo(-1);
  }

  @Test
  void readLeavingRoom_isNotFollowedByAnEmptyRead() throws Exception {
    Recording r = start();
    byte[] data = new byte[100];
    new Random(6).nextBytes(data);
    r.expected = data.length;
    peer.getOutputStream().write(data);
    r.all.get(30, TimeUnit.SECONDS);
    long[] calls = onLoop(() -> new long[] {conn.ioCalls()[0], r.reads.get()});
    assertThat(calls[1]).as("readinesses").isEqualTo(1);
    assertThat(calls[0]).as("reads for %d bytes in one readiness", data.length).isEqualTo(1);
  }
}
