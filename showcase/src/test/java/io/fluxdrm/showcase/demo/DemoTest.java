package io.fluxdrm.showcase.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Demo} as a library, in one JVM: every step of the story gives its answer on pools of
 * several sizes and for seeded variants, each step reaches the sink as it happens, the DVM's and
 * the scheduler's invariants hold at the end (a broken one is a difference), and the job manager's
 * transcript replays in the {@code demo} world only when recorded there.
 */
@Timeout(120)
class DemoTest {

  record Run(Demo.Result result, List<Step> seen, String transcript, String dvmTranscript) {
    Map<String, Step> byName() {
      return result.steps().stream().collect(Collectors.toMap(Step::name, Function.identity()));
    }
  }

  static Run run(ResourceSet pool, OptionalLong seed) {
    StringWriter t = new StringWriter();
    StringWriter d = new StringWriter();
    List<Step> seen = new ArrayList<>();
    int slots = (int) pool.resources(pool.ranks().first(), "core").count();
    Demo.Result r =
        Demo.run(
            new Demo.Config(
                pool,
                SchedulerOptions.defaults(),
                null,
                t,
                d,
                Scenario.of(pool.nnodes(), slots, seed, 1),
                Demo.Mode.IN_PROCESS,
                null,
                false),
            seen::add);
    return new Run(r, seen, t.toString(), d.toString());
  }

  static ResourceSet pool(int nodes, String cores) {
    return DemoReplayProvider.pool(Hostlist.parse("n[0-" + (nodes - 1) + "]"), IdSet.parse(cores));
  }

  /**
   * Pool size and cores, then A's and B's start, A's grown nodes, the node whose daemon fails, B's
   * grant and B's nodes at the end.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          8  | 0-3  | n[0-1] | n[2-5]  | n6        | n7  | n6:4,n7:4            | n[2-7]
          13 | 0-7  | n[0-2] | n[3-8]  | n9        | n12 | n9:8,n10:8,n11:8,n12:8 | n[3-12]
          16 | 0-31 | n[0-3] | n[4-11] | n[12-13]  | n15 | n12:32,n13:32,n14:32 | n[4-14]
          33 | 0-1  | n[0-7] | n[8-23] | n[24-27]  | n32 | n24:2,n25:2,n26:2,n27:2,n28:2,n29:2 | n[8-29]
          """)
  void run_poolSizes_everyStepAsTheStory(
      int nodes,
      String cores,
      String a,
      String b,
      String grown,
      String failing,
      String bGrant,
      String bEnd) {
    Run r = run(pool(nodes, cores), OptionalLong.empty());
    assertThat(r.result().differences()).isEmpty();
    assertThat(r.result().ok()).isTrue();
    assertThat(r.seen()).as("every step handed to the sink").isEqualTo(r.result().steps());
    assertThat(r.result().steps()).extracting(Step::name).isEqualTo(Demo.STEPS);
    assertThat(r.result().steps()).allMatch(Step::ok);
    Map<String, Step> s = r.byName();
    assertThat(s.get("a-start").detail()).startsWith(a + " ");
    assertThat(s.get("b-start").detail()).startsWith(b + " ");
    assertThat(s.get("a-held").detail()).contains("held at map (WAITING_FOR_DAEMONS)");
    assertThat(s.get("a-landed").detail()).endsWith(" on " + grown);
    assertThat(s.get("a-grow-fail").action()).contains(failing);
    assertThat(s.get("a-rollback").detail())
        .contains("PMIX_JOB_TERM_STATUS=PMIX_ERR_PROC_FAILED_TO_START");
    assertThat(s.get("a-handback").detail()).startsWith(failing + " ");
    assertThat(s.get("a-departed").detail())
        .startsWith(grown + " ")
        .endsWith("after their daemons left (shrink campaign over)");
    assertThat(s.get("b-granted").detail()).startsWith(bGrant + " ");
    assertThat(s.get("a-deny").action()).contains("+" + (nodes + 1) + " node(s)");
    assertThat(s.get("b-end").detail()).startsWith(bEnd + " ");
    assertThat(s.get("pool").freeNodes()).isEqualTo(nodes);
    assertThat(r.result().steps()).allMatch(st -> st.poolNodes() == nodes);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void run_seeded_storyVariesAndEveryStepAsTold(long seed) {
    Run r = run(pool(16, "0-7"), OptionalLong.of(seed));
    assertThat(r.result().differences()).isEmpty();
    Scenario sc = Scenario.of(16, 8, OptionalLong.of(seed), 1);
    Map<String, Step> s = r.byName();
    assertThat(s.get("a-grow").action()).contains("+" + sc.grow() + " node(s)");
    assertThat(s.get("b-grow").action()).contains("+" + sc.bAsk() + " node(s)");
    assertThat(s.get("a-deny").action()).contains("+" + sc.deny() + " node(s)");
    assertThat(s.get("s-instantiate").action()).contains(sc.sessionProcs() + " proc(s)");
    assertThat(DvmSide.hostsOf(s.get("b-granted").detail().split(" ")[0])).hasSize(sc.bAsk());
  }

  private static ReplayResult replay(String transcript) {
    ReplayProvider p = new DemoReplayProvider();
    return Replay.run(
        Transcript.parse(transcript.lines().toList(), "demo"), p.factory(), p.normalisations());
  }

  @Test
  void transcript_defaultPool_replaysSameInDemoWorld() {
    Run r = run(DemoReplayProvider.POOL, OptionalLong.empty());
    assertThat(r.result().ok()).as("%s", r.result().differences()).isTrue();
    ReplayResult rr = replay(r.transcript());
    assertThat(rr.same()).as(rr.unifiedDiff()).isTrue();
    // reallocs of a-grow, a-grow-fail, the hand-back, b-grow, a-release and a-deny; two releases
    assertThat(rr.requests()).isEqualTo(8);
    // the DVM's endpoint: the application's requests and the bridge's upcalls, with answers
    assertThat(r.dvmTranscript())
        .contains("\"topic\":\"dvm.alloc\"")
        .contains("\"topic\":\"dvm.spawn\"")
        .contains("\"topic\":\"dvm.session-control\"")
        .contains("\"topic\":\"dvm-sched.allocate\"")
        .contains("\"topic\":\"dvm-sched.session-control\"");
  }

  @Test
  void transcript_otherPool_differsInDemoWorld() {
    Run r = run(pool(8, "0-3"), OptionalLong.empty());
    assertThat(r.result().ok()).isTrue();
    assertThat(replay(r.transcript()).same()).isFalse();
  }
}
