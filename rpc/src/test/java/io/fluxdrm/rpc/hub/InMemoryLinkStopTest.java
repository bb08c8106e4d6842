package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The in-memory link while its reactor stops: a process going down must not log failures. */
class InMemoryLinkStopTest {

  @Test
  void send_onTheLoopAfterItWasToldToStop_droppedWithoutAnError() {
    Reactor r = Reactor.start("in-memory-stop-test");
    AtomicReference<FluxHandle> handle = new AtomicReference<>();
    assertThat(
            r.runAndWait(
                () -> handle.set(new Hub(r).attach(Credentials.owner(1000))),
                Duration.ofSeconds(10)))
        .isTrue();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> ran = new AtomicReference<>(false);
    boolean inTime =
        r.runAndWait(
            () -> {
              r.close();
              thrown.set(
                  catchThrowable(() -> handle.get().sendUntracked("demo.echo", Json.object())));
              ran.set(true);
            },
            Duration.ofSeconds(10));
    r.close();
    assertThat(inTime).isTrue();
    assertThat(ran.get()).as("the task ran before the loop stopped").isTrue();
    assertThat(thrown.get()).as("a send on a stopping loop").isNull();
  }
}
