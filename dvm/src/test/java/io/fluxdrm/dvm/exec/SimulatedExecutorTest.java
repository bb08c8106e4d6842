package io.fluxdrm.dvm.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimulatedExecutorTest {
  private final ManualEventLoop loop = new ManualEventLoop();
  private final RecordingListener heard = new RecordingListener();

  private static List<ProcSpec> procs(String ns, int n) {
    List<ProcSpec> out = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      out.add(new ProcSpec("n" + r, r, List.of("/bin/sleep", "300"), Map.of()));
    }
    return out;
  }

  private List<String> drain() {
    loop.runPending();
    List<String> out = new ArrayList<>();
    heard.events.drainTo(out);
    return out;
  }

  @Test
  void launch_reportsLaunchedOnNextTurnNotInsideTheCall() {
    SimulatedExecutor ex = new SimulatedExecutor(loop, DaemonPolicy.immediate(), heard);
    ex.launch("j", procs("j", 2));
    assertThat(heard.events).isEmpty();
    assertThat(drain()).containsExactly("launched j");
    assertThat(ex.liveRanks("j")).containsExactly(0L, 1L);
  }

  @Test
  void signal_stopThenTerm_pendingUntilCont() {
    SimulatedExecutor ex = new SimulatedExecutor(loop, DaemonPolicy.immediate(), heard);
    ex.launch("j", procs("j", 2));
    drain();
    ex.signal("j", Signals.STOP);
    assertThat(ex.isStopped("j", 0)).isTrue();
    ex.signal("j", Signals.TERM);
    assertThat(drain()).isEmpty();
    ex.signal("j", Signals.CONT);
    assertThat(drain()).containsExactly("exited j 0 143 sig15", "exited j 1 143 sig15");
    assertThat(ex.liveJobs()).isEmpty();
    assertThat(ex.sent())
        .extracting(SimulatedExecutor.Sent::signo)
        .containsExactly(Signals.STOP, Signals.TERM, Signals.CONT);
  }

  @Test
  void signal_killEndsStoppedProcAtOnce_ignoredSignalsChangeNothing() {
    SimulatedExecutor ex = new SimulatedExecutor(loop, DaemonPolicy.immediate(), heard);
    ex.launch("j", procs("j", 1));
    drain();
    ex.signal("j", 17);
    ex.signal("j", 28);
    assertThat(drain()).isEmpty();
    ex.signal("j", Signals.STOP);
    ex.signal("j", Signals.KILL);
    assertThat(drain()).containsExactly("exited j 0 137 sig9");
  }

  @Test
  void exit_injectedStatusReportedOnce() {
    SimulatedExecutor ex = new SimulatedExecutor(loop, DaemonPolicy.immediate(), heard);
    ex.launch("j", procs("j", 1));
    drain();
    assertThat(ex.exit("j", 0, 3)).isTrue();
    assertThat(ex.exit("j", 0, 4)).isFalse();
    assertThat(drain()).containsExactly("exited j 0 3");
  }

  @Test
  void launch_injectedFailure_nothingLive() {
    SimulatedExecutor ex =
        new SimulatedExecutor(loop, DaemonPolicy.immediate(), heard, p -> p.host().equals("n1"));
    ex.launch("j", procs("j", 2));
    assertThat(drain())
        .containsExactly(
            "launch-failed j: job j rank 1 on n1: /bin/sleep: cannot start (injected)");
    assertThat(ex.liveJobs()).isEmpty();
  }

  @Test
  void daemons_latencyFollowsTheLoopClock_failuresInjected() {
    SimulatedExecutor ex =
        new SimulatedExecutor(
            loop,
            DaemonPolicy.immediate()
                .withLatency(Duration.ofSeconds(2), Duration.ofSeconds(1))
                .failing(Set.of("bad")),
            heard);
    ex.startDaemon("a");
    ex.startDaemon("bad");
    ex.stopDaemon("c");
    assertThat(drain()).isEmpty();
    loop.advance(Duration.ofSeconds(1));
    assertThat(drain()).containsExactly("left c");
    loop.advance(Duration.ofSeconds(1));
    assertThat(drain()).containsExactly("up a", "failed bad");
  }

  @Test
  void close_cancelsPendingDaemonReports() {
    SimulatedExecutor ex =
        new SimulatedExecutor(
            loop,
            DaemonPolicy.immediate().withLatency(Duration.ofSeconds(1), Duration.ZERO),
            heard);
    ex.startDaemon("a");
    ex.close();
    loop.advance(Duration.ofSeconds(2));
    assertThat(drain()).isEmpty();
  }
}
