package io.fluxdrm.bridge.translate;

import static io.fluxdrm.bridge.translate.Fixtures.*;
import static io.fluxdrm.pmix.PmixKey.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Decision D9, row by row, and scenarios E1, E2, E3 and E8. */
class RequestTranslatorTest {

  private static Translation t(AllocDirective d, String infosJson) {
    return RequestTranslator.translate(d, InfoCodec.decode(infosJson), VIEW);
  }

  /** Each grow row: infos → resources[0] and attributes.system of spec_add. */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":2}]"
            + "|{\"type\":\"node\",\"count\":2,\"exclusive\":true,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}]}"
            + "|{\"duration\":0.0}",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":3},{\"key\":\"pmix.alloc.ncpus\",\"value\":7}]"
            + "|{\"type\":\"node\",\"count\":3,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":3}]}]}"
            + "|{\"duration\":0.0}",
        "EXTEND|[{\"key\":\"pmix.alloc.ncpus\",\"value\":8}]"
            + "|{\"type\":\"slot\",\"count\":8,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}"
            + "|{\"duration\":0.0}",
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n2:2,n3:2\"}]"
            + "|{\"type\":\"node\",\"count\":2,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":2}]}]}"
            + "|{\"duration\":0.0,\"constraints\":{\"hostlist\":[\"n[2-3]\"]}}",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[5-8]\"}]"
            + "|{\"type\":\"node\",\"count\":1,\"exclusive\":true,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}]}"
            + "|{\"duration\":0.0,\"constraints\":{\"hostlist\":[\"n[5-8]\"]}}",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":2},{\"key\":\"pmix.alloc.exclude\",\"value\":\"n[1-4]\"}]"
            + "|{\"type\":\"node\",\"count\":2,\"exclusive\":true,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}]}"
            + "|{\"duration\":0.0,\"constraints\":{\"not\":[{\"hostlist\":[\"n[1-4]\"]}]}}",
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[5-9]\"},{\"key\":\"pmix.alloc.exclude\",\"value\":\"n7\"}]"
            + "|{\"type\":\"node\",\"count\":5,\"exclusive\":true,\"with\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}]}"
            + "|{\"duration\":0.0,\"constraints\":{\"and\":[{\"hostlist\":[\"n[5-9]\"]},{\"not\":[{\"hostlist\":[\"n7\"]}]}]}}",
        "NEW|[{\"key\":\"pmix.alloc.ncpus\",\"value\":2},{\"key\":\"pmix.alloc.time\",\"value\":\"1:30\"},{\"key\":\"pmix.alloc.queue\",\"value\":\"batch\"}]"
            + "|{\"type\":\"slot\",\"count\":2,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}"
            + "|{\"duration\":90.0,\"queue\":\"batch\"}",
      })
  void grow_row_specAdd(AllocDirective d, String infos, String resource, String system) {
    Translation.Realloc r = realloc(t(d, infos));
    JsonNode spec = r.payload().get("spec_add");
    assertThat(spec.get("resources").get(0)).isEqualTo(json(resource));
    assertThat(spec.get("attributes").get("system")).isEqualTo(json(system));
    assertThat(r.payload().get("job_id").asLong()).isEqualTo(JOB);
    assertThat(r.payload().has("spec_sub")).isFalse();
    assertThat(r.directive()).isEqualTo(d);
  }

  @Test
  void e1_extendNodesAndCpus_specAddNode4Slot1Core2() {
    Translation.Realloc r =
        realloc(
            RequestTranslator.translate(
                AllocDirective.EXTEND,
                List.of(info(PMIX_ALLOC_NUM_NODES, 4), info(PMIX_ALLOC_NUM_CPUS, 8)),
                own("5")));
    assertThat(r.payload())
        .isEqualTo(
            json(
                """
                {"job_id":42,"spec_add":{"version":1,
                 "resources":[{"type":"node","count":4,"with":[{"type":"slot","count":1,
                   "label":"task","with":[{"type":"core","count":2}]}]}],
                 "tasks":[{"command":["fluxdrm-realloc"],"slot":"task","count":{"per_slot":1}}],
                 "attributes":{"system":{"duration":0.0}}}}"""));
    assertThat(r.allocId()).isEqualTo("5");
  }

  @Test
  void e2_newNodeListRange_count2AndHostlistConstraint() {
    Translation.Realloc r =
        realloc(t(AllocDirective.NEW, "[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[5-6]\"}]"));
    JsonNode spec = r.payload().get("spec_add");
    assertThat(spec.at("/resources/0/count").asInt()).isEqualTo(2);
    assertThat(spec.at("/attributes/system/constraints"))
        .isEqualTo(json("{\"hostlist\":[\"n[5-6]\"]}"));
    assertThat(r.allocId()).isNull();
  }

  @Test
  void e3_releaseByNodeList_specSubWithR() {
    Translation.Realloc r =
        realloc(t(AllocDirective.RELEASE, "[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n3\"}]"));
    JsonNode p = r.payload();
    assertThat(p.has("spec_add")).isFalse();
    assertThat(p.at("/spec_sub/resources/0"))
        .isEqualTo(
            json(
                "{\"type\":\"node\",\"count\":1,\"with\":[{\"type\":\"slot\",\"count\":1,"
                    + "\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":8}]}]}"));
    assertThat(p.at("/spec_sub/attributes/system/constraints"))
        .isEqualTo(json("{\"hostlist\":[\"n3\"]}"));
    ResourceSet sub = ResourceSet.fromJson(p.get("R"));
    assertThat(sub.summary()).isEqualTo("rank2/core[0-7]");
    assertThat(sub.nodelist().toString()).isEqualTo("n3");
    assertThat(r.allocId()).isNull();
  }

  @Test
  void e8_allocTimeOneHour_duration3600() {
    Translation.Realloc r =
        realloc(
            t(
                AllocDirective.NEW,
                "[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},"
                    + "{\"key\":\"pmix.alloc.time\",\"value\":\"1:0:0\"}]"));
    assertThat(r.payload().at("/spec_add/attributes/system/duration").doubleValue())
        .isEqualTo(3600.0);
  }

  @Test
  void release_byAllocId_wholeReservationWithItsR() {
    Translation.Realloc r =
        realloc(t(AllocDirective.RELEASE, "[{\"key\":\"pmix.alloc.id\",\"value\":\"7\"}]"));
    assertThat(ResourceSet.fromJson(r.payload().get("R")).nodelist().toString())
        .isEqualTo("n[3-4]");
    assertThat(r.payload().at("/spec_sub/resources/0/count").asInt()).isEqualTo(2);
    assertThat(r.allocId()).isEqualTo("7");
  }

  @Test
  void release_byCount_specSubWithoutR() {
    Translation.Realloc r =
        realloc(t(AllocDirective.RELEASE, "[{\"key\":\"pmix.alloc.nnodes\",\"value\":2}]"));
    assertThat(r.payload().has("R")).isFalse();
    assertThat(r.payload().at("/spec_sub/resources/0/count").asInt()).isEqualTo(2);
  }

  @Test
  void extend_namedAllocation_targetsIt() {
    Translation.Realloc r =
        realloc(
            t(
                AllocDirective.EXTEND,
                "[{\"key\":\"pmix.alloc.id\",\"value\":\"7\"},{\"key\":\"pmix.alloc.nnodes\",\"value\":1}]"));
    assertThat(r.allocId()).isEqualTo("7");
  }

  @Test
  void extend_noIdNoOwnAllocation_targetsTheJobsInitialAllocation() {
    Translation.Realloc r =
        realloc(t(AllocDirective.EXTEND, "[{\"key\":\"pmix.alloc.nnodes\",\"value\":1}]"));
    assertThat(r.allocId()).isNull();
  }

  @Test
  void reqCancel_reqId_cancelOfThatRequest() {
    assertThat(t(AllocDirective.REQ_CANCEL, "[{\"key\":\"pmix.alloc.reqid\",\"value\":\"r9\"}]"))
        .isEqualTo(new Translation.Cancel("r9"));
  }

  @Test
  void echo_reqIdAndPolicyKeys_keptForTheAnswer_warnTimeoutKept() {
    List<Info> in =
        List.of(
            info(PMIX_ALLOC_NUM_NODES, 1),
            info(PMIX_ALLOC_REQ_ID, "r1"),
            info(PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE),
            info(PMIX_ALLOC_SHARE, false),
            info(PMIX_ALLOC_TARGET, "ns"),
            info(PMIX_ALLOC_WARN_TIMEOUT, 30),
            info(PMIX_REQUESTOR, new PmixProc("app", 0)),
            info(PMIX_USERID, 1000),
            info(PMIX_GRPID, 1000));
    Translation.Realloc r = realloc(RequestTranslator.translate(AllocDirective.NEW, in, VIEW));
    assertThat(r.echo()).containsExactly(in.get(1), in.get(2), in.get(3), in.get(4));
    assertThat(r.warnTimeout()).isEqualTo(30);
  }

  @Test
  void jobId_aboveLongMax_writtenUnsigned() {
    long id = Long.parseUnsignedLong("18446744073709551615");
    Translation.Realloc r =
        realloc(
            RequestTranslator.translate(
                AllocDirective.NEW, List.of(info(PMIX_ALLOC_NUM_CPUS, 1)), JobView.of(id, JOB_R)));
    assertThat(r.payload().toString()).startsWith("{\"job_id\":18446744073709551615,");
  }

  /** Refusals: directive, infos → status and message start. */
  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "NEW|[{\"key\":\"pmix.alloc.ncpulist\",\"value\":\"2,2\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.ncpulist): PMIX_ALLOC_NUM_CPU_LIST has no RFC 51 / jobspec version 1 equivalent",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.cpulist\",\"value\":\"0-3\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 1 (pmix.alloc.cpulist): PMIX_ALLOC_CPU_LIST has no RFC 51",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.msize\",\"value\":1.0}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 1 (pmix.alloc.msize): PMIX_ALLOC_MEM_SIZE has no RFC 51",
        "NEW|[{\"key\":\"pmix.alloc.net\",\"value\":[]}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.net): PMIX_ALLOC_FABRIC has no RFC 51",
        "NEW|[{\"key\":\"pmix.alloc.bw\",\"value\":10.0}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.bw): PMIX_ALLOC_BANDWIDTH has no RFC 51",
        "NEW|[{\"key\":\"pmix.alloc.image\",\"value\":\"rhel\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.image): PMIX_ALLOC_IMAGE has no RFC 51",
        "NEW|[{\"key\":\"pmix.ssn.pvnnds\",\"value\":\"n1\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.ssn.pvnnds): PMIX_SESSION_PROVISION_NODES has no RFC 51",
        "RELEASE|[{\"key\":\"pmix.alloc.lend\",\"value\":\"1:0\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.lend): PMIX_ALLOC_LEND has no RFC 51",
        "RELEASE|[{\"key\":\"pmix.alloc.time\",\"value\":\"10\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.time): PMIX_ALLOC_TIME has no meaning with PMIX_ALLOC_RELEASE",
        "NEW|[{\"key\":\"pmix.alloc.id\",\"value\":\"7\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (pmix.alloc.id): PMIX_ALLOC_ID has no meaning with PMIX_ALLOC_NEW",
        "NEW|[{\"key\":\"site.x\",\"type\":\"PMIX_BOOL\",\"value\":true}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 0 (site.x): unknown key",
        "REAQUIRE|[]|PMIX_ERR_NOT_SUPPORTED|directive PMIX_ALLOC_REAQUIRE: has no RFC 51 equivalent",
        "ACTIVATE|[]|PMIX_ERR_NOT_SUPPORTED|directive PMIX_ALLOC_ACTIVATE: answered by the DVM itself",
        "EXTERNAL|[]|PMIX_ERR_NOT_SUPPORTED|directive PMIX_ALLOC_EXTERNAL: has no RFC 51 equivalent",
        "EXTEND|[{\"key\":\"pmix.alloc.time\",\"value\":\"10\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|PMIX_ALLOC_EXTEND with only pmix.alloc.time: RFC 51 cannot extend a job's time",
        "NEW|[]|PMIX_ERR_BAD_PARAM|PMIX_ALLOC_NEW: nothing to allocate",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":0}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.nnodes 0 (expected: 1 to 2147483647)",
        "NEW|[{\"key\":\"pmix.alloc.ncpus\",\"value\":18446744073709551615}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.ncpus 18446744073709551615 (expected: 1 to 2147483647)",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":3},{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[5-6]\"}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.nnodes 3: more than the 2 hosts of pmix.alloc.nlist",
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n5:2,n6:4\"}]|PMIX_ERR_NOT_SUPPORTED"
            + "|pmix.alloc.nlist \"n5:2,n6:4\": slots 2 and 4 differ",
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n5:x\"}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.nlist \"n5:x\": entry \"n5:x\": slots \"x\" (expected: an integer >= 1)",
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[5-\"}]|PMIX_ERR_BAD_PARAM|pmix.alloc.nlist \"n[5-\": ",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.exclude\",\"value\":\"n1:2\"}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.exclude \"n1:2\": entry \"n1:2\" has a slot count",
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n5:2\"},{\"key\":\"pmix.alloc.ncpus\",\"value\":4}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.ncpus and slot counts in pmix.alloc.nlist both give the cores",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.time\",\"value\":\"1::2\"}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.time \"1::2\": field 2 of 3 is empty",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.nnodes\",\"value\":2}]|PMIX_ERR_BAD_PARAM"
            + "|info 1 (pmix.alloc.nnodes): given twice, first as info 0 (expected: once)",
        "NEW|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.queue\",\"value\":\"\"}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.queue \"\": empty",
        "EXTEND|[{\"key\":\"pmix.alloc.id\",\"value\":\"bogus\"},{\"key\":\"pmix.alloc.nnodes\",\"value\":1}]|PMIX_ERR_NOT_FOUND"
            + "|pmix.alloc.id \"bogus\": not an allocation of job 42 (expected: one of [7])",
        "RELEASE|[]|PMIX_ERR_NOT_FOUND|PMIX_ALLOC_RELEASE: names nothing to release",
        "RELEASE|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n9\"}]|PMIX_ERR_NOT_FOUND"
            + "|pmix.alloc.nlist \"n9\": invalid hosts: n9 (expected: nodes of job 42: n[1-4])",
        "RELEASE|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n1\"},{\"key\":\"pmix.alloc.id\",\"value\":\"7\"}]|PMIX_ERR_NOT_FOUND"
            + "|pmix.alloc.nlist \"n1\": invalid hosts: n1 (expected: nodes of allocation 7: n[3-4])",
        "RELEASE|[{\"key\":\"pmix.alloc.id\",\"value\":\"8\"}]|PMIX_ERR_NOT_FOUND"
            + "|pmix.alloc.id \"8\": not an allocation of job 42",
        "RELEASE|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[1-4]\"}]|PMIX_ERR_BAD_PARAM"
            + "|PMIX_ALLOC_RELEASE: would release every node of job 42",
        "RELEASE|[{\"key\":\"pmix.alloc.nnodes\",\"value\":4}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.nnodes 4: job 42 holds 4 nodes",
        "RELEASE|[{\"key\":\"pmix.alloc.nnodes\",\"value\":1},{\"key\":\"pmix.alloc.id\",\"value\":\"7\"}]|PMIX_ERR_BAD_PARAM"
            + "|pmix.alloc.nnodes with pmix.alloc.id: both say what to release",
        "REQ_CANCEL|[]|PMIX_ERR_BAD_PARAM|PMIX_ALLOC_REQ_CANCEL: names no request",
        "REQ_CANCEL|[{\"key\":\"pmix.alloc.reqid\",\"value\":\"r\"},{\"key\":\"pmix.alloc.nnodes\",\"value\":1}]|PMIX_ERR_NOT_SUPPORTED"
            + "|info 1 (pmix.alloc.nnodes): PMIX_ALLOC_NUM_NODES has no meaning with PMIX_ALLOC_REQ_CANCEL",
      })
  void translate_badRequest_refusedWithStatus(
      AllocDirective d, String infos, PmixStatus status, String message) {
    Translation.Refused r = refused(t(d, infos));
    assertThat(r.status()).isEqualTo(status);
    assertThat(r.message()).startsWith(message);
  }

  /**
   * A request with several faults is refused for the one the translator comes to first, whatever
   * the order of its infos: a value that does not read is refused at its key's turn.
   */
  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "NEW|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[5-\"},{\"key\":\"pmix.alloc.nnodes\",\"value\":0}]"
            + "|PMIX_ERR_BAD_PARAM|pmix.alloc.nnodes 0 (expected: 1 to",
        "EXTEND|[{\"key\":\"pmix.alloc.time\",\"value\":\"1::2\"},{\"key\":\"pmix.alloc.id\",\"value\":\"bogus\"},{\"key\":\"pmix.alloc.nnodes\",\"value\":1}]"
            + "|PMIX_ERR_NOT_FOUND|pmix.alloc.id \"bogus\": not an allocation of job 42",
        "NEW|[{\"key\":\"pmix.alloc.time\",\"value\":\"1::2\"},{\"key\":\"pmix.alloc.exclude\",\"value\":\"n1:2\"},{\"key\":\"pmix.alloc.nnodes\",\"value\":1}]"
            + "|PMIX_ERR_BAD_PARAM|pmix.alloc.exclude \"n1:2\": entry \"n1:2\" has a slot count",
        "NEW|[{\"key\":\"pmix.alloc.time\",\"value\":\"1::2\"}]|PMIX_ERR_BAD_PARAM|PMIX_ALLOC_NEW: nothing to allocate",
        "RELEASE|[{\"key\":\"pmix.alloc.nlist\",\"value\":\"n[1-\"},{\"key\":\"pmix.alloc.id\",\"value\":\"8\"}]"
            + "|PMIX_ERR_NOT_FOUND|pmix.alloc.id \"8\": not an allocation of job 42",
      })
  void translate_severalFaults_refusedForTheFirstRead(
      AllocDirective d, String infos, PmixStatus status, String message) {
    translate_badRequest_refusedWithStatus(d, infos, status, message);
  }

  @Test
  void translate_unknownDirectiveValue_notSupported() {
    Translation.Refused r = refused(RequestTranslator.translate(9, List.of(), VIEW));
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(r.message()).startsWith("directive 9: unknown");
  }

  @Test
  void nodeList_asRegex2_sameAsString() {
    Info regex = new Info(PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, PmixRegex.raw("n5,n6"));
    Translation.Realloc r =
        realloc(RequestTranslator.translate(AllocDirective.NEW, List.of(regex), VIEW));
    assertThat(r.payload().at("/spec_add/attributes/system/constraints/hostlist/0").asText())
        .isEqualTo("n[5-6]");
  }

  @Test
  void nodeList_asRegexOfAFormNotSupported_badParamNamingTheForm() {
    Info regex =
        new Info(
            PMIX_ALLOC_NODE_LIST,
            PmixDataType.PMIX_REGEX,
            PmixRegex.legacy("pmix[n[1:5-6]]\0".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    Translation.Refused r =
        refused(RequestTranslator.translate(AllocDirective.NEW, List.of(regex), VIEW));
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(r.message())
        .startsWith(
            "pmix.alloc.nlist (PMIX_REGEX): PMIx regex: form pmix[...] (the native regex of PMIx 3"
                + " and 4) is not supported");
  }
}
