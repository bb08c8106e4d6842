package io.fluxdrm.dvm.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real processes: stopped and continued as /proc shows, killed with the right status. */
class LocalExecutorIT {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private Reactor reactor;
  private RecordingListener heard;
  private LocalExecutor exec;

  @BeforeEach
  void start() {
    reactor = Reactor.start("exec-it");
    heard = new RecordingListener();
    exec = new LocalExecutor(reactor, DaemonPolicy.immediate(), heard);
  }

  @AfterEach
  void stop() {
    onLoop(
        () -> {
          exec.close();
          return null;
        });
    reactor.close();
  }

  private <T> T onLoop(Supplier<T> s) {
    CompletableFuture<T> f = new CompletableFuture<>();
    reactor.execute(
        () -> {
          try {
            f.complete(s.get());
          } catch (RuntimeException e) {
            f.completeExceptionally(e);
          }
        });
    try {
      return f.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static List<ProcSpec> sleepers(String nspace, int n) {
    List<ProcSpec> out = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      out.add(
          new ProcSpec(
              "node" + r,
              r,
              List.of("/bin/sleep", "300"),
              ProcSpec.standardEnv(nspace, r, "node" + r)));
    }
    return out;
  }

  /** The state letter of /proc/PID/stat (R, S, T, Z, ...), or "gone". */
  static String state(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.UTF_8);
      // the command name is in parentheses and may hold spaces: the state follows the last ')'
      return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch (IOException e) {
      return "gone";
    }
  }

  @Test
  void signal_stopContTerm_procStateFollowsAndStatusIs143() throws Exception {
    onLoop(
        () -> {
          exec.launch("ns1", sleepers("ns1", 2));
          return null;
        });
    assertThat(heard.next()).isEqualTo("launched ns1");
    Map<Long, Long> pids = onLoop(() -> exec.livePids().get("ns1"));
    assertThat(pids).containsOnlyKeys(0L, 1L);

    onLoop(
        () -> {
          exec.signal("ns1", Signals.STOP);
          return null;
        });
    for (long pid : pids.values()) {
      Wait.until(LIMIT, () -> state(pid).equals("T"));
    }
    onLoop(
        () -> {
          exec.signal("ns1", Signals.CONT);
          return null;
        });
    for (long pid : pids.values()) {
      Wait.until(LIMIT, () -> state(pid).equals("S") || state(pid).equals("R"));
    }
    onLoop(
        () -> {
          exec.signal("ns1", 15);
          return null;
        });
    List<String> exits = List.of(heard.next(), heard.next());
    assertThat(exits).containsExactlyInAnyOrder("exited ns1 0 143 sig15", "exited ns1 1 143 sig15");
    for (long pid : pids.values()) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
    assertThat(onLoop(exec::livePids)).isEmpty();
  }

  @Test
  void signal_stopThenContAtOnce_endsRunningNotStopped() throws Exception {
    onLoop(
        () -> {
          exec.launch("ns2", sleepers("ns2", 1));
          exec.signal("ns2", Signals.STOP);
          exec.signal("ns2", Signals.CONT);
          exec.signal("ns2", Signals.STOP);
          exec.signal("ns2", Signals.CONT);
          exec.signal("ns2", 10);
          return null;
        });
    assertThat(heard.next()).isEqualTo("launched ns2");
    // SIGUSR1 came last, after every STOP and CONT in order: it ends a running sleep with 138
    assertThat(heard.next()).isEqualTo("exited ns2 0 138 sig10");
  }

