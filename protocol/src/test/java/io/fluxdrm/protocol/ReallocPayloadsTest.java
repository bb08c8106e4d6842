package io.fluxdrm.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.schemas.Schemas;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The RFC 51 payload records of the realloc path (shell → job manager → scheduler and back): every
 * payload a record writes validates against its schema in {@code schemas} and reads back to the
 * same record; what the schema refuses, the reader refuses with a located message.
 */
class ReallocPayloadsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String R =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"3\",\"children\":{\"core\":\"0\"}}]}}";
  private static final String R4 =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-3\",\"children\":{\"core\":\"0\"}}]}}";
  private static final String SPEC =
      "{\"version\": 1, \"resources\": [{\"type\": \"slot\", \"count\": 1, \"label\": \"task\","
          + " \"with\": [{\"type\": \"core\", \"count\": 1}]}], \"tasks\": [{\"command\":"
          + " [\"app\"], \"slot\": \"task\", \"count\": {\"per_slot\": 1}}], \"attributes\":"
          + " {\"system\": {\"duration\": 0}}}";

  private static JsonNode json(String text) throws IOException {
    return JSON.readTree(text.replace("%R%", R).replace("%SPEC%", SPEC));
  }

  private static List<ReallocSpecs> specs() throws IOException {
    JsonNode spec = json(SPEC);
    ResourceSet r = ResourceSet.parse(R);
    return List.of(
        new ReallocSpecs(spec, null, null),
        new ReallocSpecs(null, spec, r),
        new ReallocSpecs(spec, spec, r));
  }

  @Test
  void reallocSpecs_written_validateAsShellRealloc() throws IOException {
    for (ReallocSpecs s : specs()) {
      JsonNode out = s.toJson();
      assertThat(Schemas.validate("shell.realloc-request", out)).as(out.toString()).isEmpty();
      assertThat(ReallocSpecs.fromJson(out).toJson()).isEqualTo(out);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 42, -1})
  void jobManagerRealloc_written_validatesAndReadsBack(long id) throws IOException {
    for (ReallocSpecs s : specs()) {
      JsonNode out = new JobManagerRealloc(id, s).toJson();
      assertThat(Schemas.validate("job-manager.realloc-request", out)).isEmpty();
      JobManagerRealloc back = JobManagerRealloc.fromJson(out);
      assertThat(back.id()).isEqualTo(id);
      assertThat(back.toJson()).isEqualTo(out);
      assertThat(out.fieldNames()).toIterable().first().isEqualTo("id");
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 42, -1})
  void schedRealloc_written_validatesAndReadsBack(long id) throws IOException {
    for (ReallocSpecs s : specs()) {
      JsonNode out = new SchedRealloc(id, s).toJson();
      assertThat(Schemas.validate("sched.realloc-request", out)).isEmpty();
      assertThat(SchedRealloc.fromJson(out).toJson()).isEqualTo(out);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"id": 1, "spec_add": %SPEC%}                   | -
          {"id": 1, "spec_sub": %SPEC%, "R": %R%}         | -
          {"spec_add": %SPEC%}                            | /id: missing (expected: an integer from 0 to 18446744073709551615)
          {"id": -1, "spec_add": %SPEC%}                  | /id: -1 (expected: an integer from 0 to 18446744073709551615)
          {"id": 1}                                       | /: no spec_add and no spec_sub (expected: at least one)
          {"id": 1, "spec_add": 5}                        | /spec_add: number (expected: a jobspec object)
          {"id": 1, "spec_add": %SPEC%, "spec_sub": "x"}  | /spec_sub: string (expected: a jobspec object)
          {"id": 1, "spec_sub": %SPEC%, "R": {"version": 2}} | /R:
          """)
  void jobManagerRealloc_fromJson_agreesWithSchema(String text, String error) throws IOException {
    JsonNode p = json(text);
    List<?> violations = Schemas.validate("job-manager.realloc-request", p);
    if (error.equals("-")) {
      assertThat(violations).isEmpty();
      JsonNode back = JobManagerRealloc.fromJson(p).toJson();
      assertThat(Schemas.validate("job-manager.realloc-request", back)).isEmpty();
      assertThat(JobManagerRealloc.fromJson(back)).isEqualTo(JobManagerRealloc.fromJson(p));
      assertThat(back.get("spec_add")).isEqualTo(p.get("spec_add"));
    } else {
      assertThat(violations).isNotEmpty();
      assertThatThrownBy(() -> JobManagerRealloc.fromJson(p))
          .isInstanceOf(ProtocolException.class)
          .hasMessageStartingWith(error);
    }
  }

  @Test
  void reallocAnswer_written_validatesAsEachHopSendsIt() {
    ResourceSet r = ResourceSet.parse(R);
    ResourceSet jobR = ResourceSet.parse(R4);
    List<ReallocAnswer> answers =
        List.of(
            new ReallocAnswer(7, ReallocResponseType.SUCCESS, r, ResourceSet.empty(), null),
            new ReallocAnswer(-1, ReallocResponseType.SUCCESS, ResourceSet.empty(), r, "shrunk"),
            ReallocAnswer.of(0, ReallocResponseType.DENY, "no"),
            ReallocAnswer.of(3, ReallocResponseType.CANCEL, null),
            ReallocAnswer.of(0, ReallocResponseType.UNSUPPORTED, ""));
    for (ReallocAnswer a : answers) {
      JsonNode sched = a.toJson();
      assertThat(Schemas.validate("sched.realloc-response", sched)).as(sched.toString()).isEmpty();
      JsonNode withR = a.toJson(jobR);
      assertThat(Schemas.validate("job-manager.realloc-response", withR)).isEmpty();
      assertThat(Schemas.validate("shell.realloc-response", withR)).isEmpty();
      assertThat(ReallocAnswer.fromJson(sched)).isEqualTo(a);
      assertThat(ReallocAnswer.fromJson(withR)).isEqualTo(a);
      assertThat(ReallocAnswer.fromJson(sched).toJson()).isEqualTo(sched);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"alloc_id": 1, "type": 0, "R_delta_add": %R%}        | -
          {"alloc_id": 1, "type": 1, "note": "full"}            | -
          {"alloc_id": 1, "type": 7}                            | /type: 7 (expected: 0 to 3)
          {"alloc_id": 1}                                       | /type: null (expected: 0 to 3)
          {"alloc_id": 1, "type": "0"}                          | /type: "0" (expected: 0 to 3)
          {"type": 1}                                           | /alloc_id: missing (expected: an integer from 0 to 18446744073709551615)
          {"alloc_id": 1.5, "type": 1}                          | /alloc_id: 1.5 (expected: an integer from 0 to 18446744073709551615)
          {"alloc_id": 1, "type": 1, "note": 3}                 | /note: 3 (expected: a string)
          {"alloc_id": 1, "type": 0}                            | /: SUCCESS without R_delta_add or R_delta_sub (expected: one of them)
          {"alloc_id": 1, "type": 0, "R_delta_sub": {"version": 2}} | /R_delta_sub:
          """)
  void reallocAnswer_fromJson_agreesWithSchema(String text, String error) throws IOException {
    JsonNode p = json(text);
    List<?> violations = Schemas.validate("sched.realloc-response", p);
    if (error.equals("-")) {
      assertThat(violations).isEmpty();
      JsonNode back = ReallocAnswer.fromJson(p).toJson();
      assertThat(Schemas.validate("sched.realloc-response", back)).isEmpty();
      assertThat(ReallocAnswer.fromJson(back)).isEqualTo(ReallocAnswer.fromJson(p));
      assertThat(back.get("note")).isEqualTo(p.get("note"));
    } else {
      assertThat(violations).isNotEmpty();
      assertThatThrownBy(() -> ReallocAnswer.fromJson(p))
          .isInstanceOf(ProtocolException.class)
          .hasMessageStartingWith(error);
    }
  }

  @Test
  void reallocAnswer_deltasOnSuccessOnly() {
    ResourceSet r = ResourceSet.parse(R);
    assertThatThrownBy(
            () -> new ReallocAnswer(1, ReallocResponseType.DENY, r, ResourceSet.empty(), null))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("/: DENY with R_delta_add or R_delta_sub (expected: deltas on SUCCESS only)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3", "0-3,7", "2147483647"})
  void shellRanks_written_validatesForReleaseAndTaskExit(String ranks) {
    JsonNode out = new ShellRanks(IdSet.parse(ranks)).toJson();
    assertThat(Schemas.validate("shell.release-request", out)).isEmpty();
    assertThat(Schemas.validate("shell.task-exit-request", out)).isEmpty();
    assertThat(ShellRanks.fromJson(out).toJson()).isEqualTo(out);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {}                 | /ranks: missing (expected: an idset string)
          {"ranks": 3}       | /ranks: 3 (expected: an idset string)
          {"ranks": "x"}     | /ranks:
          """)
  void shellRanks_fromJson_agreesWithSchema(String text, String error) throws IOException {
    JsonNode p = json(text);
    assertThat(Schemas.validate("shell.release-request", p)).isNotEmpty();
    assertThat(Schemas.validate("shell.task-exit-request", p)).isNotEmpty();
    assertThatThrownBy(() -> ShellRanks.fromJson(p))
        .isInstanceOf(ProtocolException.class)
        .hasMessageStartingWith(error);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 42, -1})
  void jobManagerRelease_written_validates(long id) {
    JsonNode out = new JobManagerRelease(id, IdSet.parse("2-3")).toJson();
    assertThat(Schemas.validate("job-manager.release-request", out)).isEmpty();
    assertThat(out.toString()).endsWith(",\"ranks\":\"2-3\",\"final\":false}");
  }

  @Test
  void jobR_written_validatesForBothReleases() throws IOException {
    JsonNode out = new JobR(ResourceSet.parse(R4)).toJson();
    assertThat(Schemas.validate("job-manager.release-response", out)).isEmpty();
    assertThat(Schemas.validate("shell.release-response", out)).isEmpty();
    assertThat(JobR.fromJson(out).toJson()).isEqualTo(out);
    JsonNode bad = json("{\"R\": {\"version\": 2}}");
    assertThat(Schemas.validate("shell.release-response", bad)).isNotEmpty();
    assertThatThrownBy(() -> JobR.fromJson(bad)).hasMessageStartingWith("/R:");
    assertThatThrownBy(() -> JobR.fromJson(json("{}")))
        .hasMessage("/R: missing (expected: present)");
  }
}
