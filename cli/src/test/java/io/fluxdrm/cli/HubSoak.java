package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.SoakCurve;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.hub.SoakZmq;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hub soak of issue 12: two {@code fluxdrm sched} child processes with {@code -Xmx256m} (one
 * listening on {@code tcp://127.0.0.1:*} with CURVE, one on a Unix socket, as {@code sched} takes
 * one {@code --listen}), well-behaved clients making {@code sched.resource-status} and {@code
 * sched.alloc}/{@code sched.free} round trips at a steady rate, and every attack of the issue at
 * once, each in its own thread with a bounded rate and count. Every second it samples both
 * children's VmRSS from /proc. At the end it prints a JSON summary and lists the criteria that
 * failed: any well-behaved RPC failed, p99 latency of 10 ms or more (after a warm-up), or RSS
 * unbounded (the last minute's max over the second minute's by more than 20 %, or over {@link
 * #RSS_CAP_KIB}).
 *
 * <p>Run: {@code mvn -B -Psoak -pl cli -am verify [-Dsoak.seconds=600]}, or {@code main(seconds,
 * dir)} on the cli test class path.
 */
public final class HubSoak {
  /** A child's resident set may not pass this (heap 256 MiB plus metaspace, threads, buffers). */
  static final long RSS_CAP_KIB = 640 * 1024;

  /** The p99 latency bound of the issue. */
  static final double P99_LIMIT_MS = 10.0;

  /** Latencies of the first seconds (JIT, class loading) are counted but not in the quantiles. */
  static final Duration WARMUP = Duration.ofSeconds(10);

  private static final int GUEST_UID = 4242;
  private static final int MALLORY_UID = 4343;
  private static final Duration ANSWER = Duration.ofSeconds(30);
  private static final String OWNER_ID = "soak-owner";
  private static final String GUEST_ID = "soak-guest";

  private final Duration duration;
  private final Path dir;
  private final SecureRandom random = new SecureRandom();
  private volatile boolean running = true;
  private volatile long measureFrom;

  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
  private final List<Long> latenciesNs = java.util.Collections.synchronizedList(new ArrayList<>());
  private final Map<String, List<Long>> latenciesByClient = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> attacks = new ConcurrentHashMap<>();
  private final Map<String, List<long[]>> rss = new ConcurrentHashMap<>();

  private String loadStart;
  private byte[] serverKey;
  private CurveKeyPair mallory;
  private int port;
  private Path unixSocket;

  HubSoak(Duration duration, Path dir) {
    this.duration = duration;
    this.dir = dir;
  }

  /** {@code HubSoak [SECONDS [DIR]]}: exit 0 when every criterion held, 1 otherwise. */
  public static void main(String[] args) throws Exception {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 600;
    Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("hub-soak");
    Result r = new HubSoak(Duration.ofSeconds(seconds), dir).run();
    System.out.println(r.json());
    System.exit(r.problems().isEmpty() ? 0 : 1);
  }

  /** The summary and the criteria that did not hold (empty when all held). */
  record Result(ObjectNode json, List<String> problems) {}

  private static String keygen(Path cert) {
    CliRun r = CliRun.run("", "keygen", "--name", cert.getFileName().toString(), cert.toString());
    if (r.status() != 0) {
      throw new IllegalStateException("keygen " + cert + ": " + r.err());
    }
    return r.out().strip();
  }

  private static ZmqClientKeys keys(String server, Path cert) {
    CurveCert c = CurveCert.readSecret(cert);
    return new ZmqClientKeys(server, c.publicKey(), c.secretKey());
  }

  Result run() throws Exception {
    String serverZ85 = keygen(dir.resolve("sched.cert"));
    String ownerKey = keygen(dir.resolve("owner.cert"));
    String guestKey = keygen(dir.resolve("guest.cert"));
    String malloryKey = keygen(dir.resolve("mallory.cert"));
    serverKey = Z85.decode(serverZ85);
    mallory =
        CurveKeyPair.fromSecret(
            Z85.decode(CurveCert.readSecret(dir.resolve("mallory.cert")).secretKey()));
    int uid = Daemon.uid();
    Path clients =
        Files.writeString(
            dir.resolve("clients.json"),
            """
            {"clients": [
              {"key": "%s", "userid": %d, "role": "owner", "name": "owner"},
              {"key": "%s", "userid": %d, "role": "user", "name": "guest"},
              {"key": "%s", "userid": %d, "role": "user", "name": "mallory"}
            ]}
            """
                .formatted(ownerKey, uid, guestKey, GUEST_UID, malloryKey, MALLORY_UID));
    List<String> jvm = List.of("-Xmx256m");
    List<Thread> threads = new ArrayList<>();
    try (SchedProcess tcp =
            SchedProcess.start(
                dir,
                "sched-tcp",
                jvm,
                "--listen",
                "tcp://127.0.0.1:*",
                "--curve-cert",
                dir.resolve("sched.cert").toString(),
                "--curve-clients",
                clients.toString(),
                "--hosts",
                "node[0-3]",
                "--cores",
                "0-3");
        SchedProcess unix =
            SchedProcess.start(
                dir,
                "sched-unix",
                jvm,
                "--listen",
                "unix:" + dir.resolve("run"),
                "--hosts",
                "node[0-3]",
                "--cores",
                "0-3");
        Reactor reactor = Reactor.start("hub-soak")) {
      String endpoint = tcp.awaitLog("listening on (tcp://127\\.0\\.0\\.1:[0-9]+)");
      port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
      String uri = unix.awaitLog("listening on (local://\\S+)");
      unixSocket = Path.of(uri.substring("local://".length()));

      ItJobManager tcpJm =
          new ItJobManager(
              FluxHandle.connectZmq(reactor, endpoint, keys(serverZ85, dir.resolve("owner.cert"))),
              List.of());
      tcpJm.awaitReady();
      ItJobManager unixJm = new ItJobManager(FluxHandle.connect(reactor, uri, ANSWER), List.of());
      unixJm.awaitReady();
      FluxHandle owner =
          SoakZmq.connect(reactor, endpoint, OWNER_ID, keys(serverZ85, dir.resolve("owner.cert")));
      FluxHandle guest =
          SoakZmq.connect(reactor, endpoint, GUEST_ID, keys(serverZ85, dir.resolve("guest.cert")));
      FluxHandle local = FluxHandle.connect(reactor, uri, ANSWER);
      FluxHandle publisher = FluxHandle.connect(reactor, uri, ANSWER);

      loadStart = loadavg();
      long start = System.nanoTime();
      measureFrom = start + WARMUP.toNanos();
      threads.add(thread("rss", () -> sampleRss(Map.of("tcp", tcp.pid(), "unix", unix.pid()))));
      threads.add(thread("owner", () -> statusLoop("owner", owner, 20)));
      threads.add(thread("guest", () -> statusLoop("guest", guest, 20)));
      threads.add(thread("unix", () -> statusLoop("unix", local, 20)));
      threads.add(thread("alloc-tcp", () -> allocLoop("alloc-tcp", tcpJm, 2)));
      threads.add(thread("alloc-unix", () -> allocLoop("alloc-unix", unixJm, 2)));
      threads.add(attack("1-huge-claim-before-handshake", 1000, this::hugeBefore));
      threads.add(attack("1-huge-claim-after-handshake", 1000, this::hugeAfter));
      threads.add(attack("2-identity-takeover", 1000, this::takeover));
      threads.add(attack("2-identity-0x00", 1000, this::zeroIdentity));
      threads.add(attack("3-forged-route-stack", 500, this::forgedRoutes));
      threads.add(attack("3-client-sched.disconnect", 500, this::clientDisconnect));
      threads.add(attack("4-response-to-other-route", 500, this::strayResponse));
      threads.add(attack("8-identity-over-255", 1000, this::longIdentity));
      threads.add(attack("9-connection-flood", 30_000, this::flood));
      threads.add(attack("10-trickled-large-frame", 2000, this::trickle));
      threads.add(attack("11-unix-stalled-subscribers", 5000, () -> stalled(publisher)));
      threads.add(attack("12-hello-nonzero-padding", 1000, () -> badHello(true)));
      threads.add(attack("12-hello-nonzero-signature", 1000, () -> badHello(false)));
      threads.add(attack("12-message-reserved-flags", 1000, this::reservedFlags));
      threads.add(attack("13-silent-connections", 5000, this::silent));

      long end = start + duration.toNanos();
      while (System.nanoTime() < end && tcp.isAlive() && unix.isAlive()) {
        // pacing the soak, which runs for its duration: not a wait for an event
        Thread.sleep(Math.min(1000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
      }
      running = false;
      for (Thread t : threads) {
        t.interrupt();
      }
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(60));
      }
      List<String> problems = new ArrayList<>();
      if (!tcp.isAlive() || !unix.isAlive()) {
        problems.add("a sched process died: tcp " + tcp.isAlive() + ", unix " + unix.isAlive());
      }
      ObjectNode json = summary(problems, tcp.stderr() + unix.stderr());
      owner.close();
      guest.close();
      local.close();
      publisher.close();
      tcpJm.close();
      unixJm.close();
      return new Result(json, problems);
    }
  }

  // ---- well-behaved clients -------------------------------------------------------------------

  private void record(String who, long t0, Message m, Throwable e) {
    long ns = System.nanoTime() - t0;
    if (e == null && m.errnum() == 0) {
      succeeded.incrementAndGet();
      if (t0 >= measureFrom) {
        latenciesNs.add(ns);
        latenciesByClient
            .computeIfAbsent(who, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
            .add(ns);
      }
    } else {
      failed.incrementAndGet();
      if (failures.size() < 20) {
        failures.add(who + ": " + (e != null ? e : "errnum " + m.errnum() + " " + m.text()));
      }
    }
  }

  private void statusLoop(String who, FluxHandle h, int perSecond) throws InterruptedException {
    long period = 1_000_000_000L / perSecond;
    long next = System.nanoTime();
    while (running) {
      long t0 = System.nanoTime();
      sent.incrementAndGet();
      Message m = null;
      Throwable err = null;
      try {
        m = h.rpc("sched.resource-status", Json.object()).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        // a forged RESPONSE (attack 4) routed to this client would match a pending matchtag
        if (m.errnum() == 0 && !(m.json().has("all") && m.json().has("allocated"))) {
          err = new IllegalStateException("resource-status answered " + m.json());
        }
      } catch (InterruptedException e) {
        if (!running) {
          sent.decrementAndGet();
          return;
        }
        throw e;
      } catch (Exception e) {
        err = e;
      }
      record(who, t0, m, err);
      next += period;
      pause(next);
    }
  }

  /** Job manager round trips: alloc one node (answered), then its final free (unanswered). */
  private void allocLoop(String who, ItJobManager jm, int perSecond) throws InterruptedException {
    long period = 1_000_000_000L / perSecond;
    long next = System.nanoTime();
    long id = 1;
    while (running) {
      long t0 = System.nanoTime();
      sent.incrementAndGet();
      Message m = null;
      Throwable err = null;
      try {
        m =
            jm.h
                .rpc("sched.alloc", ItJobManager.alloc(id, Jobspecs.nodes(1, 4, false)))
                .get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        if (m.errnum() == 0 && m.json().get("type").asInt() != 0) {
          err = new IllegalStateException("alloc " + id + " answered " + m.json());
        }
      } catch (InterruptedException e) {
        if (!running) {
          sent.decrementAndGet();
          return;
        }
        throw e;
      } catch (Exception e) {
        err = e;
      }
      record(who, t0, m, err);
      if (err == null && m.errnum() == 0) {
        ObjectNode free = Json.object().put("id", id).put("final", true);
        free.set("R", m.json().get("R"));
        jm.h.send("sched.free", free);
      }
      id++;
      next += period;
      pause(next);
    }
  }

  private void pause(long untilNs) throws InterruptedException {
    long ms = (untilNs - System.nanoTime()) / 1_000_000;
    if (ms > 0) {
      Thread.sleep(ms); // pacing: the attack's rate
    }
  }

  // ---- RSS ------------------------------------------------------------------------------------

  private void sampleRss(Map<String, Long> pids) throws InterruptedException {
    long t0 = System.nanoTime();
    while (running) {
      long sec = (System.nanoTime() - t0) / 1_000_000_000L;
      for (Map.Entry<String, Long> e : pids.entrySet()) {
        long kib = vmRssKib(e.getValue());
        if (kib >= 0) {
          rss.computeIfAbsent(
                  e.getKey(), k -> java.util.Collections.synchronizedList(new ArrayList<>()))
              .add(new long[] {sec, kib});
        }
      }
      Thread.sleep(1000); // pacing: one RSS sample a second
    }
  }

  /** VmRSS of a process in KiB from /proc/PID/status, or -1 when it cannot be read. */
  static long vmRssKib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  // ---- attacks --------------------------------------------------------------------------------

  interface Attempt {
    /** One bounded attempt; returns what happened, a short word counted per attack. */
    String run() throws Exception;
  }

  private Thread thread(String name, Body body) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Exception e) {
                failures.add(name + ": " + e);
              }
            },
            "soak-" + name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  interface Body {
    void run() throws Exception;
  }

  /** Runs {@code a} every {@code periodMs} until the end; counts attempts and outcomes. */
  private Thread attack(String name, long periodMs, Attempt a) {
    return thread(
        name,
        () -> {
          long next = System.nanoTime();
          while (running) {
            String outcome;
            try {
              outcome = a.run();
            } catch (InterruptedException e) {
              return;
            } catch (IOException e) {
              outcome = "io-" + e.getClass().getSimpleName();
            } catch (Exception e) {
              outcome = "error-" + e.getClass().getSimpleName();
            }
            attacks.computeIfAbsent(name + "." + outcome, k -> new AtomicLong()).incrementAndGet();
            attacks.computeIfAbsent(name + ".attempts", k -> new AtomicLong()).incrementAndGet();
            next += periodMs * 1_000_000L;
            pause(next);
          }
        });
  }

  /** A ZMTP 3 CURVE client over a blocking socket, driven by hand. */
  private final class RawCurve implements AutoCloseable {
    final Socket socket;
    final DataInputStream in;
    final OutputStream out;
    CurveClient mech;

    RawCurve() throws IOException {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(30_000);
      in = new DataInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    }

    void write(byte[] b) throws IOException {
      out.write(b);
      out.flush();
    }

    Frame readFrame() throws IOException {
      int flags = in.readUnsignedByte();
      long size = (flags & 0x02) != 0 ? in.readLong() : in.readUnsignedByte();
      if (size > 1 << 20) {
        throw new IOException("frame of " + size);
      }
      byte[] b = new byte[(int) size];
      in.readFully(b);
      return new Frame(b, (flags & 0x01) != 0, (flags & 0x04) != 0);
    }

    /** Greeting and the CURVE handshake with {@code identity} (may be null: none sent). */
    RawCurve handshake(CurveKeyPair keys, byte[] identity) throws Exception {
      write(Greeting.encode("CURVE", false));
      in.readFully(new byte[64]);
      Map<String, byte[]> md = new LinkedHashMap<>();
      md.put("Socket-Type", "DEALER".getBytes(StandardCharsets.US_ASCII));
      if (identity != null) {
        md.put("Identity", identity);
      }
      mech = new CurveClient(serverKey, keys, md, random);
      for (byte[] c : mech.start()) {
        write(FrameEncoder.encode(Frame.command(c)));
      }
      while (!mech.done()) {
        Frame f = readFrame();
        for (byte[] c : mech.onHandshakeCommand(f.body())) {
          write(FrameEncoder.encode(Frame.command(c)));
        }
      }
      return this;
    }

    void send(Message m) throws IOException {
      List<byte[]> parts = MessageCodec.toParts(m);
      for (int i = 0; i < parts.size(); i++) {
        write(FrameEncoder.encode(mech.encode(Frame.part(parts.get(i), i < parts.size() - 1))));
      }
    }

    /** Reads until the hub closes (true) or {@code limit} passes (false). */
    boolean closedWithin(Duration limit) throws IOException {
      long deadline = System.nanoTime() + limit.toNanos();
      byte[] sink = new byte[4096];
      while (running) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        socket.setSoTimeout((int) Math.max(1, Math.min(1000, left / 1_000_000)));
        try {
          if (in.read(sink) < 0) {
            return true;
          }
        } catch (SocketTimeoutException e) {
          // go on until the deadline
        } catch (IOException e) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  private static String closed(boolean c) {
    return c ? "closed-by-hub" : "still-open";
  }

  /** 1: a frame header claiming 2^40 bytes right after the greeting. */
  private String hugeBefore() throws Exception {
    try (RawCurve p = new RawCurve()) {
      p.write(Greeting.encode("CURVE", false));
      p.in.readFully(new byte[64]);
      ByteBuffer b = ByteBuffer.allocate(9 + 1024).put((byte) 0x06).putLong(1L << 40);
      p.write(b.array());
      return closed(p.closedWithin(Duration.ofSeconds(15)));
    }
  }

  /** 1: after the handshake, a message frame claiming 2^40 bytes. */
  private String hugeAfter() throws Exception {
    try (RawCurve p =
        new RawCurve().handshake(mallory, "huge".getBytes(StandardCharsets.US_ASCII))) {
      ByteBuffer b = ByteBuffer.allocate(9 + 1024).put((byte) 0x02).putLong(1L << 40);
      p.write(b.array());
      return closed(p.closedWithin(Duration.ofSeconds(15)));
    }
  }

  /** 2: mallory's key claims the owner's routing identity and sends a request. */
  private String takeover() throws Exception {
    try (RawCurve p =
        new RawCurve().handshake(mallory, OWNER_ID.getBytes(StandardCharsets.US_ASCII))) {
      p.send(Message.request("sched.resource-status", Json.object()).withMatchtag(1));
      return closed(p.closedWithin(Duration.ofMillis(500)));
    }
  }

  /** 2: an identity starting with 0x00 (ZeroMQ reserves those for generated ids). */
  private String zeroIdentity() throws Exception {
    byte[] id = {0, 1, 2, 3, 4};
    try (RawCurve p = new RawCurve().handshake(mallory, id)) {
      p.send(Message.request("sched.resource-status", Json.object()).withMatchtag(1));
      return closed(p.closedWithin(Duration.ofMillis(500)));
    }
  }

  /** 3: a request whose route stack names the owner and the guest. */
  private String forgedRoutes() throws Exception {
    try (RawCurve p =
        new RawCurve()
            .handshake(
                mallory, ("forge-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII))) {
      Message m =
          Message.request("sched.resource-status", Json.object())
              .withMatchtag(1)
              .pushRoute(GUEST_ID)
              .pushRoute(OWNER_ID);
      p.send(m);
      return closed(p.closedWithin(Duration.ofMillis(500)));
    }
  }

  /** 3: a client sends {@code sched.disconnect}, which only the hub may send for a leaving peer. */
  private String clientDisconnect() throws Exception {
    try (RawCurve p =
        new RawCurve()
            .handshake(
                mallory, ("disc-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII))) {
      p.send(
          Message.request("sched.disconnect", Json.object())
              .withFlags(io.fluxdrm.rpc.Flags.NORESPONSE, 0));
      p.send(
          Message.request("sched.disconnect", Json.object().put("route", OWNER_ID))
              .withMatchtag(2));
      return closed(p.closedWithin(Duration.ofMillis(500)));
    }
  }

  /** 4: RESPONSE messages addressed to the owner's and the guest's route ids. */
  private String strayResponse() throws Exception {
    try (RawCurve p =
        new RawCurve()
            .handshake(
                mallory, ("resp-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII))) {
      for (String to : List.of(OWNER_ID, GUEST_ID)) {
        for (int tag = 1; tag <= 4; tag++) {
          Message req = Message.request("sched.resource-status", Json.object()).withMatchtag(tag);
          p.send(
              Message.response(req, 0, "{\"forged\":true}\0".getBytes(StandardCharsets.UTF_8))
                  .pushRoute(to));
        }
      }
      return closed(p.closedWithin(Duration.ofMillis(500)));
    }
  }

  /** 8: an Identity property of 300 bytes. */
  private String longIdentity() throws Exception {
    byte[] id = new byte[300];
    Arrays.fill(id, (byte) 'x');
    try (RawCurve p = new RawCurve()) {
      try {
        p.handshake(mallory, id);
      } catch (IOException e) {
        return "refused";
      }
      return closed(p.closedWithin(Duration.ofSeconds(5)));
    }
  }

  /** 9: 1100 connections (beyond the 1024 per listener) held for two seconds, every 30 s. */
  private String flood() throws Exception {
    List<Socket> socks = new ArrayList<>();
    int opened = 0;
    try {
      for (int i = 0; i < 1100 && running; i++) {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.getOutputStream().write(Arrays.copyOf(Greeting.encode("CURVE", false), 10));
        socks.add(s);
        opened++;
      }
      Thread.sleep(2000); // pacing: the flood is held for two seconds
      int closed = 0;
      for (Socket s : socks) {
        s.setSoTimeout(1);
        try {
          if (s.getInputStream().read() < 0) {
            closed++;
          }
        } catch (SocketTimeoutException e) {
          // open
        } catch (IOException e) {
          closed++;
        }
      }
      attacks.computeIfAbsent("9-connection-flood.opened", k -> new AtomicLong()).addAndGet(opened);
      attacks
          .computeIfAbsent("9-connection-flood.closed-by-hub", k -> new AtomicLong())
          .addAndGet(closed);
      return "round";
    } finally {
      for (Socket s : socks) {
        s.close();
      }
    }
  }

  /** 10: a frame claiming 1 MiB sent one byte per 100 ms until the hub closes it. */
  private String trickle() throws Exception {
    try (RawCurve p =
        new RawCurve()
            .handshake(
                mallory, ("trickle-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII))) {
      p.write(ByteBuffer.allocate(9).put((byte) 0x02).putLong(1 << 20).array());
      long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
      while (running && System.nanoTime() < deadline) {
        try {
          p.write(new byte[] {'t'});
        } catch (IOException e) {
          return "closed-by-hub";
        }
        if (p.closedWithin(Duration.ofMillis(100))) {
          return "closed-by-hub";
        }
      }
      return "still-open";
    }
  }

  /** A raw Unix-socket peer of the local hub that subscribes and then never reads. */
  private SocketChannel subscribeAndStall() throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    ch.connect(UnixDomainSocketAddress.of(unixSocket));
    ByteBuffer one = ByteBuffer.allocate(1);
    while (one.hasRemaining()) {
      if (ch.read(one) < 0) {
        throw new IOException("eof before the handshake byte");
      }
    }
    Message sub =
        Message.request("event.subscribe", Json.object().put("topic", "soak.big")).withMatchtag(1);
    ByteBuffer b = ByteBuffer.wrap(LocalFraming.frame(sub));
    while (b.hasRemaining()) {
      ch.write(b);
    }
    LocalFraming.Decoder d = new LocalFraming.Decoder(1 << 20);
    ByteBuffer in = ByteBuffer.allocate(4096);
    while (d.next() == null) {
      in.clear();
      if (ch.read(in) < 0) {
        throw new IOException("eof before the subscribe response");
      }
      in.flip();
      d.feed(in);
    }
    return ch;
  }

  /**
   * 11: three Unix subscribers stop reading, then 100 events of 48 KiB are published at 20 per
   * second; the stalled subscribers must be closed by the hub.
   */
  private String stalled(FluxHandle publisher) throws Exception {
    List<SocketChannel> subs = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        subs.add(subscribeAndStall());
      }
      String payload = Base64.getEncoder().encodeToString(new byte[48 * 1024]);
      long next = System.nanoTime();
      for (int i = 0; i < 100 && running; i++) {
        Message m =
            publisher
                .rpc("event.pub", Json.object().put("topic", "soak.big").put("payload", payload))
                .get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        if (m.errnum() != 0) {
          return "publish-errnum-" + m.errnum();
        }
        next += 50_000_000L;
        pause(next);
      }
      int closed = 0;
      for (SocketChannel ch : subs) {
        if (drainedToEof(ch, Duration.ofSeconds(10))) {
          closed++;
        }
      }
      attacks
          .computeIfAbsent("11-unix-stalled-subscribers.closed-by-hub", k -> new AtomicLong())
          .addAndGet(closed);
      return "round";
    } finally {
      for (SocketChannel ch : subs) {
        ch.close();
      }
    }
  }

  /** Reads and drops what the hub queued; true when EOF (the hub's close) comes within limit. */
  private static boolean drainedToEof(SocketChannel ch, Duration limit) throws IOException {
    ch.configureBlocking(false);
    ByteBuffer sink = ByteBuffer.allocate(1 << 16);
    long deadline = System.nanoTime() + limit.toNanos();
    try (java.nio.channels.Selector sel = java.nio.channels.Selector.open()) {
      ch.register(sel, java.nio.channels.SelectionKey.OP_READ);
      while (true) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return false;
        }
        sel.select(left);
        sel.selectedKeys().clear();
        sink.clear();
        try {
          if (ch.read(sink) < 0) {
            return true;
          }
        } catch (IOException e) {
          return true; // reset by the hub
        }
      }
    }
  }

  /** 12: a HELLO with a non-zero padding byte or a non-zero signature box. */
  private String badHello(boolean padding) throws Exception {
    try (RawCurve p = new RawCurve()) {
      p.write(Greeting.encode("CURVE", false));
      p.in.readFully(new byte[64]);
      p.write(FrameEncoder.encode(Frame.command(SoakCurve.badHello(serverKey, padding, random))));
      return closed(p.closedWithin(Duration.ofSeconds(15)));
    }
  }

  /** 12: after the handshake, a MESSAGE whose inner flags set reserved bits. */
  private String reservedFlags() throws Exception {
    try (RawCurve p =
        new RawCurve()
            .handshake(
                mallory, ("flags-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII))) {
      int flags = random.nextBoolean() ? 0x04 : 0x80;
      p.write(FrameEncoder.encode(SoakCurve.reservedFlagsMessage(p.mech, flags, 1000)));
      return closed(p.closedWithin(Duration.ofSeconds(15)));
    }
  }

  /** 13: 20 connections that never send a byte, held until the hub closes them (or 30 s). */
  private String silent() throws Exception {
    List<RawCurve> socks = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        socks.add(new RawCurve());
      }
      int closed = 0;
      for (RawCurve s : socks) {
        if (s.closedWithin(Duration.ofSeconds(30))) {
          closed++;
        }
      }
      attacks
          .computeIfAbsent("13-silent-connections.closed-by-hub", k -> new AtomicLong())
          .addAndGet(closed);
      return "round";
    } finally {
      for (RawCurve s : socks) {
        s.close();
      }
    }
  }

  // ---- summary --------------------------------------------------------------------------------

  /** The machine's /proc/loadavg (1, 5, 15 minutes), or "?" when it cannot be read. */
  static String loadavg() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private static double quantile(long[] sorted, double q) {
    return ms(sorted[(int) Math.min(sorted.length - 1, Math.floor(sorted.length * q))]);
  }

  private static double ms(long ns) {
    return Math.round(ns / 10_000.0) / 100.0;
  }

  private ObjectNode summary(List<String> problems, String logs) {
    ObjectNode j = Json.object();
    j.put("date", Instant.now().toString());
    j.put("seconds", duration.toSeconds());
    j.put("warmup_seconds", WARMUP.toSeconds());
    j.put("rpcs_sent", sent.get());
    j.put("rpcs_succeeded", succeeded.get());
    j.put("rpcs_failed", failed.get());
    long[] lat;
    synchronized (latenciesNs) {
      lat = latenciesNs.stream().mapToLong(Long::longValue).sorted().toArray();
    }
    ObjectNode l = j.putObject("latency_ms");
    l.put("samples", lat.length);
    if (lat.length > 0) {
      l.put("p50", ms(lat[(int) Math.min(lat.length - 1, Math.floor(lat.length * 0.50))]));
      l.put("p99", ms(lat[(int) Math.min(lat.length - 1, Math.floor(lat.length * 0.99))]));
      l.put("p999", ms(lat[(int) Math.min(lat.length - 1, Math.floor(lat.length * 0.999))]));
      l.put("max", ms(lat[lat.length - 1]));
      double p99 = lat[(int) Math.min(lat.length - 1, Math.floor(lat.length * 0.99))] / 1e6;
      if (p99 >= P99_LIMIT_MS) {
        problems.add("p99 latency " + p99 + " ms (limit: under " + P99_LIMIT_MS + " ms)");
      }
    } else {
      problems.add("no latency samples after the warm-up");
    }
    if (failed.get() > 0) {
      problems.add(failed.get() + " well-behaved RPC(s) failed");
    }
    synchronized (failures) {
      j.putPOJO("failures", Json.mapper().valueToTree(failures));
      if (!failures.isEmpty() && failed.get() == 0) {
        problems.add("soak threads failed: " + failures);
      }
    }
    ObjectNode per = j.putObject("latency_ms_by_client");
    new java.util.TreeMap<>(latenciesByClient)
        .forEach(
            (who, list) -> {
              long[] x;
              synchronized (list) {
                x = list.stream().mapToLong(Long::longValue).sorted().toArray();
              }
              per.putObject(who)
                  .put("samples", x.length)
                  .put("p50", quantile(x, 0.5))
                  .put("p99", quantile(x, 0.99))
                  .put("max", ms(x[x.length - 1]));
            });
    j.put("loadavg_start", loadStart);
    j.put("loadavg_end", loadavg());
    j.put("cpus", Runtime.getRuntime().availableProcessors());
    ObjectNode r = j.putObject("rss_kib");
    for (Map.Entry<String, List<long[]>> e : rss.entrySet()) {
      List<long[]> s;
      synchronized (e.getValue()) {
        s = new ArrayList<>(e.getValue());
      }
      ObjectNode o = r.putObject(e.getKey());
      long min = s.stream().mapToLong(x -> x[1]).min().orElse(-1);
      long max = s.stream().mapToLong(x -> x[1]).max().orElse(-1);
      long last = s.isEmpty() ? -1 : s.get(s.size() - 1)[1];
      long lastSec = s.isEmpty() ? 0 : s.get(s.size() - 1)[0];
      o.put("samples", s.size()).put("min", min).put("max", max).put("last", last);
      long second =
          s.stream().filter(x -> x[0] >= 60 && x[0] < 120).mapToLong(x -> x[1]).max().orElse(-1);
      long lastMin =
          s.stream().filter(x -> x[0] > lastSec - 60).mapToLong(x -> x[1]).max().orElse(-1);
      o.put("second_minute_max", second).put("last_minute_max", lastMin);
      if (max > RSS_CAP_KIB) {
        problems.add("RSS of sched-" + e.getKey() + " " + max + " KiB over the cap " + RSS_CAP_KIB);
      }
      if (second > 0 && lastSec >= 180 && lastMin > second * 1.2) {
        problems.add(
            "RSS of sched-"
                + e.getKey()
                + ": last minute's max "
                + lastMin
                + " KiB over the second minute's "
                + second
                + " KiB by more than 20 %");
      }
      if (s.size() < 2) {
        problems.add("RSS of sched-" + e.getKey() + ": fewer than two samples");
      }
    }
    ObjectNode a = j.putObject("attacks");
    new java.util.TreeMap<>(attacks).forEach((k, v) -> a.put(k, v.get()));
    j.put("sched_log_exceptions", logs.contains("Exception") || logs.contains("\tat "));
    j.putPOJO("problems", Json.mapper().valueToTree(problems));
    return j;
  }
}
