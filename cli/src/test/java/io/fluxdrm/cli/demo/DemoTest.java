package io.fluxdrm.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.cli.replay.DemoReplayProvider;
import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Demo} as a library: the story scales with the pool, hands every step to its sink as it
 * happens, and its transcript replays in the {@code demo} world only when recorded there.
 */
@Timeout(60)
class DemoTest {

  private record Run(Demo.Result result, List<Step> seen, String transcript) {
    Map<String, Step> byName() {
      return result.steps().stream().collect(Collectors.toMap(Step::name, Function.identity()));
    }
  }

  private static Run run(ResourceSet pool) {
    StringWriter t = new StringWriter();
    List<Step> seen = new ArrayList<>();
    Demo.Result r =
        Demo.run(new Demo.Config(pool, SchedulerOptions.defaults(), null, t), seen::add);
    return new Run(r, seen, t.toString());
  }

  private static ResourceSet pool(int nodes, String cores) {
    return DemoReplayProvider.pool(Hostlist.parse("n[0-" + (nodes - 1) + "]"), IdSet.parse(cores));
  }

  /** Pool size, cores, then A's and B's start, the grow's size, and B's nodes at the end. */
  @ParameterizedTest
  @CsvSource({
    "4,  0,    n0,      n[1-2],  1, n[1-3]",
    "5,  0-1,  n0,      n[1-3],  1, n[1-4]",
    "8,  0-3,  n[0-1],  n[2-5],  2, n[2-7]",
    "13, 0-7,  n[0-2],  n[3-9],  3, n[3-12]",
    "33, 0-31, n[0-7],  n[8-24], 8, n[8-32]"
  })
  void run_poolSizes_everyStepAsTheStoryInQuarters(
      int nodes, String cores, String a, String b, int q, String bEnd) {
    Run r = run(pool(nodes, cores));
    assertThat(r.result().differences()).isEmpty();
    assertThat(r.result().ok()).isTrue();
    assertThat(r.seen()).as("every step handed to the sink").isEqualTo(r.result().steps());
    Map<String, Step> s = r.byName();
    assertThat(s.get("a-start").detail()).startsWith(a + " ");
    assertThat(s.get("b-start").detail()).startsWith(b + " ");
    assertThat(s.get("a-grow").action()).isEqualTo("PMIX_ALLOC_NEW +" + q + " node(s)");
    assertThat(s.get("a-grow").freeNodes()).isZero();
    assertThat(s.get("a-huge").action()).isEqualTo("PMIX_ALLOC_NEW +" + (nodes + 1) + " node(s)");
    assertThat(s.get("b-end").detail()).startsWith(bEnd + " ");
    assertThat(s.get("pool").freeNodes()).isEqualTo(nodes);
    assertThat(r.result().steps()).allMatch(st -> st.poolNodes() == nodes);
  }

  private static ReplayResult replay(String transcript) {
    ReplayProvider p = new DemoReplayProvider();
    return Replay.run(
        Transcript.parse(transcript.lines().toList(), "demo"), p.factory(), p.normalisations());
  }

  @Test
  void transcript_defaultPool_replaysSameInDemoWorld() {
    Run r = run(DemoReplayProvider.POOL);
    assertThat(r.result().ok()).isTrue();
    ReplayResult rr = replay(r.transcript());
    assertThat(rr.same()).as(rr.unifiedDiff()).isTrue();
    // five reallocs, one release, one realloc_cancel; the cancel gets no answer of its own
    assertThat(rr.requests()).isEqualTo(7);
    assertThat(rr.responses()).isEqualTo(6);
  }

  @Test
  void transcript_otherPool_differsInDemoWorld() {
    Run r = run(pool(8, "0-3"));
    assertThat(r.result().ok()).isTrue();
    assertThat(replay(r.transcript()).same()).isFalse();
  }
}
