package io.fluxdrm.rpc.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FluxHandle#sendUntracked} and {@link FluxHandle#onResponse}: requests with matchtag 0
 * whose responses, several per request, are correlated by payload (RFC 27's {@code sched.alloc}).
 */
class ResponseHandlerTest {
  private ManualEventLoop loop;
  private FluxHandle server;
  private FluxHandle client;
  private final List<ServiceRequest> held = new ArrayList<>();
  private final List<Message> wire = new ArrayList<>();
  private final List<Message> got = new ArrayList<>();

  @BeforeEach
  void setUp() {
    loop = new ManualEventLoop();
    AtomicInteger n = new AtomicInteger();
    Hub hub = new Hub(loop, () -> "peer-" + n.incrementAndGet());
    server = hub.attach(Credentials.owner(1000));
    client = hub.attach(Credentials.owner(1000));
    CompletableFuture<Void> reg =
        server.register(
            Service.builder("demo")
                .on("hold", held::add)
                .on("echo", r -> r.respond(r.json()))
                .build());
    loop.runPending();
    assertThat(reg).isCompleted();
    client.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
            wire.add(m);
          }
        });
  }

  /** Answers the held request {@code i} without finishing it (an RFC 27 ANNOTATE). */
  private void rawAnswer(int i, int k) {
    Message req = held.get(i).message();
    server.sendRaw(Message.response(req, 0, Json.encode(Json.object().put("k", k))));
  }

  @Test
  void sendUntracked_severalResponsesToOneRequest_eachReachesTheTopicHandlerInOrder() {
    client.onResponse("demo.hold", got::add);
    client.sendUntracked("demo.hold", Json.object().put("id", 7));
    loop.runPending();
    assertThat(wire).hasSize(1);
    assertThat(wire.get(0).matchtag()).isZero();
    assertThat(wire.get(0).has(Flags.NORESPONSE)).isFalse();
    rawAnswer(0, 1);
    rawAnswer(0, 2);
    held.get(0).respond(Json.object().put("k", 3));
    loop.runPending();
    assertThat(got).extracting(m -> m.json().get("k").asInt()).containsExactly(1, 2, 3);
    assertThat(got).allSatisfy(m -> assertThat(m.matchtag()).isZero());
    assertThat(client.matchtagsInUse()).isZero();
  }

  @Test
  void sendUntracked_unknownService_hubErrorReachesTheHandler() {
    client.onResponse("nobody.there", got::add);
    client.sendUntracked("nobody.there", Json.object());
    loop.runPending();
    assertThat(got).hasSize(1);
    assertThat(got.get(0).errnum()).isEqualTo(Errno.ENOSYS);
    assertThat(FluxHandle.error(got.get(0)).getMessage()).isEqualTo("unknown service 'nobody'");
  }

  @Test
  void onResponse_otherTopicAndTrackedCalls_notDelivered() {
    client.onResponse("demo.echo", got::add);
    List<Message> other = new ArrayList<>();
    client.onResponse("demo.hold", other::add);
    CompletableFuture<Message> tracked = client.rpc("demo.echo", Json.object().put("x", 1));
    client.sendUntracked("demo.echo", Json.object().put("x", 2));
    loop.runPending();
    assertThat(tracked.join().json().get("x").asInt()).isEqualTo(1);
    assertThat(got).extracting(m -> m.json().get("x").asInt()).containsExactly(2);
    assertThat(other).isEmpty();
  }

  @Test
  void onResponse_twoHandlersOneClosed_onlyTheOpenOneReceives() {
    List<Message> second = new ArrayList<>();
    ResponseHandler first = client.onResponse("demo.echo", got::add);
    client.onResponse("demo.echo", second::add);
    client.sendUntracked("demo.echo", Json.object().put("x", 1));
    loop.runPending();
    first.close();
    client.sendUntracked("demo.echo", Json.object().put("x", 2));
    loop.runPending();
    assertThat(got).extracting(m -> m.json().get("x").asInt()).containsExactly(1);
    assertThat(second).extracting(m -> m.json().get("x").asInt()).containsExactly(1, 2);
  }

  @Test
  void sendUntracked_noHandler_responseDroppedAndCallsUnaffected() {
    client.sendUntracked("demo.echo", Json.object().put("x", 1));
    CompletableFuture<Message> tracked = client.rpc("demo.echo", Json.object().put("x", 2));
    loop.runPending();
    assertThat(tracked.join().json().get("x").asInt()).isEqualTo(2);
    assertThat(client.matchtagsInUse()).isZero();
  }
}
