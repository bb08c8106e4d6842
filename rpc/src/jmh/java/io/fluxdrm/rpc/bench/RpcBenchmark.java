package io.fluxdrm.rpc.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.hub.LocalHubListener;
import io.fluxdrm.rpc.hub.ZmqHubListener;
import io.fluxdrm.rpc.hub.ZmqHubSettings;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * RPC round trips from one client to an echo service attached in memory to a hub on a reactor: the
 * client is in memory, on the hub's Unix socket, or on its ZeroMQ loopback listener (without or
 * with CURVE). The client and the hub share one process and one reactor thread (the figures include
 * both sides).
 */
@State(Scope.Benchmark)
public class RpcBenchmark {
  private static final int PIPELINE = 1000;

  @Param({"inmemory", "unix", "zeromq", "zeromq-curve"})
  public String transport;

  private Reactor reactor;
  private Reactor clientReactor;
  private FluxHandle client;
  private ObjectNode payload;
  private Path dir;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    reactor = Reactor.start("bench-hub");
    Hub hub = new Hub(reactor);
    FluxHandle service = hub.attach(Credentials.owner(0));
    service
        .register(Service.builder("bench").on("echo", r -> r.respond(r.json())).build())
        .get(5, TimeUnit.SECONDS);
    payload = Json.object().put("data", "x".repeat(180));
    switch (transport) {
      case "inmemory" -> client = hub.attach(Credentials.owner(0));
      case "unix" -> {
        dir = Files.createTempDirectory("fluxdrm-bench");
        LocalHubListener l =
            LocalHubListener.start(
                hub, reactor, dir.resolve("run"), LocalHubListener.Options.defaults());
        clientReactor = Reactor.start("bench-client");
        client = FluxHandle.connect(clientReactor, l.uri(), Duration.ofSeconds(5));
      }
      case "zeromq" -> {
        ZmqHubListener l =
            ZmqHubListener.start(
                hub,
                reactor,
                "tcp://127.0.0.1:*",
                ZmqHubSettings.Options.loopback(Credentials.owner(0)));
        clientReactor = Reactor.start("bench-client");
        client = FluxHandle.connectZmq(clientReactor, l.endpoint(), null);
      }
      case "zeromq-curve" -> {
        java.security.SecureRandom random = new java.security.SecureRandom();
        CurveKeyPair server = CurveKeyPair.generate(random);
        CurveKeyPair clientKeys = CurveKeyPair.generate(random);
        String clientPublic = Z85.encode(clientKeys.publicKey());
        ZmqHubListener l =
            ZmqHubListener.start(
                hub,
                reactor,
                "tcp://127.0.0.1:*",
                ZmqHubSettings.Options.curve(
                    new ZmqHubSettings.Curve(
                        Z85.encode(server.publicKey()),
                        Z85.encode(server.secretKey()),
                        java.util.Map.of(clientPublic, Credentials.owner(0)))));
        clientReactor = Reactor.start("bench-client");
        client =
            FluxHandle.connectZmq(
                clientReactor,
                l.endpoint(),
                new ZmqClientKeys(
                    Z85.encode(server.publicKey()),
                    clientPublic,
                    Z85.encode(clientKeys.secretKey())));
      }
      default -> throw new IllegalArgumentException(transport);
    }
    client.rpc("bench.echo", payload).get(5, TimeUnit.SECONDS);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    client.close();
    if (clientReactor != null) {
      clientReactor.close();
    }
    reactor.close();
    if (dir != null) {
      try (var s = Files.walk(dir)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** One request, wait for its response: latency percentiles. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Message roundTrip() throws Exception {
    return client.rpc("bench.echo", payload).get(5, TimeUnit.SECONDS);
  }

  /** A thousand requests in flight from one client, then wait for all: throughput. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(PIPELINE)
  public Object pipelined() throws Exception {
    CompletableFuture<?>[] f = new CompletableFuture<?>[PIPELINE];
    for (int i = 0; i < PIPELINE; i++) {
      f[i] = client.rpc("bench.echo", payload);
    }
    return CompletableFuture.allOf(f).get(30, TimeUnit.SECONDS);
  }
}
