package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RFC 27 ANNOTATE of pending allocs ({@link SchedulerOptions#annotatePending()}), as flux-core's
 * t2206 expects it with sched-simple's debug bit 2: on one node with two cores and five one-core
 * jobs, the pending ones carry {@code reason_pending} and {@code jobs_ahead} 0, 1, 2; when a
 * running job is freed the first pending job runs and its SUCCESS sets both to null. Invariants are
 * checked after every step.
 */
@Timeout(10)
class SchedAnnotateServiceTest {
  private SchedFixture fx;
  private final List<List<ObjectNode>> responses = new ArrayList<>();

  private SchedulerFacingJobManager start(boolean annotate) {
    fx =
        new SchedFixture(
            SchedFixture.pool(1, 2), SchedulerOptions.defaults().withAnnotatePending(annotate));
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    return jm;
  }

  private void alloc(SchedulerFacingJobManager jm, long id) {
    List<ObjectNode> r = new ArrayList<>();
    responses.add(r);
    jm.allocKeepingAll(id, SchedulerFacingJobManager.slots(1, 1, 0), r);
    step();
  }

  private void step() {
    fx.settle();
    fx.checkInvariants();
  }

  /** The {@code annotations} of each response of job {@code id} so far, as JSON text. */
  private List<String> annotations(long id) {
    List<String> out = new ArrayList<>();
    for (ObjectNode r : responses.get((int) id - 1)) {
      out.add(r.get("type").asInt() + " " + (r.has("annotations") ? r.get("annotations") : "-"));
    }
    return out;
  }

  private static String pending(long ahead) {
    return "1 {\"sched\":{\"reason_pending\":\"insufficient resources\",\"jobs_ahead\":"
        + ahead
        + "}}";
  }

  @Test
  void t2206_fiveJobsTwoCores_pendingAnnotatedThenClearedOnSuccess() {
    SchedulerFacingJobManager jm = start(true);
    for (long id = 1; id <= 5; id++) {
      alloc(jm, id);
    }
    assertThat(annotations(1))
        .containsExactly("0 {\"sched\":{\"resource_summary\":\"rank0/core0\"}}");
    assertThat(annotations(2))
        .containsExactly("0 {\"sched\":{\"resource_summary\":\"rank0/core1\"}}");
    assertThat(annotations(3)).containsExactly(pending(0));
    assertThat(annotations(4)).containsExactly(pending(1));
    assertThat(annotations(5)).containsExactly(pending(2));
    // the job manager frees job 2 (canceled while running): job 3 runs, the others move up
    ObjectNode granted2 = responses.get(1).get(0);
    jm.free(2, ResourceSet.fromJson(granted2.get("R")), true);
    step();
    assertThat(annotations(3))
        .containsExactly(
            pending(0),
            "0 {\"sched\":{\"resource_summary\":\"rank0/core1\",\"reason_pending\":null,"
                + "\"jobs_ahead\":null}}");
    assertThat(annotations(4)).containsExactly(pending(1), pending(0));
    assertThat(annotations(5)).containsExactly(pending(2), pending(1));
  }

  @Test
  void annotate_valueUnchanged_notSentAgain() {
    SchedulerFacingJobManager jm = start(true);
    for (long id = 1; id <= 4; id++) {
      alloc(jm, id);
    }
    // a cancel of the last pending job changes nobody's place: nothing is sent to job 3
    jm.cancel(4);
    step();
    assertThat(annotations(3)).containsExactly(pending(0));
    assertThat(annotations(4)).containsExactly(pending(1), "3 -");
  }

  static Stream<Arguments> priorities() {
    return Stream.of(
        Arguments.of("boost behind the head", 4L, List.of(pending(1), pending(0))),
        Arguments.of("no boost", 0L, List.of(pending(1))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("priorities")
  void prioritize_pendingJob_jobsAheadFollowsQueue(String name, long boosted, List<String> want) {
    SchedulerFacingJobManager jm = start(true);
    for (long id = 1; id <= 4; id++) {
      alloc(jm, id);
    }
    if (boosted != 0) {
      jm.prioritize(boosted, 100);
      step();
    }
    assertThat(annotations(4)).containsExactlyElementsOf(want);
  }

  @Test
  void annotateOff_pendingJobs_noAnnotateResponses() {
    SchedulerFacingJobManager jm = start(false);
    for (long id = 1; id <= 3; id++) {
      alloc(jm, id);
    }
    assertThat(annotations(3)).isEmpty();
    jm.free(1, ResourceSet.fromJson(responses.get(0).get(0).get("R")), true);
    step();
    assertThat(annotations(3))
        .containsExactly("0 {\"sched\":{\"resource_summary\":\"rank0/core0\"}}");
  }
}
