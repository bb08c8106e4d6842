package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.client.RpcStream;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server that goes away with requests in flight (D502): the hub answers each of them EHOSTUNREACH
 * on its behalf, ends its streams the same way, and sends nothing for a request that was answered
 * already; requests to other servers go on.
 */
class HubServerGoneTest {
  private static final int OWNER = 100;

  private ManualEventLoop loop;
  private Hub hub;
  private FluxHandle server;
  private FluxHandle client;
  private final List<Message> responses = new ArrayList<>();

  @BeforeEach
  void setUp() {
    loop = new ManualEventLoop();
    AtomicInteger n = new AtomicInteger();
    hub = new Hub(loop, () -> "peer-" + n.incrementAndGet());
    server = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Void> reg =
        server.register(
            Service.builder("jm")
                .on("hold", r -> {}) // never answered
                .on("ping", r -> r.respond(Json.object()))
                .onStreaming("watch", r -> r.respond(Json.object().put("n", 1)))
                .build());
    client = hub.attach(Credentials.user(1000));
    client.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.IN && m.type() == MessageType.RESPONSE) {
            responses.add(m);
          }
        });
    loop.runPending();
    assertThat(reg).isCompleted();
  }

  private static RpcException error(CompletableFuture<?> f) {
    assertThat(f).as("answered").isDone();
    try {
      f.join();
      throw new AssertionError("answered with success");
    } catch (CompletionException e) {
      return (RpcException) e.getCause();
    }
  }

  @Test
  void serverGone_requestInFlight_answeredEhostunreachWithTheTopic() {
    CompletableFuture<Message> f = client.rpc("jm.hold", Json.object());
    loop.runPending();
    assertThat(f).isNotDone();
    server.close();
    loop.runPending();
    RpcException e = error(f);
    assertThat(e.errnum()).isEqualTo(Errno.EHOSTUNREACH);
    assertThat(e.getMessage())
        .contains("jm.hold: the service's provider went away before answering");
    assertThat(responses).hasSize(1);
  }

  @Test
  void serverGone_requestAnsweredAlready_nothingMore() {
    CompletableFuture<Message> f = client.rpc("jm.ping", Json.object());
    loop.runPending();
    assertThat(f).isCompleted();
    server.close();
    loop.runPending();
    assertThat(responses).hasSize(1);
    assertThat(responses.get(0).errnum()).isZero();
  }

  @Test
  void serverGone_streamWithAnswers_endedEhostunreach() {
    List<Message> got = new ArrayList<>();
    RpcStream s = client.stream("jm.watch", Json.object(), got::add, null);
    loop.runPending();
    assertThat(got).hasSize(1);
    assertThat(s.done()).isNotDone();
    server.close();
    loop.runPending();
    assertThat(error(s.done()).errnum()).isEqualTo(Errno.EHOSTUNREACH);
  }

  @Test
  void otherServerGone_requestsToThisOneUnaffected() {
    FluxHandle other = hub.attach(Credentials.owner(OWNER));
    CompletableFuture<Void> reg = other.register(Service.builder("other").build());
    CompletableFuture<Message> f = client.rpc("jm.hold", Json.object());
    loop.runPending();
    assertThat(reg).isCompleted();
    other.close();
    loop.runPending();
    assertThat(f).isNotDone();
    assertThat(responses).isEmpty();
  }
}
