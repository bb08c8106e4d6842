package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A hub run by {@link ZmqHubLimitsIT} under a low descriptor limit: prints its endpoint, then
 * answers each line read with how often its reactor paused accepting; ends when stdin closes.
 */
final class FdLimitHubChild {
  private FdLimitHubChild() {}

  public static void main(String[] args) throws Exception {
    Reactor reactor = Reactor.start("fd-limit-hub");
    Hub hub = new Hub(reactor);
    hub.attach(Credentials.owner(1000))
        .register(new EchoService().build("demo"))
        .get(30, TimeUnit.SECONDS);
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7)));
    System.out.println(l.endpoint());
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    while (in.readLine() != null) {
      CompletableFuture<Long> n = new CompletableFuture<>();
      reactor.execute(() -> n.complete(reactor.acceptPauses()));
      System.out.println(n.get(30, TimeUnit.SECONDS));
      System.out.flush();
    }
    l.close();
    reactor.close();
  }
}
