package io.fluxdrm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class InfoTest {

  record Row(PmixDataType type, Object value) {}

  static Stream<Row> fits() {
    return Stream.of(
        new Row(PmixDataType.PMIX_BOOL, false),
        new Row(PmixDataType.PMIX_STRING, ""),
        new Row(PmixDataType.PMIX_UINT8, 255),
        new Row(PmixDataType.PMIX_INT8, -128),
        new Row(PmixDataType.PMIX_INT16, 32767),
        new Row(PmixDataType.PMIX_UINT16, 65535),
        new Row(PmixDataType.PMIX_INT, Integer.MIN_VALUE),
        new Row(PmixDataType.PMIX_UINT32, 0L),
        new Row(PmixDataType.PMIX_UINT32, 4294967295L),
        new Row(PmixDataType.PMIX_UINT64, Long.MIN_VALUE),
        new Row(PmixDataType.PMIX_TIME, 1_700_000_000L),
        new Row(PmixDataType.PMIX_DOUBLE, 0.5),
        new Row(PmixDataType.PMIX_ALLOC_DIRECTIVE, 128),
        new Row(PmixDataType.PMIX_PROC, new PmixProc("ns", PmixProc.RANK_WILDCARD)),
        new Row(PmixDataType.PMIX_DATA_ARRAY, List.of()));
  }

  static Stream<Row> misfits() {
    return Stream.of(
        new Row(PmixDataType.PMIX_BOOL, "true"),
        new Row(PmixDataType.PMIX_STRING, 1),
        new Row(PmixDataType.PMIX_UINT8, 256),
        new Row(PmixDataType.PMIX_INT8, 128),
        new Row(PmixDataType.PMIX_UINT16, -1),
        new Row(PmixDataType.PMIX_UINT32, -1L),
        new Row(PmixDataType.PMIX_UINT32, 4294967296L),
        new Row(PmixDataType.PMIX_UINT32, 7),
        new Row(PmixDataType.PMIX_UINT64, 7),
        new Row(PmixDataType.PMIX_FLOAT, Float.NaN),
        new Row(PmixDataType.PMIX_DOUBLE, Double.POSITIVE_INFINITY),
        new Row(PmixDataType.PMIX_PID, -5),
        new Row(PmixDataType.PMIX_DATA_ARRAY, List.of("x")),
        new Row(PmixDataType.PMIX_INT, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fits")
  void construct_valueFitsType_kept(Row row) {
    Info i = new Info("site.k", row.type(), row.value());
    assertThat(i.value()).isEqualTo(row.value());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("misfits")
  void construct_valueDoesNotFitType_rejectedNamingKeyAndType(Row row) {
    assertThatThrownBy(() -> new Info("site.k", row.type(), row.value()))
        .isInstanceOf(PmixException.class)
        .hasMessageStartingWith("info site.k: ")
        .hasMessageEndingWith("(expected: key site.k has type " + row.type() + ")");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("typesWithoutModel")
  void construct_typeNotCarried_rejected(PmixDataType type) {
    assertThatThrownBy(() -> new Info("site.k", type, "x"))
        .isInstanceOf(PmixException.class)
        .hasMessageContaining("is not carried by the info model");
  }

  static Stream<PmixDataType> typesWithoutModel() {
    return Stream.of(PmixDataType.PMIX_APP, PmixDataType.PMIX_VALUE, PmixDataType.PMIX_TIMEVAL);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyTypeMismatch")
  void construct_catalogKeyWithOtherType_rejected(String key, PmixDataType type, Object value) {
    assertThatThrownBy(() -> new Info(key, type, value))
        .isInstanceOf(PmixException.class)
        .hasMessageContaining("is not a type of key " + key);
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> keyTypeMismatch() {
    return Stream.of(
        org.junit.jupiter.params.provider.Arguments.of(
            PmixKey.PMIX_ALLOC_TIME, PmixDataType.PMIX_UINT32, 60L),
        org.junit.jupiter.params.provider.Arguments.of(
            PmixKey.PMIX_ALLOC_NUM_NODES, PmixDataType.PMIX_UINT32, 2L),
        org.junit.jupiter.params.provider.Arguments.of(
            PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_UINT32, 2L));
  }

  @ParameterizedTest(name = "bad key {index}")
  @MethodSource("badKeys")
  void construct_badKey_rejected(String key) {
    assertThatThrownBy(() -> new Info(key, PmixDataType.PMIX_BOOL, true))
        .isInstanceOf(PmixException.class)
        .hasMessageStartingWith("info: key ");
  }

  static Stream<String> badKeys() {
    return Stream.of("", "k".repeat(512));
  }

  @org.junit.jupiter.api.Test
  void of_unknownKey_rejected() {
    assertThatThrownBy(() -> Info.of("site.k", 1))
        .isInstanceOf(PmixException.class)
        .hasMessage("info site.k: unknown key (expected: a key of the catalog, or a type)");
  }

  @org.junit.jupiter.api.Test
  void dataArray_isImmutableCopy() {
    java.util.ArrayList<Info> list = new java.util.ArrayList<>();
    list.add(Info.of(PmixKey.PMIX_ALLOC_ID, "1"));
    Info i = new Info(PmixKey.PMIX_ALLOC_FABRIC, PmixDataType.PMIX_DATA_ARRAY, list);
    list.clear();
    assertThat((List<?>) i.value()).hasSize(1);
  }
}
