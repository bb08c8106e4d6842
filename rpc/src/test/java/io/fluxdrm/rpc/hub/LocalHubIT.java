package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(60)
class LocalHubIT {
  private static final Duration T = Duration.ofSeconds(5);
  private static final HexFormat HEX = HexFormat.of();
  private static final long SEED = Long.getLong("fluxdrm.seed", 20261129L);

  @TempDir Path tmp;
  private Reactor reactor;
  private Hub hub;
  private LocalHubListener listener;
  private FluxHandle service;
  private int myUid;

  @BeforeEach
  void setUp() throws Exception {
    myUid = (Integer) Files.getAttribute(tmp, "unix:uid");
    reactor = Reactor.start("hub-it");
    hub = new Hub(reactor);
  }

  private void listen(LocalHubListener.Options o) throws Exception {
    listener = LocalHubListener.start(hub, reactor, tmp.resolve("run"), o);
    service = FluxHandle.connect(reactor, listener.uri(), T);
    service.register(new EchoService().build("demo")).get(5, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() {
    reactor.close();
  }

  private FluxHandle client() {
    return FluxHandle.connect(reactor, listener.uri(), T);
  }

  private void assertHubServes() throws Exception {
    try (FluxHandle c = client()) {
      var m = c.rpc("demo.echo", Json.object().put("ok", true), T).get(5, TimeUnit.SECONDS);
      assertThat(m.json().get("ok").asBoolean()).isTrue();
    }
  }

  private int peers() throws Exception {
    var f = new java.util.concurrent.CompletableFuture<Integer>();
    reactor.execute(() -> f.complete(hub.peerCount()));
    return f.get(5, TimeUnit.SECONDS);
  }

  @Test
  void listen_socketDirectory_mode0700() throws Exception {
    listen(LocalHubListener.Options.defaults());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("run"))))
        .isEqualTo("rwx------");
    assertThat(listener.uri()).isEqualTo("local://" + tmp.resolve("run").resolve("local"));
  }

  @Test
  void listen_existingOpenDirectory_einval() throws Exception {
    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThatThrownBy(
            () -> LocalHubListener.start(hub, reactor, open, LocalHubListener.Options.defaults()))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessageEndingWith(": mode rwxr-xr-x (expected: rwx------)");
  }

  /** Issue 29, finding 1: a second listener on a live socket is refused; the first serves on. */
  @Test
  void listen_socketInUse_eexist_theFirstKeepsItsSocketAndServes() throws Exception {
    listen(LocalHubListener.Options.defaults());
    Object inode = Files.getAttribute(listener.socket(), "unix:ino");
    assertThatThrownBy(
            () ->
                LocalHubListener.start(
                    hub, reactor, tmp.resolve("run"), LocalHubListener.Options.defaults()))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EEXIST))
        .hasMessageContaining(": a server is listening there");
    assertThat(Files.getAttribute(listener.socket(), "unix:ino")).isEqualTo(inode);
    assertHubServes();
  }

  /** A socket left by a server that is gone (it refuses connections) is replaced. */
  @Test
  void listen_staleSocket_replaced() throws Exception {
    Path run =
        Files.createDirectory(
            tmp.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try (java.nio.channels.ServerSocketChannel gone =
        java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      gone.bind(java.net.UnixDomainSocketAddress.of(run.resolve("local")));
    }
    assertThat(Files.exists(run.resolve("local"))).as("a stale socket").isTrue();
    listen(LocalHubListener.Options.defaults());
    assertHubServes();
  }

  /**
   * Issue 29, finding 3: the hub creates at most the directory named, never its missing parents (it
   * made a directory at the filesystem root before).
   */
  @Test
  void listen_parentMissing_enoent_nothingCreated() {
    Path dir = tmp.resolve("nonexistent-dir").resolve("sub").resolve("x");
    assertThatThrownBy(
            () -> LocalHubListener.start(hub, reactor, dir, LocalHubListener.Options.defaults()))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.ENOENT))
        .hasMessage(
            dir
                + ": its parent "
                + dir.getParent()
                + " does not exist (expected: an existing directory, in which the hub creates"
                + " x)");
    assertThat(tmp.resolve("nonexistent-dir")).doesNotExist();
  }

  /** Issue 29, finding 3: a clean stop removes the socket and the directory the hub created. */
  @Test
  void close_directoryItCreated_socketAndDirectoryRemoved() throws Exception {
    listen(LocalHubListener.Options.defaults());
    service.close();
    listener.close();
    assertThat(tmp.resolve("run")).doesNotExist();
  }

  /** A directory the user made is the user's: a clean stop removes only the socket. */
  @Test
  void close_directoryGivenByTheUser_onlySocketRemoved() throws Exception {
    Path run =
        Files.createDirectory(
            tmp.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    listen(LocalHubListener.Options.defaults());
    listener.close();
    assertThat(run.resolve("local")).doesNotExist();
    assertThat(run).isDirectory();
  }

  /** A directory the hub created but that holds something else by the stop is left alone. */
  @Test
  void close_createdDirectoryNoLongerEmpty_kept() throws Exception {
    listen(LocalHubListener.Options.defaults());
    Files.writeString(tmp.resolve("run").resolve("note"), "mine");
    listener.close();
    assertThat(tmp.resolve("run").resolve("note")).exists();
    assertThat(tmp.resolve("run").resolve("local")).doesNotExist();
  }

  @Test
  void rpc_betweenUnixClients_responseAndStream() throws Exception {
    listen(LocalHubListener.Options.defaults());
    try (FluxHandle c = client()) {
      var w = c.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS).json();
      assertThat(w.get("userid").asLong()).isEqualTo(myUid);
      assertThat(w.get("rolemask").asInt()).isEqualTo(Flags.ROLE_OWNER | Flags.ROLE_LOCAL);
      assertThat(w.get("routes").asInt()).isEqualTo(1);
      List<Integer> got = new CopyOnWriteArrayList<>();
      c.stream("demo.count", Json.object().put("to", 5), m -> got.add(m.json().get("i").asInt()), T)
          .done()
          .get(5, TimeUnit.SECONDS);
      assertThat(got).containsExactly(1, 2, 3, 4, 5);
    }
  }

  @Test
  void handshake_otherUidRefused_eperm() throws Exception {
    listener =
        LocalHubListener.start(
            hub,
            reactor,
            tmp.resolve("run"),
            LocalHubListener.Options.defaults().withOwnerUid(myUid + 4242));
    assertThatThrownBy(this::client)
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPERM));
    try (RawPeer raw = RawPeer.connect(listener.socket())) {
      assertThat(raw.handshake).isEqualTo(Errno.EPERM);
      assertThat(raw.closedWithin(T)).isTrue();
    }
  }

  @Test
  void handshake_otherUidAsUser_userRoleAndNoServiceAdd() throws Exception {
    listener =
        LocalHubListener.start(
            hub,
            reactor,
            tmp.resolve("run"),
            LocalHubListener.Options.defaults()
                .withOwnerUid(myUid + 4242)
                .withGuests(LocalHubListener.GuestPolicy.USER));
    try (FluxHandle guest = client();
        FluxHandle guest2 = client()) {
      var f = guest.register(new EchoService().build("demo"));
      assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
          .cause()
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPERM));
      FluxHandle owner = hub.attach(Credentials.owner(myUid + 4242));
      owner.register(new EchoService().build("demo")).get(5, TimeUnit.SECONDS);
      var w = guest2.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS).json();
      assertThat(w.get("userid").asLong()).isEqualTo(myUid);
      assertThat(w.get("rolemask").asInt()).isEqualTo(Flags.ROLE_USER | Flags.ROLE_LOCAL);
    }
  }

  /** What a raw peer sends after the handshake, and what the hub must do with it. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          truncated frame then eof  | 1200eeff0000003000      | CLOSED
          wrong magic               | 1300eeff00000015148e010100ffffffff00000000ffffffff00000001 | CLOSED
          wrong version             | 1200eeff00000015148e020101ffffffff00000000ffffffff00000001 | CLOSED
          proto part of 19 bytes    | 1200eeff00000015138e010101ffffffff00000000ffffffff00000001 | CLOSED
          part length beyond message| 1200eeff0000001930616263148e010101ffffffff00000000ffffffff00000001 | CLOSED
          over the message limit    | 1200eeff00200000        | CLOSED
          unknown type              | 1200eeff00000015148e010301ffffffff00000000ffffffff00000001 | CLOSED
          payload without its nul   | 1200eeff000000310b736572766963652e6164640f7b2273657276696365223a2278227d148e010103ffffffff00000000ffffffff00000001 | EPROTO
          json that is not an object| 1200eeff000000250b736572766963652e61646403313200148e010103ffffffff00000000ffffffff00000001 | EPROTO
          """)
  void badInput_offendingConnectionClosedOrEprotoOthersServed(
      String name, String hex, String expected) throws Exception {
    listen(LocalHubListener.Options.defaults().withLimits(1 << 20, 1 << 20));
    int before = peers();
    try (RawPeer raw = RawPeer.connect(listener.socket())) {
      assertThat(raw.handshake).isZero();
      raw.write(HEX.parseHex(hex));
      if (name.contains("eof")) {
        raw.hangUp();
      } else if (expected.equals("CLOSED")) {
        assertThat(raw.closedWithin(T)).as(name).isTrue();
      } else {
        Message m = raw.read(T);
        assertThat(m.type()).isEqualTo(MessageType.RESPONSE);
        assertThat(m.errnum()).isEqualTo(Errno.EPROTO);
        assertThat(m.text()).startsWith("payload of service.add: ");
      }
      assertHubServes();
    }
    Wait.until(T, () -> uncheckedPeers() == before);
  }

  private int uncheckedPeers() {
    try {
      return peers();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void flood_peerThatStopsReading_closedOthersServed() throws Exception {
    listen(LocalHubListener.Options.defaults().withLimits(1 << 20, 64 * 1024));
    byte[] one = LocalFraming.frame(Message.request("nope.x", Json.object()).withMatchtag(1));
    byte[] batch = new byte[one.length * 1000];
    for (int i = 0; i < 1000; i++) {
      System.arraycopy(one, 0, batch, i * one.length, one.length);
    }
    try (RawPeer flooder = RawPeer.connect(listener.socket())) {
      boolean open = true;
      for (int i = 0; i < 50 && open; i++) {
        open = flooder.write(batch);
        assertHubServesQuickly();
      }
      assertThat(flooder.closedWithin(T)).isTrue();
    }
    assertHubServes();
  }

  private void assertHubServesQuickly() throws Exception {
    var m = service.rpc("demo.echo", Json.object().put("n", 1), T).get(5, TimeUnit.SECONDS);
    assertThat(m.json().get("n").asInt()).isEqualTo(1);
  }

  @Test
  void fuzz_randomBytesFromManyPeers_hubKeepsServing() throws Exception {
    System.out.println("fuzz_randomBytesFromManyPeers_hubKeepsServing seed=" + SEED);
    listen(LocalHubListener.Options.defaults().withLimits(1 << 16, 1 << 20));
    SplittableRandom rnd = new SplittableRandom(SEED);
    byte[] valid = LocalFraming.frame(Message.request("demo.echo", Json.object()).withMatchtag(3));
    for (int i = 0; i < 40; i++) {
      try (RawPeer raw = RawPeer.connect(listener.socket())) {
        byte[] b;
        if (rnd.nextBoolean()) {
          b = valid.clone();
          for (int f = 0; f < 1 + rnd.nextInt(3); f++) {
            b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
          }
        } else {
          b = new byte[rnd.nextInt(200)];
          for (int j = 0; j < b.length; j++) {
            b[j] = (byte) rnd.nextInt(256);
          }
        }
        raw.write(b);
      }
    }
    assertHubServes();
    Wait.until(T, () -> uncheckedPeers() == 1);
  }

  @Test
  void serviceConnectionLeaves_clientsGetEnosys() throws Exception {
    listen(LocalHubListener.Options.defaults());
    service.close();
    try (FluxHandle c = client()) {
      Wait.until(T, () -> !hubHasDemo());
      var f = c.rpc("demo.echo", Json.object(), T);
      assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.ENOSYS));
    }
  }

  private boolean hubHasDemo() {
    var f = new java.util.concurrent.CompletableFuture<Boolean>();
    reactor.execute(() -> f.complete(hub.hasService("demo")));
    return f.join();
  }

  @Test
  void close_listener_socketRemovedAndNewClientsRefused() throws Exception {
    listen(LocalHubListener.Options.defaults());
    listener.close();
    assertThat(Files.exists(listener.socket())).isFalse();
    assertThatThrownBy(() -> FluxHandle.connect(reactor, listener.uri(), Duration.ofMillis(100)))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.ENOENT));
    var m = service.rpc("demo.echo", Json.object().put("still", 1), T).get(5, TimeUnit.SECONDS);
    assertThat(m.json().get("still").asInt()).isEqualTo(1);
  }

  @Test
  void subscriberThatStopsReading_closedPublisherServed() throws Exception {
    listen(LocalHubListener.Options.defaults().withLimits(1 << 20, 64 * 1024));
    try (RawPeer raw = RawPeer.connect(listener.socket())) {
      raw.write(
          LocalFraming.frame(
              Message.request("event.subscribe", Json.object().put("topic", "big."))
                  .withMatchtag(1)));
      Message ok = raw.read(T);
      assertThat(ok.errnum()).isZero();
      String blob = "x".repeat(1024);
      // event numbers are global: the hub's own events (service.added) took some already
      int first = service.publish("big.first", Json.object()).get(5, TimeUnit.SECONDS);
      for (int i = 0; i < 3000; i++) {
        service.publish("big.event", Json.object().put("blob", blob));
      }
      var seq = service.publish("big.last", Json.object()).get(5, TimeUnit.SECONDS);
      assertThat(seq).isEqualTo(first + 3001);
      assertHubServesQuickly();
      assertThat(raw.closedWithin(T)).isTrue();
    }
  }
}
