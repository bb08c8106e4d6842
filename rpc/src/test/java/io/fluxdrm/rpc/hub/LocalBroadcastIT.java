package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 11: Unix-socket subscribers that stop reading are disconnected in the middle of
 * a publish; the publisher still gets every response and the others every event.
 */
@Timeout(120)
class LocalBroadcastIT {
  private static final Duration T = Duration.ofSeconds(30);

  @TempDir Path tmp;

  @Test
  void subscribersStopReadingDuringPublish_publisherAnsweredEveryTime() throws Exception {
    Reactor reactor = Reactor.start("broadcast-it");
    Hub hub = new Hub(reactor);
    LocalHubListener listener =
        LocalHubListener.start(
            hub,
            reactor,
            tmp.resolve("run"),
            LocalHubListener.Options.defaults().withLimits(1 << 20, 256 * 1024));
    List<RawPeer> stalled = new ArrayList<>();
    try (FluxHandle publisher = FluxHandle.connect(reactor, listener.uri(), T);
        FluxHandle reader = FluxHandle.connect(reactor, listener.uri(), T)) {
      java.util.concurrent.CountDownLatch seen = new java.util.concurrent.CountDownLatch(201);
      reader.subscribe("big", ev -> seen.countDown()).get(30, TimeUnit.SECONDS);
      // three subscribers that never read their events: at least one is not the last one the
      // broadcast visits, so its disconnection happens while the broadcast iterates
      for (int i = 0; i < 3; i++) {
        RawPeer s = RawPeer.connect(listener.socket());
        stalled.add(s);
        Message sub =
            Message.request("event.subscribe", Json.object().put("topic", "big")).withMatchtag(1);
        assertThat(s.write(LocalFraming.frame(sub))).isTrue();
        assertThat(s.read(T)).as("subscribe response").isNotNull();
      }
      String payload = Base64.getEncoder().encodeToString(new byte[48 * 1024]);
      // far more than the queue limit and the socket buffers of a stalled subscriber
      for (int i = 0; i < 200; i++) {
        Message m =
            publisher
                .rpc("event.pub", Json.object().put("topic", "big").put("payload", payload), T)
                .get(60, TimeUnit.SECONDS);
        assertThat(m.errnum()).as("publish %d", i).isZero();
      }
      for (RawPeer s : stalled) {
        assertThat(s.closedWithin(T)).as("a stalled subscriber is closed").isTrue();
      }
      assertThat(
              publisher
                  .rpc("event.pub", Json.object().put("topic", "big"), T)
                  .get(60, TimeUnit.SECONDS)
                  .errnum())
          .isZero();
      assertThat(seen.await(60, TimeUnit.SECONDS)).as("the reading subscriber got all").isTrue();
    } finally {
      for (RawPeer s : stalled) {
        s.close();
      }
      listener.close();
      reactor.close();
    }
  }
}
