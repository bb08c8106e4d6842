package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import io.fluxdrm.rpc.transport.ZmqConnector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on the hub's identities, routes, roles and directories, each against a real listener
 * (loopback TCP or a Unix socket): a peer must not act as another one (docs/security.md).
 */
@Timeout(120)
class ImpersonationIT {
  private static final Duration T = Duration.ofSeconds(10);
  private static final SecureRandom RANDOM = new SecureRandom();

  @TempDir Path tmp;
  private Reactor reactor;
  private Hub hub;
  private FluxHandle services;
  private final List<String> disconnects = new CopyOnWriteArrayList<>();
  private final CompletableFuture<ServiceRequest> held = new CompletableFuture<>();

  @BeforeEach
  void setUp() throws Exception {
    reactor = Reactor.start("impersonation-it");
    hub = new Hub(reactor);
    services = hub.attach(Credentials.owner(1000));
    services
        .register(
            Service.builder("svc")
                .on(
                    "who",
                    r ->
                        r.respond(
                            Json.object()
                                .put("sender", r.sender())
                                .put("userid", Integer.toUnsignedLong(r.credentials().userid()))
                                .put("owner", r.isOwner())))
                .on("hold", held::complete)
                .onDisconnect(disconnects::add)
                .build())
        .get(5, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() {
    reactor.close();
  }

  private static String key(byte[] k) {
    return Z85.encode(k);
  }

  private FluxHandle zmq(ZmqHubListener l, String identity, CurveKeyPair server, CurveKeyPair me) {
    ZmqClientKeys keys =
        me == null
            ? null
            : new ZmqClientKeys(key(server.publicKey()), key(me.publicKey()), key(me.secretKey()));
    return FluxHandle.open(reactor, new ZmqConnector(reactor, l.endpoint(), identity, keys));
  }

  private ObjectNode who(FluxHandle h) throws Exception {
    return h.rpc("svc.who", Json.object(), T).get(15, TimeUnit.SECONDS).json();
  }

  private static int errnoOf(CompletableFuture<?> f) {
    try {
      f.get(15, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RpcException r) {
        return r.errnum();
      }
      throw new AssertionError(e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return 0;
  }

  private LocalHubListener local(LocalHubListener.Options o) {
    return LocalHubListener.start(hub, reactor, tmp.resolve("run"), o);
  }

  // finding 2: routing identities

  @Test
  void curve_guestKeyClaimingTheOwnersIdentity_getsAnotherOne() throws Exception {
    CurveKeyPair server = CurveKeyPair.generate(RANDOM);
    CurveKeyPair owner = CurveKeyPair.generate(RANDOM);
    CurveKeyPair guest = CurveKeyPair.generate(RANDOM);
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.curve(
                new ZmqHubSettings.Curve(
                    key(server.publicKey()),
                    key(server.secretKey()),
                    Map.of(
                        key(owner.publicKey()), Credentials.owner(1000),
                        key(guest.publicKey()), Credentials.user(2000)))));
    try (FluxHandle o = zmq(l, "job-manager-1", server, owner)) {
      // the owner holds the identity before the guest connects: its answer proves the handshake
      assertThat(who(o).get("sender").asText()).isEqualTo("job-manager-1");
      FluxHandle g = zmq(l, "job-manager-1", server, guest);
      ObjectNode seen = who(g);
      assertThat(seen.get("userid").asLong()).isEqualTo(2000);
      assertThat(seen.get("sender").asText()).isNotEqualTo("job-manager-1");
      // the owner's connection was neither closed nor robbed of its responses
      assertThat(who(o).get("sender").asText()).isEqualTo("job-manager-1");
      assertThat(o.isClosed()).isFalse();
      g.close();
    }
  }

  @Test
  void clientIdentityWithReservedPrefix_connectionClosed() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7))
                .withLiveness(ZmqHubSettings.Liveness.OFF));
    try (RawZmtpPeer p = RawZmtpPeer.connect(l.endpoint())) {
      p.handshake("DEALER", "\u0000forged");
      assertThat(p.closedWithin(T)).as("closed by the hub").isTrue();
    }
  }

  @Test
  void generatedIdentities_reservedPrefixAndNotACounter() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7)));
    try (FluxHandle a = zmq(l, "", null, null);
        FluxHandle b = zmq(l, "", null, null)) {
      byte[] x = who(a).get("sender").asText().getBytes(StandardCharsets.ISO_8859_1);
      byte[] y = who(b).get("sender").asText().getBytes(StandardCharsets.ISO_8859_1);
      assertThat(x[0]).isZero();
      assertThat(y[0]).isZero();
      assertThat(x.length).isGreaterThanOrEqualTo(9); // 0x00 and at least 64 random bits
      long dx =
          new java.math.BigInteger(1, java.util.Arrays.copyOfRange(x, 1, x.length)).longValue();
      long dy =
          new java.math.BigInteger(1, java.util.Arrays.copyOfRange(y, 1, y.length)).longValue();
      assertThat(Math.abs(dy - dx)).as("not a counter").isGreaterThan(1000);
    }
  }

  // finding 3: forged route stacks and client-sent disconnects

  @Test
  void requestWithForgedRouteStack_refusedEproto() throws Exception {
    LocalHubListener l = local(LocalHubListener.Options.defaults());
    try (FluxHandle attacker = FluxHandle.connect(reactor, l.uri(), T)) {
      Message forged = Message.request("svc.who", Json.object()).withRoutes(List.of("victim"));
      assertThat(errnoOf(attacker.call(forged, T))).isEqualTo(Errno.EPROTO);
      assertThat(who(attacker).get("sender").asText()).isNotEqualTo("victim"); // kept open
    }
  }

  @Test
  void clientSentDisconnect_refusedAndNeverDelivered() throws Exception {
    LocalHubListener l = local(LocalHubListener.Options.defaults());
    try (FluxHandle attacker = FluxHandle.connect(reactor, l.uri(), T)) {
      assertThat(errnoOf(attacker.rpc("svc.disconnect", Json.object(), T))).isEqualTo(Errno.EPERM);
      attacker.send("svc.disconnect", Json.object()); // NORESPONSE: dropped too
      who(attacker); // ordered after both on the hub and the service's link
      assertThat(disconnects).isEmpty();
    }
  }

  // finding 4: forged responses

  @Test
  void responseFromAPeerTheRequestWasNotRoutedTo_dropped() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7)));
    LocalHubListener u = local(LocalHubListener.Options.defaults());
    try (FluxHandle victim = zmq(l, "victim", null, null);
        FluxHandle attacker = FluxHandle.connect(reactor, u.uri(), T)) {
      CompletableFuture<Message> call = victim.rpc("svc.hold", Json.object(), T);
      ServiceRequest r = held.get(15, TimeUnit.SECONDS);
      Message request =
          Message.request("svc.hold", Json.object())
              .withMatchtag(r.matchtag())
              .withRoutes(List.of("victim"));
      attacker.sendRaw(
          Message.response(request, 0, Json.encode(Json.object().put("forged", true))));
      who(attacker); // the hub has handled the forged response before this answer
      r.respond(Json.object().put("legit", true));
      ObjectNode got = call.get(15, TimeUnit.SECONDS).json();
      assertThat(got.has("forged")).as("forged response delivered").isFalse();
      assertThat(got.path("legit").asBoolean()).isTrue();
    }
  }

  // finding 6: the socket directory

  @Test
  void existingDirectoryOfAnotherUid_refused() throws Exception {
    int me = (Integer) Files.getAttribute(tmp, "unix:uid");
    assumeTrue(me == 0, "changing a directory's owner needs root");
    Path dir = tmp.resolve("run");
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.setAttribute(dir, "unix:uid", 4242);
    assertThatThrownBy(() -> local(LocalHubListener.Options.defaults()))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessageContaining("owned by uid 4242");
    assertThat(Files.list(dir)).isEmpty();
  }

  @Test
  void existingDirectoryNotEmpty_refused() throws Exception {
    Path dir = tmp.resolve("run");
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.writeString(dir.resolve("planted"), "x");
    assertThatThrownBy(() -> local(LocalHubListener.Options.defaults()))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessageContaining("not empty");
    assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("planted");
  }

  // finding 7: a user whose name is made of digits

  @Test
  void userNamedWithDigits_seenWithItsOwnUid() throws Exception {
    int me = (Integer) Files.getAttribute(tmp, "unix:uid");
    assumeTrue(me == 0, "creating users and connecting as one needs root");
    // user "fdrm<r>" has uid X; user "X" (digits) has uid Y: the JDK names a peer of uid Y "X"
    int x = 60000 + RANDOM.nextInt(2000);
    int uid = x + 2000 + RANDOM.nextInt(1000);
    String other = "fdrm" + x;
    String name = Integer.toString(x);
    run("useradd", "-M", "-N", "-u", Integer.toString(x), "-s", "/bin/false", other);
    run("useradd", "--badname", "-M", "-N", "-u", Integer.toString(uid), "-s", "/bin/false", name);
    try {
      CompletableFuture<Long> seen = new CompletableFuture<>();
      services
          .register(
              Service.builder("probe")
                  .on("ask", r -> seen.complete(Integer.toUnsignedLong(r.credentials().userid())))
                  .build())
          .get(5, TimeUnit.SECONDS);
      LocalHubListener l =
          local(LocalHubListener.Options.defaults().withGuests(LocalHubListener.GuestPolicy.USER));
      // let the other user reach the socket (the listener itself keeps its directory 0700)
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
      Files.setPosixFilePermissions(
          tmp.resolve("run"), PosixFilePermissions.fromString("rwx--x--x"));
      Files.setPosixFilePermissions(l.socket(), PosixFilePermissions.fromString("rwxrwxrwx"));
      String frame =
          HexFormat.of()
              .formatHex(
                  LocalFraming.frame(
                      Message.request("probe.ask", Json.object()).withFlags(Flags.NORESPONSE, 0)));
      String py =
          "import socket,sys\n"
              + "s=socket.socket(socket.AF_UNIX)\n"
              + "s.connect(sys.argv[1])\n"
              + "assert s.recv(1)==b'\\x00'\n"
              + "s.sendall(bytes.fromhex(sys.argv[2]))\n"
              + "s.recv(1)\n";
      Process p =
          new ProcessBuilder(
                  "setpriv",
                  "--reuid=" + uid,
                  "--regid=100",
                  "--clear-groups",
                  "/usr/bin/python3",
                  "-c",
                  py,
                  l.socket().toString(),
                  frame)
              .redirectErrorStream(true)
              .start();
      try {
        assertThat(seen.get(60, TimeUnit.SECONDS)).isEqualTo((long) uid);
      } finally {
        p.destroy();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    } finally {
      run("userdel", name);
      run("userdel", other);
    }
  }

  private static void run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
  }

  // finding 14: events a guest publishes

  @Test
  void guestPublishingAnotherTopic_refusedAndNotDelivered() throws Exception {
    int me = (Integer) Files.getAttribute(tmp, "unix:uid");
    LocalHubListener l =
        local(
            LocalHubListener.Options.defaults()
                .withOwnerUid(me + 4242)
                .withGuests(LocalHubListener.GuestPolicy.USER));
    List<String> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> marker = new CompletableFuture<>();
    services
        .subscribe(
            "",
            ev -> {
              got.add(ev.topic());
              if (ev.topic().equals("job-state.marker")) {
                marker.complete(null);
              }
            })
        .get(5, TimeUnit.SECONDS);
    try (FluxHandle guest = FluxHandle.connect(reactor, l.uri(), T)) {
      assertThat(errnoOf(guest.publish("job-state.forged", Json.object()))).isEqualTo(Errno.EPERM);
      String own = Integer.toUnsignedString(me) + "-progress";
      assertThat(errnoOf(guest.publish(own, Json.object()))).isZero();
      services.publish("job-state.marker", Json.object()).get(5, TimeUnit.SECONDS);
      marker.get(15, TimeUnit.SECONDS);
      assertThat(got).doesNotContain("job-state.forged").contains(own);
    }
  }
}
