package io.fluxdrm.pmix.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Session-control directives read from infos and written back (D547). */
class SessionControlTest {

  private static final App APP = new App("hostname", List.of(), 2, List.of());

  private static final List<Info> FULL =
      List.of(
          Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
          Info.of(PmixKey.PMIX_SESSION_PAUSE, false),
          Info.of(PmixKey.PMIX_SESSION_SEP, false),
          Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "c1"),
          Info.of(PmixKey.PMIX_REQUESTOR, new PmixProc("job.1", 0)),
          Info.of(PmixKey.PMIX_USERID, 1000L),
          Info.of(PmixKey.PMIX_NSPACE, "job.2"),
          Info.of(PmixKey.PMIX_TIMEOUT, 30),
          Info.of(PmixKey.PMIX_SESSION_PROVISION_IMAGE, "img"),
          new Info(
              PmixKey.PMIX_SESSION_RESOURCES,
              PmixDataType.PMIX_DATA_ARRAY,
              List.of(
                  Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n[1-2]:4"),
                  Info.of(PmixKey.PMIX_ALLOC_ID, "7"),
                  Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 8L))),
          new Info(
              PmixKey.PMIX_SESSION_JOB,
              PmixDataType.PMIX_DATA_ARRAY,
              List.of(Info.of(PmixKey.PMIX_NSPACE, "job.3"))),
          Info.of(PmixKey.PMIX_SESSION_APP, List.of(APP)),
          Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n3"),
          Info.of(PmixKey.PMIX_ALLOC_TIME, "1:00"),
          Info.of(PmixKey.PMIX_GRPID, 100L));

  @Test
  void everyDirectiveIsReadAndTheRestKept() {
    SessionControl c = SessionControl.parse(FULL);
    assertThat(c.operations()).containsExactly(Operation.INSTANTIATE);
    assertThat(c.sep()).contains(false);
    assertThat(c.complete()).isFalse();
    assertThat(c.ctrlId()).contains("c1");
    assertThat(c.requestor()).contains(new PmixProc("job.1", 0));
    assertThat(c.userId()).contains(1000L);
    assertThat(c.nspaces()).containsExactly("job.2");
    assertThat(c.timeout()).contains(30);
    assertThat(c.provisioning()).containsExactly(FULL.get(8));
    assertThat(c.job().orElseThrow()).containsExactly(Info.of(PmixKey.PMIX_NSPACE, "job.3"));
    assertThat(c.apps()).containsExactly(APP);
    assertThat(c.nodes()).extracting(NodeList.Entry::host).containsExactly("n1", "n2", "n3");
    assertThat(c.resources().allocId()).contains("7");
    assertThat(c.resources().firstSelection()).contains("PMIX_ALLOC_NUM_CPUS");
    assertThat(c.direct().timeSeconds()).contains(60L);
    assertThat(c.direct().firstSelection()).isEmpty();
    assertThat(c.direct().others()).containsExactly(FULL.get(14));
  }

  @Test
  void toInfosWritesBackWhatWasRead() {
    SessionControl c = SessionControl.parse(FULL);
    assertThat(SessionControl.parse(c.toInfos())).isEqualTo(c);
    SessionControl signal =
        SessionControl.parse(
            List.of(
                Info.of(PmixKey.PMIX_SESSION_SIGNAL, 15),
                Info.of(PmixKey.PMIX_SESSION_EXTEND, true)));
    assertThat(signal.operations()).containsExactly(Operation.SIGNAL, Operation.EXTEND);
    assertThat(signal.signal()).contains(15);
    assertThat(SessionControl.parse(signal.toInfos())).isEqualTo(signal);
    assertThat(SessionControl.parse(List.of()).toInfos()).isEmpty();
    assertThat(Operation.of(PmixKey.PMIX_SESSION_PAUSE)).contains(Operation.PAUSE);
    assertThat(Operation.of(PmixKey.PMIX_SESSION_SEP)).isEmpty();
  }

  @Test
  void aCompletionNoticeIsWrittenAndRecognised() {
    List<Info> notice = SessionControl.completion(4, "a4", List.of());
    assertThat(notice)
        .containsExactly(
            Info.of(PmixKey.PMIX_SESSION_COMPLETE, true),
            Info.of(PmixKey.PMIX_SESSION_ID, 4L),
            Info.of(PmixKey.PMIX_ALLOC_ID, "a4"));
    assertThat(SessionControl.completes(notice)).isTrue();
    SessionControl c = SessionControl.parse(notice);
    assertThat(c.complete()).isTrue();
    assertThat(c.direct().allocId()).contains("a4");
    assertThat(SessionControl.completes(List.of(Info.of(PmixKey.PMIX_SESSION_COMPLETE, false))))
        .isFalse();
    assertThat(
            SessionControl.ctrlIdOf(
                List.of(
                    Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "first"),
                    Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "second"))))
        .contains("first");
  }

  @Test
  void badValuesAreLocated() {
    assertThatThrownBy(
            () ->
                SessionControl.parse(
                    List.of(Info.of(PmixKey.PMIX_SESSION_RESOURCES, List.of(APP)))))
        .isInstanceOfSatisfying(
            RequestException.class,
            e -> {
              assertThat(e.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
              assertThat(e.key()).isEqualTo(PmixKey.PMIX_SESSION_RESOURCES);
            })
        .hasMessage(
            "PMIX_SESSION_RESOURCES: a data array of apps (expected: a data array of info)");
    assertThatThrownBy(
            () -> SessionControl.parse(List.of(Info.of(PmixKey.PMIX_SESSION_APP, List.of()))))
        .isInstanceOfSatisfying(
            RequestException.class, e -> assertThat(e.key()).isEqualTo(PmixKey.PMIX_SESSION_APP))
        .hasMessage(
            "PMIX_SESSION_APP: an empty array (expected: a data array of at least one app)");
    Info badNodes =
        new Info(
            PmixKey.PMIX_SESSION_RESOURCES,
            PmixDataType.PMIX_DATA_ARRAY,
            List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n[3-")));
    assertThatThrownBy(() -> SessionControl.parse(List.of(badNodes)))
        .isInstanceOfSatisfying(
            RequestException.class,
            e -> assertThat(e.key()).isEqualTo(PmixKey.PMIX_ALLOC_NODE_LIST))
        .hasMessageStartingWith("PMIX_ALLOC_NODE_LIST \"n[3-\": ");
  }
}
