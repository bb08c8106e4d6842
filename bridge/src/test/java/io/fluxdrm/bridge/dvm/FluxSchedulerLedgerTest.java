package io.fluxdrm.bridge.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * The bridge's ledger of the DVM's sessions (decision D521): saved before a session control is sent
 * and after every change, taken over by the scheduler after it, and settled with the DVM once
 * attached; each case is one window the chaos soak found a restarted bridge losing nodes in.
 */
class FluxSchedulerLedgerTest {
  private static final PmixProc TOOL = new PmixProc("tool", 0);

  /** A DVM port whose answers the test gives; what was sent is recorded. */
  private static final class FakeDvm implements DvmPort {
    final List<String> sent = new ArrayList<>();
    final List<CompletableFuture<StatusInfos>> answers = new ArrayList<>();

    @Override
    public CompletionStage<StatusInfos> allocationRequest(
        AllocDirective directive, List<Info> infos) {
      sent.add(directive.pmixName() + " " + value(infos, PmixKey.PMIX_ALLOC_NODE_LIST));
      CompletableFuture<StatusInfos> f = new CompletableFuture<>();
      answers.add(f);
      return f;
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
      String op =
          directives.stream()
              .map(Info::key)
              .filter(k -> k.startsWith("pmix.ssn."))
              .map(k -> PmixKey.nameOf(k).orElse(k))
              .findFirst()
              .orElse("?");
      sent.add(op + " " + sessionId + " " + value(directives, PmixKey.PMIX_ALLOC_NODE_LIST));
      CompletableFuture<StatusInfos> f = new CompletableFuture<>();
      answers.add(f);
      return f;
    }

    @Override
    public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler h) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<StatusInfos> deregisterEvents(long ref) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<StatusInfos> disconnect() {
      throw new UnsupportedOperationException();
    }

