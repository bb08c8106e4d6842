package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.reactor.Reactor;
import java.util.concurrent.TimeUnit;

/**
 * A hub run in its own JVM by {@link ZmqHubMemoryIT} and {@link ReactorFatalIT}: a loopback ZeroMQ
 * listener with the default options serving "demo"; prints its endpoint, then runs until its
 * standard input closes. With the argument {@code fatal} it prints "ready" and throws an {@link
 * Error} in a reactor task instead, and its main thread waits for ever: only the reactor's fatal
 * policy can end the process.
 */
final class HubChild {
  private HubChild() {}

  public static void main(String[] args) throws Exception {
    Reactor reactor = Reactor.start("hub-child");
    if (args.length > 0 && args[0].equals("fatal")) {
      System.out.println("ready");
      System.out.flush();
      reactor.execute(
          () -> {
            throw new AssertionError("injected fatal error");
          });
      new java.util.concurrent.CountDownLatch(1).await();
      return;
    }
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
    while (System.in.read() >= 0) {
      // runs until the test closes its end
    }
    l.close();
    reactor.close();
  }
}
