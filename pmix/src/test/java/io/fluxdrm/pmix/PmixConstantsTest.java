package io.fluxdrm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scenarios A1, A4, A5, A6 of docs/scenarios.md: keys, codes, directives. */
class PmixConstantsTest {

  @ParameterizedTest(name = "{0} = {1} ({2})")
  @CsvSource({
    "PMIX_ALLOC_REQ_ID,      pmix.alloc.reqid,    PMIX_STRING",
    "PMIX_ALLOC_ID,          pmix.alloc.id,       PMIX_STRING",
    "PMIX_ALLOC_NUM_NODES,   pmix.alloc.nnodes,   PMIX_UINT64",
    "PMIX_ALLOC_NUM_CPUS,    pmix.alloc.ncpus,    PMIX_UINT64",
    "PMIX_ALLOC_NODE_LIST,   pmix.alloc.nlist,    PMIX_STRING",
    "PMIX_ALLOC_EXCLUDE,     pmix.alloc.exclude,  PMIX_STRING",
    "PMIX_ALLOC_TIME,        pmix.alloc.time,     PMIX_STRING",
    "PMIX_ALLOC_QUEUE,       pmix.alloc.queue,    PMIX_STRING",
    "PMIX_ALLOC_MEM_SIZE,    pmix.alloc.msize,    PMIX_FLOAT",
    "PMIX_ALLOC_FABRIC,      pmix.alloc.net,      PMIX_DATA_ARRAY",
    "PMIX_ALLOC_FABRIC_SEC_KEY, pmix.alloc.nsec,  PMIX_BYTE_OBJECT",
    "PMIX_ALLOC_WARN_TIMEOUT, pmix.alloc.wtmo,    PMIX_UINT32",
    "PMIX_ALLOC_INHERITANCE, pmix.alloc.inhrt,    PMIX_ALLOC_INHERIT",
    "PMIX_ALLOC_STATUS,      pmix.alloc.status,   PMIX_STATUS",
    "PMIX_SESSION_ID,        pmix.session.id,     PMIX_UINT32",
    "PMIX_SESSION_SIGNAL,    pmix.ssn.sig,        PMIX_INT",
    "PMIX_REQUESTOR,         pmix.requestor,      PMIX_PROC",
    "PMIX_SERVER_PIDINFO,    pmix.srvr.pidinfo,   PMIX_PID",
    "PMIX_ALLOC_FABRIC_ENDPTS, pmix.alloc.endpts, PMIX_SIZE",
    "PMIX_RANK,              pmix.rank,           PMIX_PROC_RANK",
    "PMIX_ALLOCATED_NODELIST, pmix.alist,         PMIX_STRING",
    "PMIX_NODE_LIST,         pmix.nlist,          PMIX_STRING",
  })
  void a1_keyCatalog_nameStringAndType_asOpenPmix(String name, String key, PmixDataType type) {
    assertThat(PmixKey.byName()).containsEntry(name, key);
    assertThat(PmixKey.typeOf(key)).contains(type);
    assertThat(PmixKey.nameOf(key)).contains(name);
    Info i = sample(key, type);
    assertThat(InfoCodec.encode(List.of(i)).get(0).get("key").asText()).isEqualTo(key);
    assertThat(InfoCodec.decode(InfoCodec.write(List.of(i)))).containsExactly(i);
  }

