package io.fluxdrm.rpc.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
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
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link FluxHandle#rpcCall}: the matchtag of an RPC, as sent and as long as it is held. */
class RpcCallTest {
  private ManualEventLoop loop;
  private FluxHandle client;
  private final List<ServiceRequest> held = new ArrayList<>();
  private final List<Message> wire = new ArrayList<>();

  @BeforeEach
  void setUp() {
    loop = new ManualEventLoop();
    AtomicInteger n = new AtomicInteger();
    Hub hub = new Hub(loop, () -> "peer-" + n.incrementAndGet());
    FluxHandle server = hub.attach(Credentials.owner(1000));
    client = hub.attach(Credentials.owner(1000));
    CompletableFuture<Void> reg =
        server.register(Service.builder("demo").on("hold", held::add).build());
    loop.runPending();
    assertThat(reg).isCompleted();
    client.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
            wire.add(m);
          }
        });
  }

  private static int tag(RpcCall c) {
    assertThat(c.matchtag()).as("matchtag known").isCompleted();
    return c.matchtag().join();
  }

  private static RpcException failure(CompletableFuture<?> f) {
    assertThat(f).isCompletedExceptionally();
    try {
      f.join();
    } catch (CompletionException e) {
      return (RpcException) e.getCause();
    }
    throw new AssertionError("not failed");
  }

  @Test
  void rpcCall_fromOffTheLoop_matchtagKnownOnceSentAndEqualsTheWire() {
    RpcCall c = client.rpcCall("demo.hold", Json.object(), null);
    assertThat(c.matchtag()).isNotDone();
    loop.runPending();
    assertThat(tag(c)).isEqualTo(wire.get(wire.size() - 1).matchtag()).isPositive();
    assertThat(held.get(0).matchtag()).isEqualTo(tag(c));
    held.get(0).respond(Json.object().put("ok", true));
    loop.runPending();
    assertThat(c.response().join().json().get("ok").asBoolean()).isTrue();
    assertThat(c.response().join().matchtag()).isEqualTo(tag(c));
  }

  @Test
  void rpcCall_onTheLoop_matchtagKnownWhenTheCallReturns() {
    List<Integer> seen = new ArrayList<>();
    loop.execute(
        () -> {
          RpcCall c = client.rpcCall("demo.hold", Json.object(), null);
          seen.add(c.matchtag().getNow(-1));
          seen.add(wire.get(wire.size() - 1).matchtag());
        });
    loop.runPending();
    assertThat(seen).hasSize(2);
    assertThat(seen.get(0)).isPositive().isEqualTo(seen.get(1));
  }

  @Test
  void rpcCall_concurrentCalls_distinctTagsAndOneReusedOnlyAfterItsResponse() {
    RpcCall a = client.rpcCall("demo.hold", Json.object(), null);
    RpcCall b = client.rpcCall("demo.hold", Json.object(), null);
    loop.runPending();
    assertThat(tag(a)).isNotEqualTo(tag(b));
    // a's tag is held while a waits: a third call gets a fresh one
    RpcCall c = client.rpcCall("demo.hold", Json.object(), null);
    loop.runPending();
    assertThat(tag(c)).isNotIn(tag(a), tag(b));
    held.get(0).respond(Json.object());
    loop.runPending();
    assertThat(a.response()).isCompleted();
    RpcCall d = client.rpcCall("demo.hold", Json.object(), null);
    loop.runPending();
    assertThat(tag(d)).isEqualTo(tag(a));
  }

  @Test
  void rpcCall_timedOut_tagHeldUntilTheLateResponse() {
    RpcCall a = client.rpcCall("demo.hold", Json.object(), Duration.ofSeconds(1));
    loop.advance(Duration.ofSeconds(1));
    assertThat(failure(a.response()).errnum()).isEqualTo(Errno.ETIMEDOUT);
    RpcCall b = client.rpcCall("demo.hold", Json.object(), null);
    loop.runPending();
    assertThat(tag(b)).isNotEqualTo(tag(a));
    held.get(0).respond(Json.object());
    loop.runPending();
    RpcCall c = client.rpcCall("demo.hold", Json.object(), null);
    loop.runPending();
    assertThat(tag(c)).isEqualTo(tag(a));
  }

  @Test
  void rpcCall_closedHandle_matchtagAndResponseFailEconnreset() {
    client.close();
    loop.runPending();
    RpcCall a = client.rpcCall("demo.hold", Json.object(), null);
    loop.runPending();
    assertThat(failure(a.matchtag()).errnum()).isEqualTo(Errno.ECONNRESET);
    assertThat(failure(a.response()).errnum()).isEqualTo(Errno.ECONNRESET);
    assertThat(wire).isEmpty();
  }
}
