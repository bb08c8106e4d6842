package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import java.util.concurrent.TimeUnit;

/**
 * A ZeroMQ client run in its own JVM by {@link ZmqLivenessIT}: it registers the service "ghost",
 * calls "demo.echo", prints "ready" and waits to be killed.
 */
final class ZmqGhostClient {
  private ZmqGhostClient() {}

  public static void main(String[] args) throws Exception {
    Reactor reactor = Reactor.start("ghost");
    FluxHandle h = FluxHandle.connectZmq(reactor, args[0], null);
    h.register(Service.builder("ghost").on("echo", r -> r.respond(r.json())).build())
        .get(30, TimeUnit.SECONDS);
    h.rpc("demo.echo", Json.object().put("from", "ghost")).get(30, TimeUnit.SECONDS);
    System.out.println("ready");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE); // parks until the test kills the process
  }
}
