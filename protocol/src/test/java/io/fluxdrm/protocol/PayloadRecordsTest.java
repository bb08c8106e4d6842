package io.fluxdrm.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.schemas.Schemas;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The payload records' codecs against the schemas: every payload a record writes validates, and the
 * schema's own valid and invalid vectors are read or refused alike.
 */
class PayloadRecordsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String R =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"2-3\",\"children\":{\"core\":\"0-1\"}}]}}";

  @ParameterizedTest
  @CsvSource({"0, false", "42, true", "-1, false", "-9223372036854775808, true"})
  void schedFree_written_validatesAndReadsBack(long id, boolean fin) {
    SchedFree f = new SchedFree(id, ResourceSet.parse(R), fin);
    JsonNode out = f.toJson();
    assertThat(Schemas.validate("sched.free-request", out)).isEmpty();
    SchedFree back = SchedFree.fromJson(out);
    assertThat(back.id()).isEqualTo(id);
    assertThat(back.fin()).isEqualTo(fin);
    assertThat(back.toJson()).isEqualTo(out);
    assertThat(out).isEqualTo(FluxPayloads.free(id, ResourceSet.parse(R), fin));
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 5, 4294967295L})
  void schedReallocCancel_written_validatesAndReadsBack(long tag) {
    JsonNode out = new SchedReallocCancel(tag).toJson();
    assertThat(Schemas.validate("sched.realloc_cancel-request", out)).isEmpty();
    assertThat(SchedReallocCancel.fromJson(out).matchtag()).isEqualTo(tag);
    assertThat(out).isEqualTo(FluxPayloads.reallocCancel(tag));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"id": 1, "R": %R%}                    | -
          {"id": 1, "R": %R%, "final": false}    | -
          {"R": %R%}                             | /id: missing (expected: present)
          {"id": 1}                              | /R: missing (expected: present)
          {"id": 1.5, "R": %R%}                  | /id:
          {"id": 1, "R": %R%, "final": 1}        | /final: 1 (expected: a boolean)
          {"id": 1, "R": {"version": 2}}         | /R:
          [1]                                    | /: [1] (expected: an object)
          """)
  void schedFree_fromJson_agreesWithSchema(String text, String error) throws IOException {
    JsonNode p = JSON.readTree(text.replace("%R%", R));
    List<?> violations = Schemas.validate("sched.free-request", p);
    if (error.equals("-")) {
      assertThat(violations).isEmpty();
      assertThat(SchedFree.fromJson(p).toJson().get("id")).isEqualTo(p.get("id"));
    } else {
      assertThat(violations).isNotEmpty();
      assertThatThrownBy(() -> SchedFree.fromJson(p))
          .isInstanceOf(ProtocolException.class)
          .hasMessageStartingWith(error);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"matchtag": 0}            | -
          {"matchtag": 4294967295}   | -
          {"matchtag": 4294967296}   | /matchtag: 4294967296 (expected: 0 to 4294967295)
          {"matchtag": -1}           | /matchtag: -1 (expected: 0 to 4294967295)
          {"matchtag": "5"}          | /matchtag: "5" (expected: an integer)
          {}                         | /matchtag: missing (expected: present)
          """)
  void schedReallocCancel_fromJson_agreesWithSchema(String text, String error) throws IOException {
    JsonNode p = JSON.readTree(text);
    List<?> violations = Schemas.validate("sched.realloc_cancel-request", p);
    if (error.equals("-")) {
      assertThat(violations).isEmpty();
      assertThat(SchedReallocCancel.fromJson(p).toJson().toString()).isEqualTo(p.toString());
    } else {
      assertThat(violations).isNotEmpty();
      assertThatThrownBy(() -> SchedReallocCancel.fromJson(p))
          .isInstanceOf(ProtocolException.class)
          .hasMessage(error);
    }
  }
}