    void answer(int i, PmixStatus s) {
      answers.get(i).complete(StatusInfos.of(s));
    }
  }

  private static String value(List<Info> infos, String key) {
    return infos.stream()
        .filter(i -> i.key().equals(key))
        .map(Info::stringValue)
        .findFirst()
        .orElse("-");
  }

  /** What was given back to Flux, in order. */
  private final List<String> backs = new ArrayList<>();

  private final List<Ledger> saved = new ArrayList<>();

  private FluxScheduler scheduler(FakeDvm down, FakeDvm self) {
    FluxScheduler.Allocator grants =
        (d, infos) ->
            CompletableFuture.completedFuture(
                d == AllocDirective.RELEASE
                    ? new PmixAnswer(PmixStatus.PMIX_SUCCESS, List.of(), "")
                    : new PmixAnswer(
                        PmixStatus.PMIX_SUCCESS,
                        List.of(
                            Info.of(PmixKey.PMIX_ALLOC_ID, "5"),
                            Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n1:2")),
                        ""));
    FluxScheduler.HandBack back =
        new FluxScheduler.HandBack() {
          @Override
          public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
            backs.add("hand back " + allocId + " " + nodeList);
            return CompletableFuture.completedFuture(
                new PmixAnswer(PmixStatus.PMIX_SUCCESS, List.of(), ""));
          }

          @Override
          public CompletionStage<Void> released(String nodeList) {
            backs.add("released " + nodeList);
            return CompletableFuture.completedFuture(null);
          }
        };
    FluxScheduler s = new FluxScheduler(grants, back, () -> down, () -> self);
    s.journal(saved::add);
    return s;
  }

  private static Ledger last(List<Ledger> l) {
    return l.get(l.size() - 1);
  }

  @Test
  void grant_savedAsPendingBeforeTheSessionControl_thenAsASession_andTakenOverByTheNext() {
    FakeDvm dvm = new FakeDvm();
    FluxScheduler s = scheduler(dvm, new FakeDvm());
    CompletableFuture<StatusInfos> a =
        s.allocate(TOOL, AllocDirective.NEW, List.of()).toCompletableFuture();
    assertThat(dvm.sent).containsExactly("PMIX_SESSION_INSTANTIATE 5 n1:2");
    // on disk before the DVM can act on it
    assertThat(last(saved).pending()).containsEntry(5L, new Pending("n1:2", false));
    dvm.answer(0, PmixStatus.PMIX_SUCCESS);
    assertThat(a.join().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    Ledger l = last(saved);
    assertThat(l.pending()).isEmpty();
    assertThat(l.sessions()).containsExactly(Map.entry(5L, List.of("n1:2")));

    // the next scheduler knows session 5: a RELEASE of it terminates it in the DVM
    FakeDvm dvm2 = new FakeDvm();
    FluxScheduler next = scheduler(dvm2, new FakeDvm());
    next.restore(l);
    assertThat(next.sessions()).containsExactly(5L);
    next.allocate(TOOL, AllocDirective.RELEASE, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "5")));
    assertThat(dvm2.sent).containsExactly("PMIX_SESSION_TERMINATE 5 -");
    assertThat(last(saved).releasing()).containsEntry(5L, "n1:2");
  }

  @Test
  void pendingInstantiate_dvmHoldsIt_standsAsASession() {
    FakeDvm dvm = new FakeDvm();
    FluxScheduler s = scheduler(dvm, new FakeDvm());
    s.restore(new Ledger(null, Map.of(7L, new Pending("n2:2", false)), null, null, null));
    CompletableFuture<Void> done = s.reattached().toCompletableFuture();
    assertThat(dvm.sent).containsExactly("PMIX_SESSION_INSTANTIATE 7 n2:2");
    dvm.answer(0, PmixStatus.PMIX_ERR_EXISTS);
    assertThat(done).isCompleted();
    assertThat(s.sessionHosts()).containsExactly(Map.entry(7L, java.util.Set.of("n2")));
    assertThat(backs).isEmpty();
    assertThat(last(saved).pending()).isEmpty();
  }

  @Test
  void pendingInstantiate_dvmRefusesIt_goesBackToFlux() {
    FakeDvm dvm = new FakeDvm();
    FluxScheduler s = scheduler(dvm, new FakeDvm());
    s.restore(new Ledger(null, Map.of(7L, new Pending("n2:2", false)), null, null, null));
    CompletableFuture<Void> done = s.reattached().toCompletableFuture();
    dvm.answer(0, PmixStatus.PMIX_ERR_RESOURCE_BUSY);
    assertThat(done).isCompleted();
    assertThat(s.sessions()).isEmpty();
    assertThat(backs).containsExactly("hand back 7 n2:2");
  }

  @Test
  void departingHost_dvmNoLongerHoldsIt_handedBackAtOnce_andKeptInTheLedgerUntilThen() {
    FakeDvm self = new FakeDvm();
    FluxScheduler s = scheduler(new FakeDvm(), self);
    s.restore(new Ledger(null, null, Map.of("n3", "n3:2"), null, null));
    s.reattached();
    assertThat(self.sent).containsExactly("PMIX_ALLOC_RELEASE n3:2");
    assertThat(s.ledger().departing()).containsKey("n3");
    self.answer(0, PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(backs).containsExactly("released n3:2");
    assertThat(last(saved).departing()).isEmpty();
  }

  @Test
  void ledger_accountsForBaseSessionsPendingDepartingAndReleasingHosts_andNothingElse() {
    Ledger l =
        new Ledger(
            Map.of(1L, List.of("n1:2")),
            Map.of(2L, new Pending("n2:2,n5:2", false)),
            Map.of("n3", "n3:2"),
            Map.of(4L, "n4:2"),
            List.of("n0"));
    // a host of the DVM's job outside these is a grant no one told the DVM of: handed back
    assertThat(l.accountedHosts()).containsExactly("n0", "n1", "n2", "n3", "n4", "n5");
    FluxScheduler s = scheduler(new FakeDvm(), new FakeDvm());
    s.restore(l);
    assertThat(s.ledger().base()).containsExactly("n0");
  }

  @Test
  void releasingSession_alreadyGoneFromTheDvm_shrunkOutAsAfterItsComplete() {
    FakeDvm dvm = new FakeDvm();
    FakeDvm self = new FakeDvm();
    FluxScheduler s = scheduler(dvm, self);
    s.restore(new Ledger(Map.of(9L, List.of("n4:2")), null, null, Map.of(9L, "n4:2"), null));
    s.reattached();
    assertThat(dvm.sent).containsExactly("PMIX_SESSION_TERMINATE 9 -");
    dvm.answer(0, PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(s.sessions()).isEmpty();
    // its nodes stay in the DVM's pool after a COMPLETE: shrunk out, then handed back
    assertThat(self.sent).containsExactly("PMIX_ALLOC_RELEASE n4:2");
    assertThat(last(saved).releasing()).isEmpty();
    assertThat(last(saved).departing()).containsKey("n4");
  }
}
