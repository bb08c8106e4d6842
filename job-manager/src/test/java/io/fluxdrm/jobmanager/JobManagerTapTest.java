package io.fluxdrm.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job manager started on a handle that already records (the tap of {@code fluxdrm bridge
 * --transcript}) leaves that tap in place (D517): it recorded nothing before, the job manager's own
 * tap having replaced it.
 */
class JobManagerTapTest {
  @Test
  void start_onATappedHandle_theTapStillSeesEveryMessage() {
    ManualEventLoop loop = new ManualEventLoop();
    Hub hub = new Hub(loop);
    FluxHandle h = hub.attach(Credentials.owner(0));
    List<String> seen = new ArrayList<>();
    h.tap((d, m) -> seen.add(d + " " + m.topic()));
    List<String> jmSeen = new ArrayList<>();
    JobManager jm = JobManager.inMemory(() -> 1000.0);
    jm.tap((d, m) -> jmSeen.add(d + " " + m.topic()));
    jm.start(h);
    loop.runPending();
    assertThat(seen).contains(MessageTap.Direction.OUT + " service.add");
    assertThat(jmSeen).isEqualTo(seen);
  }
}