  @Test
  void launch_envNamesJobRankAndNode_exitCodesReported() throws Exception {
    List<ProcSpec> procs = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      procs.add(
          new ProcSpec(
              "n" + r,
              r,
              List.of(
                  "/bin/sh",
                  "-c",
                  "test \"$PMIX_NAMESPACE\" = ns3 && test \"$FLUXDRM_DVM_NODE\" = n$PMIX_RANK"
                      + " && exit $((10 + PMIX_RANK))"),
              ProcSpec.standardEnv("ns3", r, "n" + r)));
    }
    onLoop(
        () -> {
          exec.launch("ns3", procs);
          return null;
        });
    assertThat(heard.next()).isEqualTo("launched ns3");
    assertThat(List.of(heard.next(), heard.next()))
        .containsExactlyInAnyOrder("exited ns3 0 10", "exited ns3 1 11");
  }

  @Test
  void launch_missingExecutable_failsAndLeavesNothingRunning() throws Exception {
    List<ProcSpec> procs = new ArrayList<>(sleepers("ns4", 1));
    procs.add(new ProcSpec("node1", 1, List.of("/nonexistent/app"), Map.of()));
    onLoop(
        () -> {
          exec.launch("ns4", procs);
          return null;
        });
    assertThat(heard.next()).startsWith("launch-failed ns4: job ns4 rank 1 on node1:");
    assertThat(onLoop(exec::livePids)).isEmpty();
    assertThat(onLoop(() -> exec.liveRanks("ns4"))).isEmpty();
  }

  @Test
  void close_killsEveryLiveProc() throws Exception {
    onLoop(
        () -> {
          exec.launch("ns5", sleepers("ns5", 2));
          return null;
        });
    assertThat(heard.next()).isEqualTo("launched ns5");
    Map<Long, Long> pids = onLoop(() -> exec.livePids().get("ns5"));
    onLoop(
        () -> {
          exec.signal("ns5", Signals.STOP);
          exec.close();
          return null;
        });
    for (long pid : pids.values()) {
      Wait.until(LIMIT, () -> state(pid).equals("gone") || state(pid).equals("Z"));
    }
  }

  /** A program name PATH does not have is a launch failure, as before the lifeline (D498). */
  @Test
  void launch_unknownProgramName_failsAsALaunch() throws Exception {
    List<ProcSpec> procs =
        List.of(new ProcSpec("node0", 0, List.of("fluxdrm-no-such-program"), Map.of()));
    onLoop(
        () -> {
          exec.launch("ns6", procs);
          return null;
        });
    assertThat(heard.next())
        .isEqualTo(
            "launch-failed ns6: job ns6 rank 0 on node0: cannot run \"fluxdrm-no-such-program\":"
                + " no executable of that name on PATH");
  }

  /**
   * Closing the executor kills what a proc started too: its process group, through the lifeline
   * (decision D498); the proc's pid is the application's, in a group of its own.
   */
  @Test
  void close_killsTheProcsChildrenToo() throws Exception {
    List<ProcSpec> procs =
        List.of(
            new ProcSpec(
                "node0",
                0,
                List.of("/bin/sh", "-c", "/bin/sleep 300 & wait"),
                ProcSpec.standardEnv("ns7", 0, "node0")));
    onLoop(
        () -> {
          exec.launch("ns7", procs);
          return null;
        });
    assertThat(heard.next()).isEqualTo("launched ns7");
    long app = onLoop(() -> exec.livePids().get("ns7").get(0L));
    List<ProcessHandle> kids = new ArrayList<>();
    Wait.until(
        LIMIT,
        () -> {
          kids.clear();
          ProcessHandle.of(app).ifPresent(h -> h.children().forEach(kids::add));
          return !kids.isEmpty();
        });
    String stat = Files.readString(Path.of("/proc/" + app + "/stat"), StandardCharsets.UTF_8);
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    assertThat(f[2]).as("the proc leads its process group").isEqualTo(Long.toString(app));
    onLoop(
        () -> {
          exec.close();
          return null;
        });
    for (ProcessHandle k : kids) {
      k.onExit().get(LIMIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void daemons_latencyAndInjectedFailure_reportedAfterwards() throws Exception {
    LocalExecutor slow =
        new LocalExecutor(
            reactor,
            DaemonPolicy.immediate()
                .withLatency(Duration.ofMillis(20), Duration.ZERO)
                .failing(java.util.Set.of("bad")),
            heard);
    onLoop(
        () -> {
          slow.startDaemon("good");
          slow.startDaemon("bad");
          slow.stopDaemon("other");
          return null;
        });
    assertThat(List.of(heard.next(), heard.next(), heard.next()))
        .containsExactlyInAnyOrder("up good", "failed bad", "left other");
    onLoop(
        () -> {
          slow.close();
          return null;
        });
  }
}
