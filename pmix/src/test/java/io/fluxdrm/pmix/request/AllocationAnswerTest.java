package io.fluxdrm.pmix.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixRegex;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Answers and grants read and written in call order (D574). */
class AllocationAnswerTest {

  @Test
  void readsTheTypedKeysAndKeepsTheRestInOrder() {
    Info job = Info.of(PmixKey.PMIX_NSPACE, "prte-1@1");
    List<Info> infos =
        InfoWriter.create()
            .nodeList("n1,n2")
            .info(job)
            .allocId("7")
            .reqId("r1")
            .sessionId(3)
            .timeRemaining(60)
            .infos();
    AllocationAnswer a = AllocationAnswer.parse(infos);
    assertThat(a.allocId()).contains("7");
    assertThat(a.reqId()).contains("r1");
    assertThat(a.nodeList()).contains("n1,n2");
    assertThat(a.sessionId()).contains(3L);
    assertThat(a.timeRemaining()).contains(60L);
    assertThat(a.others()).containsExactly(job);
    assertThat(AllocationAnswer.parse(a.toInfos())).isEqualTo(a);
  }

  @Test
  void writesInTheOrderOfItsCalls() {
    List<Info> grant = InfoWriter.create().nodeList("n3").allocId("9").reqId("q").infos();
    assertThat(grant)
        .extracting(Info::key)
        .containsExactly(
            PmixKey.PMIX_ALLOC_NODE_LIST, PmixKey.PMIX_ALLOC_ID, PmixKey.PMIX_ALLOC_REQ_ID);
    List<Info> other = InfoWriter.create().allocId("9").reqId(Optional.empty()).infos();
    assertThat(other).extracting(Info::key).containsExactly(PmixKey.PMIX_ALLOC_ID);
  }

  @Test
  void theLastOfAKeyGivenTwiceCounts() {
    AllocationAnswer a =
        AllocationAnswer.parse(InfoWriter.create().allocId("1").allocId("2").infos());
    assertThat(a.allocId()).contains("2");
    assertThat(a.others()).isEmpty();
  }

  @Test
  void aNodeListInARegexReadsAsItsText() {
    Info regex =
        new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, PmixRegex.raw("a,b"));
    assertThat(AllocationAnswer.parse(List.of(regex)).nodeList()).contains("a,b");
  }

  @Test
  void echoAndTargetReadTheKeyAlone() {
    List<Info> req = InfoWriter.create().numNodes(2).reqId("r").target("job.1").reqId("s").infos();
    assertThat(AllocationAnswer.echoOf(req)).extracting(Info::value).containsExactly("r", "s");
    assertThat(AllocationAnswer.namesTarget(req)).isTrue();
    assertThat(AllocationAnswer.namesTarget(List.of())).isFalse();
  }

  @Test
  void theIdPeeksReadTheirKeyAloneAndTheLastValue() {
    Info broken =
        new Info(
            PmixKey.PMIX_ALLOC_NODE_LIST,
            PmixDataType.PMIX_REGEX2,
            PmixRegex.regex2("no-such-encoding", new byte[] {'a', 0}));
    List<Info> infos =
        InfoWriter.create().allocId("1").reqId("r").info(broken).allocId("2").reqId("s").infos();
    assertThatThrownBy(() -> AllocationAnswer.parse(infos)).isInstanceOf(PmixException.class);
    assertThat(AllocationAnswer.allocIdOf(infos)).contains("2");
    assertThat(AllocationAnswer.reqIdOf(infos)).contains("s");
    assertThat(AllocationAnswer.allocIdOf(List.of(broken))).isEmpty();
    assertThat(AllocationAnswer.reqIdOf(List.of())).isEmpty();
  }

  @Test
  void aReservationIsNamedByItsIdOrBySharing() {
    assertThat(AllocationAnswer.namesReservation(InfoWriter.create().numNodes(1).infos()))
        .isFalse();
    assertThat(AllocationAnswer.namesReservation(InfoWriter.create().allocId("7").infos()))
        .isTrue();
    assertThat(AllocationAnswer.namesReservation(InfoWriter.create().share(false).infos()))
        .isTrue();
    assertThat(AllocationAnswer.namesReservation(List.of())).isFalse();
  }

  @Test
  void writesRequestAndSessionKeysWithTheCatalogsTypes() {
    App app = new App("hostname", List.of("hostname"), 1, List.of());
    List<Info> d =
        InfoWriter.create()
            .operation(SessionControl.Operation.INSTANTIATE)
            .ctrlId("c1")
            .nodeList("n1")
            .time("1:00")
            .share(true)
            .inheritance(AllocInheritance.values()[0])
            .sep(true)
            .apps(List.of(app))
            .signal(15)
            .complete()
            .infos();
    SessionControl parsed = SessionControl.parse(d);
    assertThat(parsed.operations())
        .containsExactly(SessionControl.Operation.INSTANTIATE, SessionControl.Operation.SIGNAL);
    assertThat(parsed.signal()).contains(15);
    assertThat(parsed.ctrlId()).contains("c1");
    assertThat(parsed.sep()).contains(true);
    assertThat(parsed.complete()).isTrue();
    assertThat(parsed.apps()).containsExactly(app);
    assertThat(parsed.direct().timeSeconds()).contains(60L);
    assertThat(parsed.direct().share()).contains(true);
  }
}
