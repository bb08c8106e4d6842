package io.fluxdrm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InfoCodecTest {

  @Test
  void decode_catalogKeysWithoutType_takeTheirOwnType() {
    List<Info> infos =
        InfoCodec.decode(
            """
            [{"key":"pmix.alloc.nnodes","value":4},
             {"key":"pmix.alloc.reqid","type":"PMIX_STRING","value":"r1"},
             {"key":"pmix.alloc.share","type":1,"value":true},
             {"key":"pmix.requestor","value":{"nspace":"prte-1@1","rank":0}},
             {"key":"pmix.alloc.inhrt","value":1}]""");
    assertThat(infos)
        .containsExactly(
            new Info(PmixKey.PMIX_ALLOC_NUM_NODES, PmixDataType.PMIX_UINT64, 4L),
            new Info(PmixKey.PMIX_ALLOC_REQ_ID, PmixDataType.PMIX_STRING, "r1"),
            new Info(PmixKey.PMIX_ALLOC_SHARE, PmixDataType.PMIX_BOOL, true),
            new Info(PmixKey.PMIX_REQUESTOR, PmixDataType.PMIX_PROC, new PmixProc("prte-1@1", 0)),
            new Info(
                PmixKey.PMIX_ALLOC_INHERITANCE,
                PmixDataType.PMIX_ALLOC_INHERIT,
                AllocInheritance.NONE));
  }

  @Test
  void encode_writesTypeByName_textIsStable() {
    List<Info> infos =
        List.of(
            Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 4),
            Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r1"),
            Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.CHILD));
    assertThat(InfoCodec.write(infos))
        .isEqualTo(
            "[{\"key\":\"pmix.alloc.nnodes\",\"type\":\"PMIX_UINT64\",\"value\":4},"
                + "{\"key\":\"pmix.alloc.reqid\",\"type\":\"PMIX_STRING\",\"value\":\"r1\"},"
                + "{\"key\":\"pmix.alloc.inhrt\",\"type\":\"PMIX_ALLOC_INHERIT\",\"value\":2}]");
  }

  @Test
  void uint64_fullRange_neverThroughADouble() {
    String json = "[{\"key\":\"pmix.alloc.ncpus\",\"value\":18446744073709551615}]";
    List<Info> infos = InfoCodec.decode(json);
    assertThat(infos.get(0).longValue()).isEqualTo(-1L);
    assertThat(infos.get(0).toString())
        .isEqualTo("pmix.alloc.ncpus(PMIX_UINT64)=18446744073709551615");
    assertThat(InfoCodec.write(infos)).contains("\"value\":18446744073709551615");
  }

  @Test
  void unknownKeyWithType_kept() {
    List<Info> infos =
        InfoCodec.decode("[{\"key\":\"site.x\",\"type\":\"PMIX_UINT32\",\"value\":7}]");
    assertThat(infos).containsExactly(new Info("site.x", PmixDataType.PMIX_UINT32, 7L));
  }

  @Test
  void dataArray_nestedInfos_roundTrip() {
    List<Info> infos =
        List.of(
            new Info(
                PmixKey.PMIX_ALLOC_FABRIC,
                PmixDataType.PMIX_DATA_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_FABRIC_ID, "f"),
                    Info.of(PmixKey.PMIX_ALLOC_FABRIC_ENDPTS, 2))));
    assertThat(InfoCodec.decode(InfoCodec.write(infos))).isEqualTo(infos);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[{\"key\":\"pmix.alloc.reqid\",\"value\":\"r\"},{\"key\":\"pmix.alloc.id\",\"value\":\"7\"},"
            + "{\"key\":\"pmix.alloc.nnodes\",\"value\":\"x\"}]"
            + "|/2/value: \"x\" is not a uint64 (expected: key pmix.alloc.nnodes has type PMIX_UINT64)",
        "[{\"key\":\"pmix.alloc.nnodes\",\"value\":-1}]"
            + "|/0/value: -1 is not a uint64 (expected: key pmix.alloc.nnodes has type PMIX_UINT64)",
        "[{\"key\":\"pmix.alloc.nnodes\",\"value\":2.0}]"
            + "|/0/value: 2.0 is not a uint64 (expected: key pmix.alloc.nnodes has type PMIX_UINT64)",
        "[{\"key\":\"pmix.alloc.nnodes\",\"value\":18446744073709551616}]"
            + "|/0/value: 18446744073709551616 is not a uint64 (expected: key pmix.alloc.nnodes has"
            + " type PMIX_UINT64)",
        "[{\"key\":\"pmix.alloc.wtmo\",\"value\":4294967296}]"
            + "|/0/value: 4294967296 is not a uint32 (expected: key pmix.alloc.wtmo has type PMIX_UINT32)",
        "[{\"key\":\"pmix.alloc.share\",\"value\":\"true\"}]"
            + "|/0/value: \"true\" is not a bool (expected: key pmix.alloc.share has type PMIX_BOOL)",
        "[{\"key\":\"pmix.alloc.time\",\"value\":3600}]"
            + "|/0/value: 3600 is not a string (expected: key pmix.alloc.time has type PMIX_STRING)",
        "[{\"key\":\"pmix.alloc.inhrt\",\"value\":5}]"
            + "|/0/value: 5 is not a alloc inheritance (1 to 4) (expected: key pmix.alloc.inhrt has"
            + " type PMIX_ALLOC_INHERIT)",
        "[{\"key\":\"pmix.requestor\",\"value\":{\"nspace\":\"a\",\"rank\":-1}}]"
            + "|/0/value: {\"nspace\":\"a\",\"rank\":-1} is not a proc (expected: key pmix.requestor"
            + " has type PMIX_PROC)",
        "[{\"key\":\"pmix.alloc.nsec\",\"value\":\"*\"}]"
            + "|/0/value: \"*\" is not a byte object (expected: key pmix.alloc.nsec has type"
            + " PMIX_BYTE_OBJECT)",
        "[{\"key\":\"pmix.ssn.sig\",\"value\":2147483648}]"
            + "|/0/value: 2147483648 is not a int (expected: key pmix.ssn.sig has type PMIX_INT)",
        "[{\"key\":\"site.x\",\"value\":1}]"
            + "|/0/type: missing for key \"site.x\", which is not in the catalog (expected: a data"
            + " type)",
        "[{\"key\":\"pmix.alloc.nlist\",\"type\":\"PMIX_UINT32\",\"value\":3}]"
            + "|/0/type: PMIX_UINT32 is not a type of key pmix.alloc.nlist (expected: PMIX_REGEX or"
            + " PMIX_REGEX2 or PMIX_STRING)",
        "[{\"key\":\"site.x\",\"type\":\"PMIX_NOPE\",\"value\":1}]"
            + "|/0/type: \"PMIX_NOPE\" is not a PMIx data type (expected: a name like PMIX_UINT64)",
        "[{\"key\":\"site.x\",\"type\":26,\"value\":1}]"
            + "|/0/type: 26 is not a PMIx data type code (expected: e.g. 15)",
        "[{\"key\":\"pmix.alloc.nnodes\"}]|/0/value: missing (expected: a value)",
        "[{\"value\":1}]|/0/key: missing (expected: a string)",
        "[{\"key\":\"\",\"value\":1}]|/0/key: key is empty (expected: 1 to 511 characters)",
        "[{\"key\":\"pmix.alloc.id\",\"value\":\"1\",\"x\":1}]"
            + "|/0: unexpected member \"x\" (expected: key, type, value)",
        "[3]|/0: is 3 (expected: an object with key, type and value)",
        "{}|/: is an object (expected: an array of info entries)",
        "[{\"key\":\"pmix.alloc.net\",\"value\":[{\"key\":\"pmix.alloc.endpts\",\"value\":\"2\"}]}]"
            + "|/0/value/0/value: \"2\" is not a size (uint64) (expected: key pmix.alloc.endpts has"
            + " type PMIX_SIZE)",
        "[1|info array: not valid JSON: Unexpected end-of-input: expected close marker for Array",
      })
  void decode_badInput_locatedError(String json, String message) {
    assertThatThrownBy(() -> InfoCodec.decode(json))
        .isInstanceOf(PmixException.class)
        .hasMessageStartingWith(message)
        .satisfies(
            e -> assertThat(((PmixException) e).status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM));
  }

  @Test
  void decode_severalProblems_allReportedInOrder() {
    PmixException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            PmixException.class,
            () ->
                InfoCodec.decode(
                    "[{\"key\":\"pmix.alloc.ncpus\",\"value\":true},"
                        + "{\"key\":\"pmix.alloc.nnodes\",\"value\":\"x\"}]"));
    assertThat(e.problems()).hasSize(2);
    assertThat(e.problems().get(0)).startsWith("/0/value: true is not a uint64");
    assertThat(e.problems().get(1)).startsWith("/1/value: \"x\" is not a uint64");
  }

  /**
   * A7: the node list as a string, as a PMIX_REGEX2 of libpmix's raw and compress (zlib) encodings,
   * and as a PMIX_REGEX of its serialized raw: and blob: forms (values built after the formats of
   * D503), all read back as "n1,n2".
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "string|PMIX_STRING|\"n1,n2\"",
        "regex2 raw|PMIX_REGEX2|{\"encoding\":\"raw\",\"bytes\":\"bjEsbjIA\"}",
        "regex2 compress zlib|PMIX_REGEX2|{\"encoding\":\"compress\","
            + "\"bytes\":\"BQAAAHicyzPUyTMCAASBAWw=\"}",
        "regex raw:|PMIX_REGEX|\"cmF3Om4xLG4yAA==\"",
        "regex blob:|PMIX_REGEX|"
            + "\"YmxvYjoAY29tcG9uZW50PXpsaWI6AHNpemU9MTc6AAUAAAB4nMsz1MkzAgAEgQFs\"",
      })
  void a7_nodeListAsStringOrRegex_readAsNodeList(String form, String type, String value) {
    List<Info> infos =
        InfoCodec.decode(
            "[{\"key\":\"pmix.alloc.nlist\",\"type\":\"" + type + "\",\"value\":" + value + "}]");
    assertThat(infos.get(0).type().name()).isEqualTo(type);
    assertThat(infos.get(0).stringValue()).isEqualTo("n1,n2");
    assertThat(InfoCodec.decode(InfoCodec.write(infos))).isEqualTo(infos);
  }

  @Test
  void a7_regexAlreadyExpanded_isNotARegex() {
    assertThatThrownBy(
            () ->
                InfoCodec.decode(
                    "[{\"key\":\"pmix.alloc.nlist\",\"type\":\"PMIX_REGEX2\","
                        + "\"value\":\"n1,n2\"}]"))
        .isInstanceOf(PmixException.class)
        .hasMessageStartingWith("/0/value: \"n1,n2\" is not a PMIx regex2 ({encoding, bytes})");
  }

  @Test
  void a7_regexOfAFormNotSupported_refusedWhenRead() {
    List<Info> infos =
        InfoCodec.decode(
            "[{\"key\":\"pmix.alloc.nlist\",\"type\":\"PMIX_REGEX2\","
                + "\"value\":{\"encoding\":\"pmix\",\"bytes\":\"AA==\"}}]");
    assertThatThrownBy(() -> infos.get(0).stringValue())
        .isInstanceOf(PmixException.class)
        .hasMessageContaining("encoding \"pmix\" is not supported");
  }

  @Test
  void a7_nodeListAsUint32_badParam() {
    assertThatThrownBy(
            () ->
                InfoCodec.decode(
                    "[{\"key\":\"pmix.alloc.nlist\",\"type\":\"PMIX_UINT32\",\"value\":12}]"))
        .isInstanceOf(PmixException.class)
        .satisfies(
            e -> assertThat(((PmixException) e).status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM));
  }
}
