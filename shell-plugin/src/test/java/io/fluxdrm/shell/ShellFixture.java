package io.fluxdrm.shell;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One job shell on an in-memory hub driven by a {@link ManualEventLoop}: a fake job manager
 * (instance owner), the plugin of job {@link #JOB} of {@link #ALICE} and an application handle.
 */
final class ShellFixture {
  static final int OWNER = 100;
  static final int ALICE = 1000;
  static final int BOB = 1001;
  static final long JOB = 235012382949188L;

  /** Eight nodes {@code node[0-7]} of four cores. */
  static final ResourceSet POOL =
      ResourceSet.of(
          IdSet.range(0, 7), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("node[0-7]"));

  final ManualEventLoop loop = new ManualEventLoop();
  private int nextPeer = 1;
  final Hub hub = new Hub(loop, () -> "peer-" + nextPeer++);
  final ShellFacingJobManager jm;
  final ShellPlugin plugin;
  final FluxHandle app;
  private int lastAppTag;

  /** The job holds {@code initial} (ranks of the pool); the job manager serves realloc or not. */
  ShellFixture(String initial, boolean withRealloc) {
    ResourceSet r = ranks(initial);
    jm = new ShellFacingJobManager(JOB, r, withRealloc);
    CompletableFuture<Void> up = hub.attach(Credentials.owner(OWNER)).register(jm.service());
    plugin = ShellPlugin.create(JOB, ALICE, r);
    CompletableFuture<Void> sh = plugin.start(hub.attach(Credentials.user(ALICE)));
    app = as(ALICE);
    app.tap(this::appTapped);
    settle();
    assertThat(up).isCompleted();
    assertThat(sh).isCompleted();
  }

  ShellFixture(String initial) {
    this(initial, true);
  }

  private void appTapped(MessageTap.Direction d, Message m) {
    if (d == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
      lastAppTag = m.matchtag();
    }
  }

  /** The matchtag of the application's last request. */
  int lastAppTag() {
    return lastAppTag;
  }

  static ResourceSet ranks(String idset) {
    return POOL.copyRanks(IdSet.parse(idset));
  }

  FluxHandle as(int uid) {
    return hub.attach(Credentials.user(uid));
  }

  void settle() {
    loop.runPending();
  }

  /** Sends {@code <shell service>.<method>} from the application and runs the loop. */
  CompletableFuture<Message> call(FluxHandle h, String method, Object payload) {
    CompletableFuture<Message> f = h.rpc(plugin.serviceName() + "." + method, payload);
    settle();
    return f;
  }

  CompletableFuture<Message> call(String method, Object payload) {
    return call(app, method, payload);
  }

  static ObjectNode spec(int nodes) {
    ObjectNode s = Json.object().put("version", 1);
    s.putArray("resources")
        .addObject()
        .put("type", "node")
        .put("count", nodes)
        .putArray("with")
        .addObject()
        .put("type", "slot")
        .put("count", 1)
        .put("label", "task")
        .putArray("with")
        .addObject()
        .put("type", "core")
        .put("count", 1);
    return s;
  }

  static ObjectNode answer(CompletableFuture<Message> f) {
    assertThat(f).as("answered").isCompleted();
    return f.join().json();
  }

  /**
   * The exception a future failed with (a {@link io.fluxdrm.rpc.RpcException} or {@link
   * ShellException}).
   */
  static Throwable error(CompletableFuture<?> f) {
    assertThat(f).as("answered").isCompletedExceptionally();
    try {
      f.join();
    } catch (CompletionException e) {
      return e.getCause();
    }
    throw new AssertionError("not failed");
  }
}
