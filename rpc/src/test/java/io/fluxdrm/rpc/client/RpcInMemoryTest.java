package io.fluxdrm.rpc.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RpcInMemoryTest {
  private static final int OWNER_UID = 1000;

  private ManualEventLoop loop;
  private Hub hub;
  private FluxHandle server;
  private FluxHandle client;
  private final List<ServiceRequest> held = new ArrayList<>();
  private final List<String> disconnects = new ArrayList<>();
  private final List<Message> serverOut = new ArrayList<>();
  private final List<Message> clientOut = new ArrayList<>();

  @BeforeEach
  void setUp() {
    loop = new ManualEventLoop();
    AtomicInteger n = new AtomicInteger();
    hub = new Hub(loop, () -> "peer-" + n.incrementAndGet());
    server = hub.attach(Credentials.owner(OWNER_UID));
    client = hub.attach(Credentials.owner(OWNER_UID));
    server.tap((d, m) -> record(d, m, serverOut));
    client.tap((d, m) -> record(d, m, clientOut));
    Service svc =
        Service.builder("demo")
            .on("echo", r -> r.respond(r.json()))
            .on(
                "whoami",
                r ->
                    r.respond(
                        Json.object()
                            .put("userid", r.credentials().userid())
                            .put("rolemask", r.credentials().rolemask())
                            .put("owner", r.isOwner())
                            .put("mayActFor2000", r.mayActFor(2000))
                            .put("sender", r.sender())))
            .on("hold", held::add)
            .on(
                "fail",
                r -> {
                  throw new RpcException(Errno.EINVAL, "demo.fail: /x missing (expected: integer)");
                })
            .on(
                "crash",
                r -> {
                  throw new IllegalStateException("bug");
                })
            .onStreaming(
                "count",
                r -> {
                  int to = r.json().path("to").asInt();
                  for (int i = 1; i <= to; i++) {
                    r.respond(Json.object().put("i", i));
                  }
                  r.end();
                })
            .onStreaming("watch", held::add)
            .onDisconnect(disconnects::add)
            .build();
    CompletableFuture<Void> reg = server.register(svc);
    loop.runPending();
    assertThat(reg).isCompleted();
  }

  private static void record(MessageTap.Direction d, Message m, List<Message> out) {
    if (d == MessageTap.Direction.OUT) {
      out.add(m);
    }
  }

  private static RpcException failure(CompletableFuture<?> f) {
    assertThat(f).isCompletedExceptionally();
    AtomicReference<Throwable> t = new AtomicReference<>();
    f.whenComplete((v, e) -> t.set(e));
    assertThat(t.get()).isInstanceOf(RpcException.class);
    return (RpcException) t.get();
  }

  @Test
  void rpc_registeredService_getsResponseWithEmptyRouteStack() {
    CompletableFuture<Message> f = client.rpc("demo.echo", Json.object().put("x", 1));
    loop.runPending();
    Message m = f.join();
    assertThat(m.json().get("x").asInt()).isEqualTo(1);
    assertThat(m.has(Flags.ROUTE)).isTrue();
    assertThat(m.routes()).isEmpty();
    assertThat(m.matchtag()).isEqualTo(clientOut.get(clientOut.size() - 1).matchtag());
    assertThat(m.userid()).isEqualTo(OWNER_UID);
  }

  @Test
  void request_atService_carriesSenderRouteAndStampedCredentials() {
    FluxHandle guest = hub.attach(Credentials.user(2000));
    // the message claims owner credentials: the hub must overwrite them from the transport
    Message forged =
        Message.request("demo.whoami", Json.object()).withCredentials(0, Flags.ROLE_OWNER);
    CompletableFuture<Message> f = guest.call(forged, null);
    loop.runPending();
    var json = f.join().json();
    assertThat(json.get("userid").asInt()).isEqualTo(2000);
    assertThat(json.get("rolemask").asInt()).isEqualTo(Flags.ROLE_USER | Flags.ROLE_LOCAL);
    assertThat(json.get("owner").asBoolean()).isFalse();
    assertThat(json.get("mayActFor2000").asBoolean()).isTrue();
    assertThat(json.get("sender").asText()).isEqualTo("peer-3");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          nope.x        | 38 | unknown service 'nope'
          demo.missing  | 38 | unknown service method 'demo.missing'
          demo.fail     | 22 | demo.fail: /x missing (expected: integer)
          demo.crash    | 5  | demo.crash: internal error (IllegalStateException)
          demo.count    | 71 | demo.count: streaming method called without flag STREAMING
          """)
  void rpc_errorCases_errnoAndText(String topic, int errnum, String text) {
    CompletableFuture<Message> f = client.rpc(topic, Json.object());
    loop.runPending();
    RpcException e = failure(f);
    assertThat(e.errnum()).isEqualTo(errnum);
    assertThat(e.getMessage()).startsWith(text);
  }

  @Test
  void rpc_payloadNotJsonObject_eproto() {
    CompletableFuture<Message> f =
        client.call(Message.request("demo.echo", new byte[] {'[', '1', ']', 0}), null);
    loop.runPending();
    RpcException e = failure(f);
    assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(e.getMessage()).isEqualTo("payload of demo.echo: array (expected: JSON object)");
  }

  @Test
  void stream_countToThree_threeResponsesThenEnd() {
    List<Integer> got = new ArrayList<>();
    RpcStream s =
        client.stream(
            "demo.count",
            Json.object().put("to", 3),
            m -> got.add(m.json().get("i").asInt()),
            null);
    loop.runPending();
    assertThat(got).containsExactly(1, 2, 3);
    assertThat(s.done()).isCompleted();
    assertThat(client.matchtagsInUse()).isZero();
    Message last = serverOut.get(serverOut.size() - 1);
    assertThat(last.errnum()).isEqualTo(Errno.ENODATA);
    assertThat(last.has(Flags.STREAMING)).isTrue();
  }

  @Test
  void stream_endedByOtherError_failsWithThatError() {
    RpcStream s = client.stream("demo.watch", Json.object(), m -> {}, null);
    loop.runPending();
    held.get(0).respond(Json.object().put("n", 1));
    held.get(0).fail(Errno.ENOENT, "demo.watch: job 7 not found");
    loop.runPending();
    RpcException e = failure(s.done());
    assertThat(e.errnum()).isEqualTo(Errno.ENOENT);
    assertThat(e.getMessage()).isEqualTo("demo.watch: job 7 not found");
  }

  @Test
  void matchtag_heldByStream_reusedOnlyAfterFinalResponse() {
    client.stream("demo.watch", Json.object(), m -> {}, null);
    CompletableFuture<Message> a = client.rpc("demo.echo", Json.object());
    loop.runPending();
    assertThat(a).isCompleted();
    CompletableFuture<Message> b = client.rpc("demo.echo", Json.object());
    loop.runPending();
    List<Integer> tags = clientOut.stream().map(Message::matchtag).toList();
    // stream 1, first rpc 2, second rpc reuses 2 (freed by its response); 1 is still held
    assertThat(tags.subList(tags.size() - 3, tags.size())).containsExactly(1, 2, 2);
    held.get(0).respond(Json.object());
    loop.runPending();
    client.rpc("demo.echo", Json.object());
    loop.runPending();
    // a non-final streaming response keeps tag 1 held: the smallest free tag is still 2
    assertThat(clientOut.get(clientOut.size() - 1).matchtag()).isEqualTo(2);
    held.get(0).end();
    loop.runPending();
    client.rpc("demo.echo", Json.object());
    loop.runPending();
    assertThat(clientOut.get(clientOut.size() - 1).matchtag()).isEqualTo(1);
    assertThat(b).isCompleted();
  }

  @Test
  void rpc_noAnswerWithinTimeout_etimedoutAndTagHeldUntilLateResponse() {
    CompletableFuture<Message> f = client.rpc("demo.hold", Json.object(), Duration.ofSeconds(2));
    loop.advance(Duration.ofMillis(1999));
    assertThat(f).isNotDone();
    loop.advance(Duration.ofMillis(1));
    RpcException e = failure(f);
    assertThat(e.errnum()).isEqualTo(Errno.ETIMEDOUT);
    assertThat(e.getMessage()).isEqualTo("demo.hold: no response within 2 s");
    assertThat(client.matchtagsInUse()).isEqualTo(1);
    held.get(0).respond(Json.object());
    loop.runPending();
    assertThat(client.matchtagsInUse()).isZero();
  }

  @Test
  void noresponse_handlerAnswers_nothingSent() {
    AtomicInteger seen = new AtomicInteger();
    client.send("demo.hold", Json.object());
    loop.runPending();
    held.get(0).respond(Json.object());
    seen.set(serverOut.size());
    loop.runPending();
    assertThat(serverOut.stream().filter(m -> m.type() == MessageType.RESPONSE)).isEmpty();
    assertThat(held.get(0).isDone()).isTrue();
    assertThat(server.pendingServiceRequests("demo")).isZero();
  }

  @Test
  void drop_requestExpectingResponse_forgottenAndNeverAnswered() {
    CompletableFuture<Message> f = client.rpc("demo.hold", Json.object());
    loop.runPending();
    assertThat(server.pendingServiceRequests("demo")).isEqualTo(1);
    held.get(0).drop();
    loop.runPending();
    assertThat(server.pendingServiceRequests("demo")).isZero();
    assertThat(held.get(0).isDone()).isTrue();
    held.get(0).respond(Json.object());
    loop.runPending();
    assertThat(serverOut.stream().filter(m -> m.type() == MessageType.RESPONSE)).isEmpty();
    assertThat(f).isNotDone();
  }

  @Test
  void cancel_pendingStream_endsWithEnodataAndRequestDone() {
    RpcStream s = client.stream("demo.watch", Json.object(), m -> {}, null);
    loop.runPending();
    s.cancel();
    loop.runPending();
    // the method's own cancel (D520), and the stream's normal end
    assertThat(s.done()).isCompleted();
    s.done().join();
    assertThat(held.get(0).isDone()).isTrue();
    Message cancel = clientOut.get(clientOut.size() - 1);
    assertThat(cancel.topic()).isEqualTo("demo.watch-cancel");
    assertThat(cancel.has(Flags.NORESPONSE)).isTrue();
    assertThat(cancel.json().get("matchtag").asInt()).isEqualTo(s.matchtag().join());
    assertThat(client.matchtagsInUse()).isZero();
  }

  @Test
  void disconnect_clientCloses_serviceToldAndPendingDropped() {
    client.rpc("demo.hold", Json.object());
    loop.runPending();
    assertThat(server.pendingServiceRequests("demo")).isEqualTo(1);
    client.close();
    loop.runPending();
    assertThat(disconnects).containsExactly("peer-2");
    assertThat(server.pendingServiceRequests("demo")).isZero();
    held.get(0).respond(Json.object());
    loop.runPending();
    assertThat(serverOut.stream().filter(m -> m.type() == MessageType.RESPONSE)).isEmpty();
  }

  @Test
  void close_pendingCalls_failWithEconnreset() {
    CompletableFuture<Message> f = client.rpc("demo.hold", Json.object());
    loop.runPending();
    client.close();
    loop.runPending();
    assertThat(failure(f).errnum()).isEqualTo(Errno.ECONNRESET);
    CompletableFuture<Message> g = client.rpc("demo.echo", Json.object());
    loop.runPending();
    assertThat(failure(g).errnum()).isEqualTo(Errno.ECONNRESET);
  }

  @Test
  void serviceOwner_disconnects_serviceRemovedAndRequestsEnosys() {
    server.close();
    loop.runPending();
    assertThat(hub.hasService("demo")).isFalse();
    CompletableFuture<Message> f = client.rpc("demo.echo", Json.object());
    loop.runPending();
    assertThat(failure(f).errnum()).isEqualTo(Errno.ENOSYS);
  }

  @Test
  void serviceAdd_taken_eexist() {
    CompletableFuture<Void> f = client.register(Service.builder("demo").build());
    loop.runPending();
    assertThat(failure(f).errnum()).isEqualTo(Errno.EEXIST);
  }

  @Test
  void serviceAdd_byGuest_eperm() {
    FluxHandle guest = hub.attach(Credentials.user(2000));
    CompletableFuture<Void> f = guest.register(Service.builder("sched").build());
    loop.runPending();
    RpcException e = failure(f);
    assertThat(e.errnum()).isEqualTo(Errno.EPERM);
    assertThat(e.getMessage())
        .isEqualTo(
            "service.add: sched (expected: the instance owner, or a guest's name starting with"
                + " \"2000-\")");
    assertThat(hub.hasService("sched")).isFalse();
  }

  @Test
  void serviceAdd_guestNamePrefixedByItsUid_registered() {
    FluxHandle guest = hub.attach(Credentials.user(2000));
    CompletableFuture<Void> f = guest.register(Service.builder("2000-shell-f2").build());
    CompletableFuture<Void> other = guest.register(Service.builder("2001-shell-f2").build());
    loop.runPending();
    assertThat(f).isCompleted();
    assertThat(hub.hasService("2000-shell-f2")).isTrue();
    assertThat(failure(other).errnum()).isEqualTo(Errno.EPERM);
    assertThat(hub.hasService("2001-shell-f2")).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          service.add     | {"service":1}  | 71 | service.add: /service number (expected: string)
          service.add     | {}             | 71 | service.add: /service missing (expected: string)
          service.add     | {"service":""} | 22 | service.add: /service "" (expected: non-empty, no '.')
          service.remove  | {"service":"x"}| 2  | service.remove: x is not registered by this connection
          event.subscribe | {"topic":[]}   | 71 | event.subscribe: /topic array (expected: string)
          event.pub       | {"topic":"a","payload":"!"} | 71 | event.pub: /payload not base64
          """)
  void builtin_badRequest_errorAndNoStateChange(String topic, String json, int errnum, String text)
      throws Exception {
    CompletableFuture<Message> f = client.rpc(topic, Json.mapper().readTree(json));
    loop.runPending();
    RpcException e = failure(f);
    assertThat(e.errnum()).isEqualTo(errnum);
    assertThat(e.getMessage()).startsWith(text);
    assertThat(hub.hasService("demo")).isTrue();
  }

  @Test
  void events_subscribedPrefix_onlyMatchingDeliveredWithSequence() {
    List<String> got = new ArrayList<>();
    CompletableFuture<Subscription> sub =
        client.subscribe("job.", m -> got.add(m.topic() + "#" + m.aux1() + ":" + m.text()));
    loop.runPending();
    // the hub's own events (service.added of the fixture's services) took the first numbers
    long[] first = {-1};
    client.subscribe("probe.", m -> first[0] = m.aux1());
    loop.runPending();
    server.publish("probe.seq", null);
    loop.runPending();
    long n = first[0] + 1;
    server.publish("job.state", Json.object().put("id", 1));
    server.publish("heartbeat.pulse", null);
    server.publish("job.event", Json.object().put("id", 2));
    loop.runPending();
    assertThat(got)
        .containsExactly("job.state#" + n + ":{\"id\":1}", "job.event#" + (n + 2) + ":{\"id\":2}");
    sub.join().close();
    loop.runPending();
    server.publish("job.state", Json.object().put("id", 3));
    loop.runPending();
    assertThat(got).hasSize(2);
  }

  @Test
  void events_private_onlyOwnerAndSameUser() {
    FluxHandle guest = hub.attach(Credentials.user(2000));
    FluxHandle other = hub.attach(Credentials.user(3000));
    List<String> got = new ArrayList<>();
    guest.subscribe("", m -> got.add("guest:" + m.topic()));
    other.subscribe("", m -> got.add("other:" + m.topic()));
    client.subscribe("", m -> got.add("owner:" + m.topic()));
    loop.runPending();
    // a guest publishes under its own prefix only (D224)
    var req = Json.object().put("topic", "2000-secret").put("flags", Flags.PRIVATE);
    guest.rpc("event.pub", req);
    loop.runPending();
    assertThat(got).containsExactlyInAnyOrder("guest:2000-secret", "owner:2000-secret");
  }
}
