package io.fluxdrm.sched.service;

import static io.fluxdrm.sched.service.SchedFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The standalone scheduler's link to its job manager when the job manager goes away: the hub's
 * {@code service.removed} event makes it say hello to the next one at once (D121).
 */
@Timeout(10)
class JobManagerLinkServiceTest {
  /** The fixture's shortest hello back-off. */
  private static final Duration RETRY_MIN = Duration.ofMillis(100);

  private SchedFixture fx;

  @AfterEach
  void invariants() {
    if (fx != null && fx.svc.core() != null) {
      fx.checkInvariants();
    }
  }

  private SchedulerFacingJobManager unregistered() {
    return new SchedulerFacingJobManager(fx.hub.attach(Credentials.owner(SchedFixture.OWNER)));
  }

  @ParameterizedTest(name = "first job manager sent requests: {0}")
  @ValueSource(booleans = {false, true})
  void jobManager_replacedWithinMilliseconds_newOneGetsHello(boolean sentRequests) {
    fx = new SchedFixture(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    CompletableFuture<Message> a1 = null;
    if (sentRequests) {
      a1 = jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 2));
      jm.alloc(2, SchedulerFacingJobManager.nodes(2, 1, 2));
      fx.settle();
      assertThat(fx.svc.core().pendingAllocs()).hasSize(1);
    }
    SchedulerFacingJobManager jm2 = unregistered();
    if (sentRequests) {
      jm2.runningJob(1, null);
    }
    long t0 = fx.loop.nanoTime();
    jm.h.close();
    CompletableFuture<Void> reg = jm2.register();
    // the loop's clock when the new job manager was taken up (its registration answered), read
    // where it happens: the clock after the advance below would say RETRY_MIN whatever happened
    long[] upAt = {-1};
    reg.thenRun(() -> upAt[0] = fx.loop.nanoTime());
    fx.settle();
    fx.advance(RETRY_MIN);
    assertThat(reg).isCompleted();
    assertThat(upAt[0]).as("taken up on the loop").isNotNegative();
    assertThat(java.time.Duration.ofNanos(upAt[0] - t0)).isLessThanOrEqualTo(RETRY_MIN);
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm2.hellos).isEqualTo(1);
    assertThat(jm2.readies).hasSize(1);
    assertThat(fx.svc.core().pendingAllocs()).isEmpty();
    if (sentRequests) {
      assertThat(fx.svc.core().pool().allocated().summary())
          .isEqualTo(ResourceSet.fromJson(answer(a1).get("R")).summary());
    } else {
      assertThat(fx.svc.core().pool().allocated().isEmpty()).isTrue();
    }
    fx.checkInvariants();
    CompletableFuture<Message> b = jm2.alloc(3, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(answer(b).get("type").asInt()).isZero();
  }

  /**
   * Issue 29, finding 10 (the stall of {@code demo --processes --crash}): a scheduler restarted
   * before its job manager backs its hello off up to its cap, and a job manager that registered
   * meanwhile waited for the next step. The hub's {@code service.added} now sends the hello at
   * once: no time passes on the loop between the registration and the link coming up (D499).
   */
  @Test
  void jobManager_registersAfterTheScheduler_helloAtOnceNotAfterTheBackOff() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    fx.start();
    fx.advance(Duration.ofSeconds(5)); // hellos answered ENOSYS: the back-off is at its cap
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    long t0 = fx.loop.nanoTime();
    SchedulerFacingJobManager jm = fx.jobManager(); // registers, then settles: no time passes
    assertThat(fx.loop.nanoTime()).isEqualTo(t0);
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm.hellos).isEqualTo(1);
    assertThat(jm.readies).hasSize(1);
  }

  /** Another owner's service, or a guest's, registering: the link waits for its back-off. */
  @Test
  void serviceAdded_otherServices_noHelloBeforeTheBackOff() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    fx.start();
    fx.advance(Duration.ofSeconds(5));
    FluxHandle other = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    other.register(Service.builder("job-manager-helper").build());
    FluxHandle guest = fx.user(1000);
    guest.register(Service.builder("1000-job-manager").build());
    fx.settle();
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
  }

  @Test
  void jobManager_leavesDuringHello_helloSentAgainToTheNextOne() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    List<ServiceRequest> held = new ArrayList<>();
    FluxHandle silent = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    silent.register(Service.builder("job-manager").onStreaming("sched-hello", held::add).build());
    fx.settle();
    fx.start();
    assertThat(held).hasSize(1);
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.HELLO);
    silent.close();
    SchedulerFacingJobManager jm2 = unregistered();
    jm2.register();
    fx.settle();
    fx.advance(RETRY_MIN);
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm2.hellos).isEqualTo(1);
    assertThat(jm2.readies).hasSize(1);
  }

  @Test
  void jobManager_leavesAndNoneComes_offlineAndHelloRetriedUntilOneRegisters() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    jm.h.close();
    fx.settle();
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    fx.advance(Duration.ofSeconds(5));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    SchedulerFacingJobManager jm2 = fx.jobManager();
    fx.advance(Duration.ofSeconds(1));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm2.hellos).isEqualTo(1);
  }

  @Test
  void serviceRemoved_otherServices_linkUnchangedAndNoSecondHello() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    FluxHandle guest = fx.user(1000);
    guest.register(Service.builder("1000-tool").build());
    FluxHandle other = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    other.register(Service.builder("job-manager-helper").build());
    fx.settle();
    guest.close();
    other.close();
    fx.settle();
    fx.advance(Duration.ofSeconds(5));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm.hellos).isEqualTo(1);
    assertThat(jm.readies).hasSize(1);
  }
}
