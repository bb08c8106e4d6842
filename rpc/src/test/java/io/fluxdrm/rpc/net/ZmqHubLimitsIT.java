package io.fluxdrm.rpc.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, finding 9 with configured limits: connections per key, and a hub out of file
 * descriptors that pauses accepting instead of spinning.
 */
@Timeout(180)
class ZmqHubLimitsIT {
  private static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);
  private static final Duration T = Duration.ofSeconds(30);

  private static Hub hub(Reactor r) throws Exception {
    Hub hub = new Hub(r);
    hub.attach(Credentials.owner(1000))
        .register(new EchoService().build("demo"))
        .get(5, TimeUnit.SECONDS);
    return hub;
  }

  private static void assertEcho(Reactor r, String endpoint, int i) throws Exception {
    try (FluxHandle h = FluxHandle.connectZmq(r, endpoint, null)) {
      Message m = h.rpc("demo.echo", Json.object().put("i", i), T).get(60, TimeUnit.SECONDS);
      assertThat(m.json().get("i").asInt()).isEqualTo(i);
    }
  }

  @Test
  void connectionsPerKey_capped() throws Exception {
    Reactor r = Reactor.start("limits-it");
    ZmqHubListener l =
        ZmqHubListener.start(
            hub(r),
            r,
            "tcp://127.0.0.1:*",
            ZmqHubListener.Options.loopback(Credentials.user(7))
                .withLimits(ZmqHubListener.Limits.defaults().withConnections(100, 2)));
    RawZmtpPeer a = RawZmtpPeer.connect(l.endpoint());
    try (RawZmtpPeer b = RawZmtpPeer.connect(l.endpoint());
        RawZmtpPeer c = RawZmtpPeer.connect(l.endpoint())) {
      a.handshake("DEALER", "a");
      b.handshake("DEALER", "b");
      c.handshake("DEALER", "c");
      assertThat(c.closedWithin(CLOSE_LIMIT)).as("the third of one key").isTrue();
      a.close();
      assertThat(a.socket.isClosed()).isTrue();
      // a's place is free once the hub has seen it go: the well-behaved client gets it
      long deadline = System.nanoTime() + T.toNanos();
      while (true) {
        try {
          assertEcho(r, l.endpoint(), 1);
          break;
        } catch (Exception e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
        }
      }
    } finally {
      a.close();
      l.close();
      r.close();
    }
  }

  @Test
  void outOfDescriptors_acceptPausesThenResumes() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                "sh",
                "-c",
                "ulimit -n 256 && exec \"$@\"",
                "sh",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                FdLimitHubChild.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    Reactor r = Reactor.start("limits-it");
    List<RawZmtpPeer> hogs = new ArrayList<>();
    try (BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        PrintStream in = new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8)) {
      String endpoint = out.readLine();
      assertThat(endpoint).startsWith("tcp://127.0.0.1:");
      // more connections than the hub has descriptors: the kernel queues them, accept fails
      for (int i = 0; i < 300; i++) {
        hogs.add(RawZmtpPeer.connect(endpoint));
      }
      long pauses = 0;
      long deadline = System.nanoTime() + T.toNanos();
      while (pauses == 0 && System.nanoTime() < deadline) {
        in.println("pauses");
        pauses = Long.parseLong(out.readLine());
      }
      assertThat(pauses).as("accepting paused on a failed accept").isPositive();
      for (RawZmtpPeer h : hogs) {
        h.close();
      }
      hogs.clear();
      assertEcho(r, endpoint, 3); // accepting re-armed once descriptors are free
    } finally {
      for (RawZmtpPeer h : hogs) {
        h.close();
      }
      r.close();
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
