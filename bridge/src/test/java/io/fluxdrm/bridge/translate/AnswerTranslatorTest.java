package io.fluxdrm.bridge.translate;

import static io.fluxdrm.bridge.translate.Fixtures.*;
import static io.fluxdrm.pmix.PmixKey.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.schemas.Schemas;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Decision D10, row by row, and scenarios E1 and E3-E9 (the translation's part of them). */
class AnswerTranslatorTest {

  /** R_delta_add: ranks 4-5 on n[5-6], 8 cores each. */
  static final String GRANT =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"4-5\",\"children\":{\"core\":\"0-7\"}}],"
          + "\"nodelist\":[\"n[5-6]\"],\"starttime\":1000,\"expiration\":4600}}";

  static Translation.Realloc grow(AllocDirective d, JobView view, Info... infos) {
    return realloc(RequestTranslator.translate(d, List.of(infos), view));
  }

  static String infos(PmixAnswer a) {
    return InfoCodec.write(a.infos());
  }

  @Test
  void e1_extendGranted_successWithAllocIdAndHostSlots() {
    Translation.Realloc req =
        grow(
            AllocDirective.EXTEND,
            JobView.of(JOB, JOB_R),
            info(PMIX_ALLOC_NUM_NODES, 2),
            info(PMIX_ALLOC_NUM_CPUS, 16));
    PmixAnswer a =
        AnswerTranslator.answer(
            req, json("{\"alloc_id\":12321234,\"type\":0,\"R_delta_add\":" + GRANT + "}"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(a.infos())
        .containsExactly(info(PMIX_ALLOC_ID, "12321234"), info(PMIX_ALLOC_NODE_LIST, "n5:8,n6:8"));
  }

  @Test
  void extendOwnAllocation_successNamesThatAllocation() {
    Translation.Realloc req = grow(AllocDirective.EXTEND, own("7"), info(PMIX_ALLOC_NUM_NODES, 2));
    PmixAnswer a =
        AnswerTranslator.answer(
            req, json("{\"alloc_id\":99,\"type\":0,\"R_delta_add\":" + GRANT + "}"));
    assertThat(a.infos().get(0)).isEqualTo(info(PMIX_ALLOC_ID, "7"));
  }

  @Test
  void newGranted_echoesReqIdAndPolicyKeys_allocIdUnsigned() {
    Translation.Realloc req =
        grow(
            AllocDirective.NEW,
            VIEW,
            info(PMIX_ALLOC_NUM_NODES, 2),
            info(PMIX_ALLOC_REQ_ID, "r1"),
            info(PMIX_ALLOC_SHARE, false),
            info(PMIX_ALLOC_TARGET, "ns"),
            info(PMIX_ALLOC_INHERITANCE, AllocInheritance.CHILD));
    PmixAnswer a =
        AnswerTranslator.answer(
            req,
            json("{\"alloc_id\":18446744073709551615,\"type\":0,\"R_delta_add\":" + GRANT + "}"));
    assertThat(infos(a))
        .isEqualTo(
            "[{\"key\":\"pmix.alloc.id\",\"type\":\"PMIX_STRING\",\"value\":\"18446744073709551615\"},"
                + "{\"key\":\"pmix.alloc.nlist\",\"type\":\"PMIX_STRING\",\"value\":\"n5:8,n6:8\"},"
                + "{\"key\":\"pmix.alloc.reqid\",\"type\":\"PMIX_STRING\",\"value\":\"r1\"},"
                + "{\"key\":\"pmix.alloc.inhrt\",\"type\":\"PMIX_ALLOC_INHERIT\",\"value\":2},"
                + "{\"key\":\"pmix.alloc.share\",\"type\":\"PMIX_BOOL\",\"value\":false},"
                + "{\"key\":\"pmix.alloc.tgt\",\"type\":\"PMIX_STRING\",\"value\":\"ns\"}]");
  }

  /**
   * E3's translation only: Flux's R_delta_sub of a RELEASE by node list answers SUCCESS with that
   * node list, and a sched.free of that part is a valid payload with {@code final: false}. E3's
   * point, that sched.free leaves only after PMIX_DVM_IS_READY, needs the components in their
   * order: ElasticBridgeEndToEndTest#e3_releaseByNodeList_schedFreeLeavesOnlyAfterDvmIsReady.
   */
  @Test
  void releaseGranted_successWithNodeList_andAFreeOfThatPartIsFinalFalse() {
    Translation.Realloc req = grow(AllocDirective.RELEASE, VIEW, info(PMIX_ALLOC_NODE_LIST, "n3"));
    String sub = req.payload().get("R").toString();
    PmixAnswer a =
        AnswerTranslator.answer(
            req, json("{\"alloc_id\":5,\"type\":0,\"R_delta_sub\":" + sub + "}"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(a.infos()).containsExactly(info(PMIX_ALLOC_NODE_LIST, "n3:8"));
    var free = FluxPayloads.free(JOB, ResourceSet.parse(sub), false);
    assertThat(Schemas.validate("sched.free-request", free)).isEmpty();
    assertThat(free.get("final").booleanValue()).isFalse();
    assertThat(ResourceSet.fromJson(free.get("R")).summary()).isEqualTo("rank2/core[0-7]");
  }

  @Test
  void releaseByAllocId_successWithAllocIdOnly() {
    Translation.Realloc req = grow(AllocDirective.RELEASE, VIEW, info(PMIX_ALLOC_ID, "7"));
    String sub = req.payload().get("R").toString();
    PmixAnswer a =
        AnswerTranslator.answer(
            req, json("{\"alloc_id\":6,\"type\":0,\"R_delta_sub\":" + sub + "}"));
    assertThat(a.infos()).containsExactly(info(PMIX_ALLOC_ID, "7"));
  }

  /** Non-success rows of D10: type → status; the request id is still echoed. */
  @ParameterizedTest(name = "type {0} -> {1}")
  @CsvSource({
    "1, PMIX_ERR_OUT_OF_RESOURCE, denied: too big",
    "2, PMIX_ERR_JOB_CANCELED, canceled: too big",
    "3, PMIX_ERR_NOT_SUPPORTED, the scheduler does not support sched.realloc: too big",
  })
  void e4_e5_e6_nonSuccessType_mappedStatus(int type, PmixStatus status, String message) {
    Translation.Realloc req =
        grow(AllocDirective.NEW, VIEW, info(PMIX_ALLOC_NUM_NODES, 9), info(PMIX_ALLOC_REQ_ID, "r"));
    PmixAnswer a =
        AnswerTranslator.answer(
            req, json("{\"alloc_id\":3,\"type\":" + type + ",\"note\":\"too big\"}"));
    assertThat(a.status()).isEqualTo(status);
    assertThat(a.infos()).containsExactly(info(PMIX_ALLOC_REQ_ID, "r"));
    assertThat(a.message()).isEqualTo(message);
  }

  @Test
  void e6_reqCancel_cancelSentSuccess_cancelledRequestJobCanceled() {
    Translation t =
        RequestTranslator.translate(
            AllocDirective.REQ_CANCEL, List.of(info(PMIX_ALLOC_REQ_ID, "r7")), VIEW);
    Translation.Cancel c = (Translation.Cancel) t;
    assertThat(FluxPayloads.reallocCancel(11).toString()).isEqualTo("{\"matchtag\":11}");
    assertThat(Schemas.validate("sched.realloc_cancel-request", FluxPayloads.reallocCancel(11)))
        .isEmpty();
    PmixAnswer sent = AnswerTranslator.cancelSent(c);
    assertThat(sent.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(sent.infos()).containsExactly(info(PMIX_ALLOC_REQ_ID, "r7"));
    Translation.Realloc original =
        grow(
            AllocDirective.NEW, VIEW, info(PMIX_ALLOC_NUM_NODES, 2), info(PMIX_ALLOC_REQ_ID, "r7"));
    assertThat(AnswerTranslator.answer(original, json("{\"alloc_id\":1,\"type\":2}")).status())
        .isEqualTo(PmixStatus.PMIX_ERR_JOB_CANCELED);
  }

  /** An error response (not a response type): errno → status. Not E5, which is type 3. */
  @ParameterizedTest(name = "errno {0} -> {1}")
  @CsvSource({
    "38, PMIX_ERR_NOT_SUPPORTED",
    "1, PMIX_ERR_NO_PERMISSIONS",
    "13, PMIX_ERR_NO_PERMISSIONS",
    "2, PMIX_ERR_NOT_FOUND",
    "22, PMIX_ERR_BAD_PARAM",
    "71, PMIX_ERR_BAD_PARAM",
    "12, PMIX_ERR_NOMEM",
    "16, PMIX_ERR_RESOURCE_BUSY",
    "17, PMIX_ERR_EXISTS",
    "28, PMIX_ERR_OUT_OF_RESOURCE",
    "75, PMIX_ERR_OUT_OF_RESOURCE",
    "110, PMIX_ERR_TIMEOUT",
    "111, PMIX_ERR_UNREACH",
    "113, PMIX_ERR_UNREACH",
    "5, PMIX_ERROR",
  })
  void errorResponse_errnoMapped(int errnum, PmixStatus status) {
    Translation.Realloc req = grow(AllocDirective.NEW, VIEW, info(PMIX_ALLOC_NUM_NODES, 1));
    PmixAnswer a = AnswerTranslator.error(req, errnum, "x");
    assertThat(a.status()).isEqualTo(status);
    assertThat(a.message()).isEqualTo("sched.realloc failed: errno " + errnum + ": x");
  }

  /**
   * The node list of a grant on new nodes, which the DVM grows onto. E7 itself (the grow and its
   * DVM_IS_READY or ERR_DVM_MOD) is shown end to end in ElasticBridgeEndToEndTest (grow_d2,
   * grow_d16).
   */
  @Test
  void grantOnNewNodes_nodeListNamesEveryNewHostWithSlots() {
    String grant =
        "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"4\",\"children\":{\"core\":\"0-3\"}},"
            + "{\"rank\":\"5-6\",\"children\":{\"core\":\"0-15\"}}],\"nodelist\":[\"n5,m[1-2]\"]}}";
    Translation.Realloc req = grow(AllocDirective.NEW, VIEW, info(PMIX_ALLOC_NUM_NODES, 3));
    PmixAnswer a =
        AnswerTranslator.answer(
            req, json("{\"alloc_id\":2,\"type\":0,\"R_delta_add\":" + grant + "}"));
    assertThat(a.infos().get(1)).isEqualTo(info(PMIX_ALLOC_NODE_LIST, "n5:4,m1:16,m2:16"));
  }

  /**
   * The time and the infos of E9's warning, computed. Nothing in the bridge arms the warning yet,
   * so E9 itself is not shown (docs/scenarios.md).
   */
  @Test
  void warningTime_expirationMinusWtmo_andTheWarningsInfos() {
    Translation.Realloc req =
        grow(
            AllocDirective.NEW,
            VIEW,
            info(PMIX_ALLOC_NUM_NODES, 2),
            info(PMIX_ALLOC_REQ_ID, "r"),
            info(PMIX_ALLOC_WARN_TIMEOUT, 30));
    ResourceSet r = ResourceSet.parse(GRANT);
    assertThat(AnswerTranslator.warningTime(r, req.warnTimeout()).getAsDouble()).isEqualTo(4570.0);
    assertThat(AnswerTranslator.warningTime(r, -1)).isEmpty();
    assertThat(AnswerTranslator.warningTime(r.withTimes(1000, 0), 30)).isEmpty();
    assertThat(InfoCodec.write(AnswerTranslator.timeoutWarning("12", "r", 30)))
        .isEqualTo(
            "[{\"key\":\"pmix.alloc.id\",\"type\":\"PMIX_STRING\",\"value\":\"12\"},"
                + "{\"key\":\"pmix.alloc.reqid\",\"type\":\"PMIX_STRING\",\"value\":\"r\"},"
                + "{\"key\":\"pmix.time.remaining\",\"type\":\"PMIX_UINT32\",\"value\":30}]");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[]|sched.realloc response: [] (expected: an object)",
        "{\"type\":0}|sched.realloc response /alloc_id: missing",
        "{\"alloc_id\":1.0,\"type\":1}|sched.realloc response /alloc_id: 1.0 (expected: an integer",
        "{\"alloc_id\":-1,\"type\":1}|sched.realloc response /alloc_id: -1 (expected",
        "{\"alloc_id\":1,\"type\":4}|sched.realloc response /type: 4 (expected: 0, 1, 2 or 3)",
        "{\"alloc_id\":1,\"type\":\"0\"}|sched.realloc response /type: \"0\"",
        "{\"alloc_id\":1,\"type\":0}|sched.realloc response: SUCCESS for PMIX_ALLOC_NEW without R_delta_add",
        "{\"alloc_id\":1,\"type\":1,\"R_delta_add\":{}}|sched.realloc response /R_delta_add: present with type DENY",
        "{\"alloc_id\":1,\"type\":0,\"R_delta_add\":{\"version\":2}}|sched.realloc response /R_delta_add: ",
        "{\"alloc_id\":1,\"type\":0,\"R_delta_add\":{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0\"}}]}}}"
            + "|R: rank 0 has no host name",
      })
  void answer_malformedResponse_pmixErrorLocated(String response, String message) {
    Translation.Realloc req = grow(AllocDirective.NEW, VIEW, info(PMIX_ALLOC_NUM_NODES, 1));
    assertThatThrownBy(() -> AnswerTranslator.answer(req, json(response)))
        .isInstanceOf(TranslateException.class)
        .hasMessageStartingWith(message)
        .satisfies(
            e -> assertThat(((TranslateException) e).status()).isEqualTo(PmixStatus.PMIX_ERROR));
  }

  @Test
  void refused_statusAndNoInfos() {
    PmixAnswer a =
        AnswerTranslator.refused(
            new Translation.Refused(PmixStatus.PMIX_ERR_NOT_SUPPORTED, "info 0 (x): unknown key"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(a.infos()).isEmpty();
  }
}
