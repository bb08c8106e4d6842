package io.fluxdrm.dvm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each invariant of {@link DvmInvariants} catches its violation, on hand-made broken views. */
class DvmInvariantsTest {
  static final Client T = new Client(new PmixProc("t", 0), 1, 1, Client.Kind.TOOL);

  /** A view assembled from parts, possibly inconsistent. */
  record FakeView(
      List<NodeView> nodes,
      SessionView dflt,
      List<SessionView> sessions,
      List<JobView> jobs,
      List<PendingRequest> pending)
      implements DvmView {
    @Override
    public String master() {
      return "a";
    }

    @Override
    public String dvmNspace() {
      return "dvm";
    }

    @Override
    public Optional<Client> scheduler() {
      return Optional.empty();
    }

    @Override
    public Optional<NodeView> node(String host) {
      return nodes.stream().filter(n -> n.host().equals(host)).findFirst();
    }

    @Override
    public List<String> pool() {
      return dflt.hosts();
    }

    @Override
    public SessionView defaultSession() {
      return dflt;
    }

    @Override
    public Optional<SessionView> session(long id) {
      return sessions.stream().filter(s -> s.id() == id).findFirst();
    }

    @Override
    public Optional<JobView> job(String nspace) {
      return jobs.stream().filter(j -> j.nspace().equals(nspace)).findFirst();
    }

    @Override
    public List<PendingRequest> pendingRequests() {
      return pending;
    }
  }

  static DvmView.SessionView session(long id, List<String> hosts, List<String> jobs) {
    return new DvmView.SessionView(
        id,
        id == DvmView.DEFAULT_SESSION ? "" : Long.toString(id),
        Optional.empty(),
        hosts,
        jobs,
        List.of(),
        OptionalLong.empty(),
        Set.of(),
        Optional.empty(),
        OptionalLong.empty(),
        AllocInheritance.DEFAULT,
        Set.of(),
        Optional.empty(),
        List.of());
  }

  static DvmView.NodeView node(String h, long session) {
    return new DvmView.NodeView(h, 2, DaemonState.UP, session);
  }

  static DvmView.JobView job(String ns, long session, Map<String, Integer> procs) {
    return new DvmView.JobView(
        ns,
        session,
        DvmView.JobState.RUNNING,
        procs,
        procs.values().stream().mapToInt(i -> i).sum(),
        false,
        Optional.empty(),
        false);
  }

  static final long D = DvmView.DEFAULT_SESSION;

  @Test
  void aConsistentViewHasNoProblems() {
    FakeView v =
        new FakeView(
            List.of(node("a", D), node("b", 7)),
            session(D, List.of("a"), List.of("j1")),
            List.of(session(7, List.of("b"), List.of("j2"))),
            List.of(job("j1", D, Map.of("a", 2)), job("j2", 7, Map.of("b", 1))),
            List.of());
    assertThat(DvmInvariants.problems(v)).isEmpty();
  }

  @Test
  void eachViolationIsNamed() {
    FakeView twoSessions =
        new FakeView(
            List.of(node("a", D), node("b", 7)),
            session(D, List.of("a", "b"), List.of()),
            List.of(session(7, List.of("b"), List.of())),
            List.of(),
            List.of());
    assertThat(DvmInvariants.problems(twoSessions))
        .contains("node b is in sessions " + D + " and 7");

    FakeView orphanNode =
        new FakeView(
            List.of(node("a", D), node("c", D)),
            session(D, List.of("a"), List.of()),
            List.of(),
            List.of(),
            List.of());
    assertThat(DvmInvariants.problems(orphanNode))
        .contains("node c is in neither the pool nor a session");

    FakeView unknownHost =
        new FakeView(
            List.of(node("a", D)),
            session(D, List.of("a", "z"), List.of()),
            List.of(),
            List.of(),
            List.of());
    assertThat(DvmInvariants.problems(unknownHost))
        .contains("session " + D + " lists node z, unknown to the DVM");

    FakeView jobNowhere =
        new FakeView(
            List.of(node("a", D)),
            session(D, List.of("a"), List.of()),
            List.of(),
            List.of(job("j", 9, Map.of())),
            List.of());
    assertThat(DvmInvariants.problems(jobNowhere))
        .contains("job j is in session 9, which does not exist");

    FakeView jobTwice =
        new FakeView(
            List.of(node("a", D), node("b", 7)),
            session(D, List.of("a"), List.of("j")),
            List.of(session(7, List.of("b"), List.of("j"))),
            List.of(job("j", 7, Map.of())),
            List.of());
    assertThat(DvmInvariants.problems(jobTwice)).contains("job j is listed by 2 sessions");

    FakeView deadJobListed =
        new FakeView(
            List.of(node("a", D)),
            session(D, List.of("a"), List.of("gone")),
            List.of(),
            List.of(),
            List.of());
    assertThat(DvmInvariants.problems(deadJobListed))
        .contains("a session lists job gone, which is not alive");

    FakeView overSlots =
        new FakeView(
            List.of(node("a", D)),
            session(D, List.of("a"), List.of("j")),
            List.of(),
            List.of(job("j", D, Map.of("a", 3))),
            List.of());
    assertThat(DvmInvariants.problems(overSlots)).contains("node a runs 3 processes on 2 slots");
  }

  @Test
  void theLedgerCatchesMissingDoubleAndStrayAnswersAndJobsOfReclaimedSessions() {
    FakeView v =
        new FakeView(
            List.of(node("a", D)),
            session(D, List.of("a"), List.of()),
            List.of(),
            List.of(),
            List.of());
    DvmInvariants unanswered = new DvmInvariants();
    unanswered.requested(1);
    assertThatThrownBy(() -> unanswered.check(v))
        .hasMessageContaining("request 1 is neither answered nor in flight");

    DvmInvariants twice = new DvmInvariants();
    twice.requested(1);
    DvmDecision.Answer a = new DvmDecision.Answer(1, StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    twice.decided(List.of(a, a));
    assertThatThrownBy(() -> twice.check(v)).hasMessageContaining("request 1 answered 2 times");

    DvmInvariants stray = new DvmInvariants();
    stray.decided(List.of(new DvmDecision.Answer(5, StatusInfos.of(PmixStatus.PMIX_SUCCESS))));
    assertThatThrownBy(() -> stray.check(v))
        .hasMessageContaining("answer to request 5, which was never made");

    DvmInvariants answeredPending = new DvmInvariants();
    answeredPending.requested(1);
    answeredPending.decided(List.of(a));
    FakeView stillPending =
        new FakeView(
            List.of(node("a", D)),
            session(D, List.of("a"), List.of()),
            List.of(),
            List.of(),
            List.of(new DvmView.PendingRequest(1, T, "a", "x", DvmView.Waiting.LAUNCH)));
    assertThatThrownBy(() -> answeredPending.check(stillPending))
        .hasMessageContaining("request 1 is answered yet still in flight");

    DvmInvariants reclaimed = new DvmInvariants();
    reclaimed.decided(List.of(new DvmDecision.SessionReclaimed(7, "7", List.of("b"), false)));
    FakeView alive =
        new FakeView(
            List.of(node("a", D), node("b", 7)),
            session(D, List.of("a"), List.of()),
            List.of(session(7, List.of("b"), List.of("j"))),
            new ArrayList<>(List.of(job("j", 7, Map.of()))),
            List.of());
    assertThatThrownBy(() -> reclaimed.check(alive))
        .hasMessageContaining("job j is alive in reclaimed session 7");
  }
}
