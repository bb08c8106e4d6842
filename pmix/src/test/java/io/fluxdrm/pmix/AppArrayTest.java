package io.fluxdrm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** PMIX_SESSION_APP as a data array of apps (D351): the model, its JSON form and its refusals. */
class AppArrayTest {
  static final App SLEEP =
      new App("/bin/sleep", List.of("sleep", "300"), 2, List.of(Info.of(PmixKey.PMIX_HOST, "n1")));

  @Test
  void aDataArrayHoldsAppsOrInfosNeverBoth() {
    Info apps = new Info(PmixKey.PMIX_SESSION_APP, PmixDataType.PMIX_DATA_ARRAY, List.of(SLEEP));
    assertThat(apps.isAppArray()).isTrue();
    assertThat(apps.isInfoArray()).isFalse();
    assertThat(apps.appsValue()).containsExactly(SLEEP);
    assertThatThrownBy(apps::infosValue).isInstanceOf(ClassCastException.class);
    Info infos = Info.of(PmixKey.PMIX_SESSION_JOB, List.of(Info.of(PmixKey.PMIX_MAPBY, "node")));
    assertThat(infos.isInfoArray()).isTrue();
    assertThat(infos.isAppArray()).isFalse();
    Info empty = Info.of(PmixKey.PMIX_SESSION_APP, List.of());
    assertThat(empty.isInfoArray()).isTrue();
    assertThat(empty.isAppArray()).isFalse();
    assertThatThrownBy(
            () ->
                new Info(
                    PmixKey.PMIX_SESSION_APP,
                    PmixDataType.PMIX_DATA_ARRAY,
                    List.of(SLEEP, Info.of(PmixKey.PMIX_MAPBY, "node"))))
        .isInstanceOf(PmixException.class)
        .hasMessageContaining("is not a data array of info or of apps");
  }

  @Test
  void appArraysRoundTripThroughJson() {
    List<Info> infos =
        List.of(new Info(PmixKey.PMIX_SESSION_APP, PmixDataType.PMIX_DATA_ARRAY, List.of(SLEEP)));
    String json = InfoCodec.write(infos);
    assertThat(json)
        .isEqualTo(
            "[{\"key\":\"pmix.ssn.app\",\"type\":\"PMIX_DATA_ARRAY\",\"value\":[{\"cmd\":"
                + "\"/bin/sleep\",\"argv\":[\"sleep\",\"300\"],\"maxprocs\":2,\"infos\":"
                + "[{\"key\":\"pmix.host\",\"type\":\"PMIX_STRING\",\"value\":\"n1\"}]}]}]");
    assertThat(InfoCodec.decode(json)).isEqualTo(infos);
  }

  @Test
  void anAppObjectNeedsOnlyItsCommand() {
    List<Info> got =
        InfoCodec.decode("[{\"key\":\"pmix.ssn.app\",\"value\":[{\"cmd\":\"/bin/true\"}]}]");
    assertThat(got.get(0).appsValue())
        .containsExactly(new App("/bin/true", List.of(), 1, List.of()));
  }

  @Test
  void badAppObjectsAreReportedWithTheirLocation() {
    assertThatThrownBy(
            () ->
                InfoCodec.decode(
                    "[{\"key\":\"pmix.ssn.app\",\"value\":[{\"cmd\":\"\",\"maxprocs\":0,"
                        + "\"argv\":[1],\"extra\":true},{\"key\":\"x\"}]}]"))
        .isInstanceOf(PmixException.class)
        .satisfies(
            e ->
                assertThat(((PmixException) e).problems())
                    .containsExactlyInAnyOrder(
                        "/0/value/0: unexpected member \"extra\" (expected: cmd, argv, maxprocs,"
                            + " infos)",
                        "/0/value/0/cmd: is \"\" (expected: a non-empty string)",
                        "/0/value/0/argv/0: is 1 (expected: a string)",
                        "/0/value/0/maxprocs: is 0 (expected: an integer >= 1)",
                        "/0/value/1: is an object (expected: an app object like the first element)"));
  }

  @Test
  void anAppRefusesBadFieldsWithAPmixException() {
    assertThatThrownBy(() -> new App(null, List.of(), 1, List.of()))
        .isInstanceOf(PmixException.class)
        .hasMessage("app: cmd is missing (expected: an executable)");
    assertThatThrownBy(() -> new App("/bin/x", java.util.Arrays.asList("a", null), 1, List.of()))
        .hasMessage("app: argv holds a null (expected: strings)");
    assertThatThrownBy(() -> new App("/bin/x", List.of(), 1, null))
        .hasMessage("app: infos is missing (expected: a list of info entries)");
  }
}
