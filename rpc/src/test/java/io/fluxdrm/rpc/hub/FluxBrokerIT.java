package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.FluxPeer;
import io.fluxdrm.rpc.reactor.Reactor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same exchanges as {@link LocalConnectorIT}, against a live flux-core broker ({@link
 * FluxPeer}, one {@code flux start --test-size=1} for the class; profile {@code flux-live}).
 */
@Tag(FluxPeer.TAG)
@Timeout(120)
class FluxBrokerIT {
  private static final Duration T = Duration.ofSeconds(30);

  @TempDir static Path dir;
  private static FluxPeer peer;
  private Reactor reactor;
  private String uri;

  @BeforeAll
  static void startPeer() throws Exception {
    // without flux each test skips (or fails when required) in setUp, saying why
    if (FluxPeer.unavailableReason() == null) {
      peer = FluxPeer.start(dir.resolve("peer"), FluxPeer.Options.defaults());
    }
  }

  @AfterAll
  static void stopPeer() {
    if (peer != null) {
      peer.close();
    }
  }

  @BeforeEach
  void setUp() {
    FluxPeer.assumeAvailable();
    uri = peer.uri();
    reactor = Reactor.start("flux-broker-it");
  }

  @AfterEach
  void tearDown() {
    if (reactor != null) {
      reactor.close();
    }
  }

  @Test
  void attrGet_rank_answered() throws Exception {
    try (FluxHandle h = FluxHandle.connect(reactor, uri, T)) {
      var m = h.rpc("attr.get", Json.object().put("name", "rank"), T).get(30, TimeUnit.SECONDS);
      assertThat(m.json().get("value").asText()).matches("\\d+");
      assertThat(m.routes()).isEmpty();
    }
  }

  @Test
  void attrGet_unknown_enoent() throws Exception {
    try (FluxHandle h = FluxHandle.connect(reactor, uri, T)) {
      var f = h.rpc("attr.get", Json.object().put("name", "fluxdrm-no-such-attr"), T);
      try {
        f.get(30, TimeUnit.SECONDS);
        throw new AssertionError("expected ENOENT");
      } catch (ExecutionException e) {
        assertThat(((RpcException) e.getCause()).errnum()).isEqualTo(Errno.ENOENT);
      }
    }
  }

  @Test
  void registerServeAndCall_includingStreaming() throws Exception {
    String name = "fluxdrmit" + ProcessHandle.current().pid();
    try (FluxHandle service = FluxHandle.connect(reactor, uri, T);
        FluxHandle client = FluxHandle.connect(reactor, uri, T)) {
      service.register(new EchoService().build(name)).get(30, TimeUnit.SECONDS);
      var echo = client.rpc(name + ".echo", Json.object().put("x", 1), T).get(30, TimeUnit.SECONDS);
      assertThat(echo.json().get("x").asInt()).isEqualTo(1);
      List<Integer> got = new CopyOnWriteArrayList<>();
      client.stream(
              name + ".count",
              Json.object().put("to", 3),
              m -> got.add(m.json().get("i").asInt()),
              T)
          .done()
          .get(30, TimeUnit.SECONDS);
      assertThat(got).containsExactly(1, 2, 3);
      try {
        client.rpc(name + ".nope", Json.object(), T).get(30, TimeUnit.SECONDS);
        throw new AssertionError("expected ENOSYS");
      } catch (ExecutionException e) {
        assertThat(((RpcException) e.getCause()).errnum()).isEqualTo(Errno.ENOSYS);
      }
    }
  }
}