  @Test
  void a1_everyAttributeOfConstantsJson_sameKeyAndType_roundTrips() throws IOException {
    String root = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(!root.isBlank(), "fluxdrm.conformance is not set");
    Path file = Path.of(root, "pmix", "constants.json");
    assumeTrue(Files.isRegularFile(file), "no pmix/constants.json in the corpus");
    JsonNode doc = new ObjectMapper().readTree(file.toFile());
    List<String> checked = new ArrayList<>();
    for (String section : List.of("attributes_alloc", "attributes_session", "attributes_misc")) {
      for (Map.Entry<String, JsonNode> e : doc.get(section).properties()) {
        String name = e.getKey();
        String key = e.getValue().get("string").asText();
        assertThat(PmixKey.byName()).as(name).containsEntry(name, key);
        JsonNode code = e.getValue().get("pmix_data_type_code");
        if (code != null && code.isInt()) {
          PmixDataType t = PmixKey.typeOf(key).orElseThrow();
          assertThat(t.code()).as(name).isEqualTo(code.asInt());
          assertThat(t.name()).as(name).isEqualTo(e.getValue().get("pmix_data_type").asText());
          Info i = sample(key, t);
          assertThat(InfoCodec.decode(InfoCodec.encode(List.of(i)))).as(name).containsExactly(i);
        }
        checked.add(name);
      }
    }
    assertThat(checked).hasSize(PmixKey.byName().size());
    for (Map.Entry<String, JsonNode> e : doc.get("data_types").properties()) {
      if (!e.getValue().get("type").asText().equals("-")
          && !e.getKey().equals("PMIX_DATA_TYPE_MAX")) {
        assertThat(PmixDataType.byName(e.getKey()).map(PmixDataType::code))
            .as(e.getKey())
            .contains(e.getValue().get("value").asInt());
      }
    }
    for (Map.Entry<String, JsonNode> e : doc.get("status_codes").properties()) {
      assertThat(PmixStatus.valueOf(e.getKey()).code())
          .as(e.getKey())
          .isEqualTo(e.getValue().get("value").asInt());
    }
    for (Map.Entry<String, JsonNode> e : doc.get("alloc_directives").properties()) {
      assertThat(AllocDirective.of(e.getValue().get("value").asInt()).map(AllocDirective::pmixName))
          .contains(e.getKey());
    }
    for (Map.Entry<String, JsonNode> e : doc.get("alloc_inheritance").properties()) {
      assertThat(
              AllocInheritance.of(e.getValue().get("value").asInt())
                  .map(AllocInheritance::pmixName))
          .contains(e.getKey());
    }
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "PMIX_SUCCESS, 0",
    "PMIX_ERR_NOT_FOUND, -46",
    "PMIX_ERR_NOT_SUPPORTED, -47",
    "PMIX_ERR_NO_PERMISSIONS, -23",
    "PMIX_ERR_BAD_PARAM, -27",
    "PMIX_ERR_EXISTS, -11",
    "PMIX_ERR_JOB_ALLOC_FAILED, -188",
    "PMIX_ALLOC_TIMEOUT_WARNING, -194",
    "PMIX_DVM_IS_READY, -195",
    "PMIX_ERR_DVM_MOD, -196",
    "PMIX_OPERATION_SUCCEEDED, -157",
    "PMIX_OPERATION_IN_PROGRESS, -156",
    "PMIX_ERR_OUT_OF_RESOURCE, -29",
    "PMIX_ERR_JOB_CANCELED, -180",
  })
  void a4_statusCode_valueAsOpenPmix(PmixStatus status, int code) {
    assertThat(status.code()).isEqualTo(code);
    assertThat(PmixStatus.byCode(code)).contains(status);
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "NEW, 1, PMIX_ALLOC_NEW",
    "EXTEND, 2, PMIX_ALLOC_EXTEND",
    "RELEASE, 3, PMIX_ALLOC_RELEASE",
    "REAQUIRE, 4, PMIX_ALLOC_REAQUIRE",
    "REQ_CANCEL, 5, PMIX_ALLOC_REQ_CANCEL",
    "ACTIVATE, 6, PMIX_ALLOC_ACTIVATE",
    "EXTERNAL, 128, PMIX_ALLOC_EXTERNAL",
  })
  void a5_directive_valueAndName(AllocDirective d, int code, String name) {
    assertThat(d.code()).isEqualTo(code);
    assertThat(d.pmixName()).isEqualTo(name);
    assertThat(AllocDirective.of(code)).contains(d);
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "NONE, 1, PMIX_ALLOC_INHERIT_NONE",
    "CHILD, 2, PMIX_ALLOC_INHERIT_CHILD",
    "DEFAULT, 3, PMIX_ALLOC_INHERIT_DEFAULT",
    "CHILD_DEFAULT, 4, PMIX_ALLOC_INHERIT_CHILD_DEFAULT",
  })
  void a6_inheritance_valueAndName(AllocInheritance a, int code, String name) {
    assertThat(a.code()).isEqualTo(code);
    assertThat(a.pmixName()).isEqualTo(name);
    assertThat(AllocInheritance.of(code)).contains(a);
  }

  @Test
  void a6_inheritanceAbsent_isDefault3() {
    assertThat(AllocInheritance.orDefault(List.of(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r1"))))
        .isEqualTo(AllocInheritance.DEFAULT);
    assertThat(AllocInheritance.DEFAULT.code()).isEqualTo(3);
    assertThat(
            AllocInheritance.orDefault(
                List.of(Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE))))
        .isEqualTo(AllocInheritance.NONE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"0", "7", "127", "129"})
  void directiveOf_valueWithoutConstant_empty(int code) {
    assertThat(AllocDirective.of(code)).isEmpty();
  }

  /** A valid value of each type, for round trips. */
  static Info sample(String key, PmixDataType t) {
    Object v =
        switch (t) {
          case PMIX_BOOL -> true;
          case PMIX_STRING -> "n[1-2]";
          case PMIX_REGEX2 -> PmixRegex.raw("n1,n2");
          case PMIX_REGEX -> PmixRegex.legacy("raw:n1,n2\0".getBytes(StandardCharsets.UTF_8));
          case PMIX_UINT64, PMIX_SIZE -> -1L; // 2^64-1
          case PMIX_UINT32, PMIX_PROC_RANK -> 4294967295L;
          case PMIX_INT, PMIX_STATUS -> -47;
          case PMIX_PID -> 4242;
          case PMIX_FLOAT -> 1.5f;
          case PMIX_PROC -> new PmixProc("prte-job", 0);
          case PMIX_BYTE_OBJECT -> ByteObject.of(new byte[] {0, 1, (byte) 255});
          case PMIX_DATA_ARRAY -> List.of(Info.of(PmixKey.PMIX_ALLOC_FABRIC_ID, "net0"));
          case PMIX_ALLOC_INHERIT -> AllocInheritance.CHILD;
          default -> throw new IllegalArgumentException("no sample for " + t);
        };
    return new Info(key, t, v);
  }
}
