package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A message hub that routes requests by service name between its connected clients, as a Flux
 * broker's local connector and router do; standalone deployments run it. Clients attach in memory
 * ({@link #attach(Credentials)}), over a Unix socket ({@link LocalHubListener}) or over ZeroMQ
 * ({@link ZmqHubListener}); its own services are handles attached in memory.
 */
public final class Hub {
  /**
   * The event the hub publishes when a registered service disappears, by {@code service.remove} or
   * because the client that registered it went away: {@code {"service": name}}, PRIVATE to the
   * service owner's user (the instance owner sees all), published after the {@code
   * <service>.disconnect} notices of that client. A Flux broker publishes no such event (its
   * services are broker modules); clients of our hub subscribe to learn that a peer's service, such
   * as {@code job-manager}, is gone even if they never sent it a request.
   */
  public static final String SERVICE_REMOVED = "service.removed";

  /**
   * The event the hub publishes when a service is registered ({@code service.add} answered): {@code
   * {"service": name}}, PRIVATE as {@link #SERVICE_REMOVED} is. A client that waits for a peer's
   * service, such as a scheduler for a job manager that starts after it, is told at once instead of
   * polling (issue 29, finding 10; decision D499). A Flux broker publishes no such event.
   */
  public static final String SERVICE_ADDED = "service.added";

  private final EventLoop loop;
  private final Router router = new Router();
  private final Supplier<String> ids;

  /** Creates a hub on a loop, naming connections with random UUIDs. */
  public Hub(EventLoop loop) {
    this(loop, () -> UUID.randomUUID().toString());
  }

  /** Creates a hub on a loop with an injected source of connection identities. */
  public Hub(EventLoop loop, Supplier<String> ids) {
    this.loop = loop;
    this.ids = ids;
  }

  /** Returns the hub's loop. */
  public EventLoop loop() {
    return loop;
  }

  /** Attaches an in-memory client with the given credentials (decision D16: the hub vouches). */
  public FluxHandle attach(Credentials credentials) {
    InMemoryLink link = new InMemoryLink(ids.get(), credentials, loop, router);
    return FluxHandle.open(loop, link.connector);
  }

  Router router() {
    return router;
  }

  String newId() {
    return ids.get();
  }

  /** Returns the number of connected peers (call on the loop or when it is idle). */
  public int peerCount() {
    return router.peerCount();
  }

  /** Returns whether a service is registered (call on the loop or when it is idle). */
  public boolean hasService(String name) {
    return router.hasService(name);
  }
}
