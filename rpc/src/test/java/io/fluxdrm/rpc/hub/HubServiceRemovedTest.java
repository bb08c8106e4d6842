package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.client.Subscription;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The hub's {@link Hub#SERVICE_REMOVED} event: who is told that a service disappeared, when. */
class HubServiceRemovedTest {
  private static final int OWNER = 100;

  private ManualEventLoop loop;
  private Hub hub;
  private FluxHandle watcher;
  private final List<String> seen = new ArrayList<>();

  @BeforeEach
  void setUp() {
    loop = new ManualEventLoop();
    AtomicInteger n = new AtomicInteger();
    hub = new Hub(loop, () -> "peer-" + n.incrementAndGet());
    watcher = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Void> reg =
        watcher.register(
            Service.builder("sched").on("ping", r -> r.respond(Json.object())).build());
    watcher.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.IN && m.type() == MessageType.REQUEST) {
            seen.add("request " + m.topic());
          }
        });
    CompletableFuture<Subscription> sub =
        watcher.subscribe(
            Hub.SERVICE_REMOVED,
            m -> seen.add("event " + m.topic() + " " + m.json().get("service").asText()));
    loop.runPending();
    assertThat(reg).isCompleted();
    assertThat(sub).isCompleted();
  }

  private FluxHandle owner(String service) {
    FluxHandle h = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Void> reg = h.register(Service.builder(service).build());
    loop.runPending();
    assertThat(reg).isCompleted();
    return h;
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void ownerDisconnects_eventAfterDisconnectNotices(boolean usedSched) {
    FluxHandle jm = owner("job-manager");
    if (usedSched) {
      jm.rpc("sched.ping", Json.object());
    }
    loop.runPending();
    seen.clear();
    jm.close();
    loop.runPending();
    List<String> expected = new ArrayList<>();
    if (usedSched) {
      expected.add("request sched.disconnect");
    }
    expected.add("event service.removed job-manager");
    assertThat(seen).containsExactlyElementsOf(expected);
    assertThat(hub.hasService("job-manager")).isFalse();
  }

  @Test
  void ownerWithTwoServicesDisconnects_oneEventEach() {
    FluxHandle h = owner("a");
    CompletableFuture<Void> reg = h.register(Service.builder("b").build());
    loop.runPending();
    assertThat(reg).isCompleted();
    h.close();
    loop.runPending();
    assertThat(seen).containsExactly("event service.removed a", "event service.removed b");
  }

  @Test
  void serviceRemove_eventAfterTheAnswer() {
    FluxHandle jm = owner("job-manager");
    CompletableFuture<Void> un = jm.unregister("job-manager");
    loop.runPending();
    assertThat(un).isCompleted();
    assertThat(seen).containsExactly("event service.removed job-manager");
  }

  @Test
  void guestService_seenByItsUserAndTheOwnerOnly() {
    FluxHandle guest = hub.attach(Credentials.user(2000));
    FluxHandle other = hub.attach(Credentials.user(3000));
    List<String> got = new ArrayList<>();
    guest.subscribe(Hub.SERVICE_REMOVED, m -> got.add("guest"));
    other.subscribe(Hub.SERVICE_REMOVED, m -> got.add("other"));
    FluxHandle svc = hub.attach(Credentials.user(2000));
    svc.register(Service.builder("2000-tool").build());
    loop.runPending();
    svc.close();
    loop.runPending();
    assertThat(got).containsExactly("guest");
    assertThat(seen).containsExactly("event service.removed 2000-tool");
  }

  @Test
  void eventPub_ofTheHubsTopic_epermAndNothingPublished() {
    FluxHandle client = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Integer> f =
        client.publish(Hub.SERVICE_REMOVED, Json.object().put("service", "sched"));
    loop.runPending();
    assertThat(f).isCompletedExceptionally();
    RpcException r = null;
    try {
      f.join();
    } catch (CompletionException e) {
      r = (RpcException) e.getCause();
    }
    assertThat(r).isNotNull();
    assertThat(r.errnum()).isEqualTo(Errno.EPERM);
    assertThat(r.getMessage())
        .isEqualTo("event.pub: /topic service.removed (expected: a topic the hub does not own)");
    assertThat(seen).isEmpty();
    assertThat(hub.hasService("sched")).isTrue();
  }

  @Test
  void event_isPrivateWithTheOwnersCredentials() {
    List<Message> events = new ArrayList<>();
    watcher.subscribe(Hub.SERVICE_REMOVED, events::add);
    loop.runPending();
    owner("job-manager").close();
    loop.runPending();
    assertThat(events).hasSize(1);
    assertThat(events.get(0).has(Flags.PRIVATE)).isTrue();
    assertThat(events.get(0).userid()).isEqualTo(OWNER);
    assertThat(events.get(0).json().toString()).isEqualTo("{\"service\":\"job-manager\"}");
  }

  /**
   * {@link Hub#SERVICE_ADDED}: published when a service is registered, PRIVATE with the registering
   * peer's credentials (a guest's seen by its user and the owner only), and not to be published by
   * a client (D499).
   */
  @Test
  void serviceAdded_privateToOwnerAndItsUser_notPublishable() {
    List<String> got = new ArrayList<>();
    List<Message> events = new ArrayList<>();
    watcher.subscribe(Hub.SERVICE_ADDED, events::add);
    FluxHandle other = hub.attach(Credentials.user(3000));
    other.subscribe(Hub.SERVICE_ADDED, m -> got.add("other " + m.json().get("service").asText()));
    FluxHandle guest = hub.attach(Credentials.user(2000));
    guest.subscribe(Hub.SERVICE_ADDED, m -> got.add("guest " + m.json().get("service").asText()));
    loop.runPending();
    FluxHandle jm = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Void> reg = jm.register(Service.builder("job-manager").build());
    loop.runPending();
    assertThat(reg).isCompleted();
    assertThat(events).hasSize(1);
    assertThat(events.get(0).has(Flags.PRIVATE)).isTrue();
    assertThat(events.get(0).userid()).isEqualTo(OWNER);
    assertThat(events.get(0).json().toString()).isEqualTo("{\"service\":\"job-manager\"}");
    FluxHandle svc = hub.attach(Credentials.user(2000));
    svc.register(Service.builder("2000-tool").build());
    loop.runPending();
    assertThat(got).containsExactly("guest 2000-tool");
    assertThat(events).hasSize(2);

    CompletableFuture<Integer> f =
        jm.publish(Hub.SERVICE_ADDED, Json.object().put("service", "job-manager"));
    loop.runPending();
    assertThat(f).isCompletedExceptionally();
    assertThat(events).hasSize(2);
  }
}
