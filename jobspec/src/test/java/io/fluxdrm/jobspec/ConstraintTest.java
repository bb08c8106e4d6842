package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.rset.Constraint;
import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConstraintTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String s) throws IOException {
    return JSON.readTree(s);
  }

  @Test
  void parse_nestedConstraint_sealedValueTree() throws IOException {
    Constraint c =
        ConstraintRules.parse(
            json(
                "{\"and\":[{\"hostlist\":[\"host[0-1]\"]},{\"not\":[{\"properties\":[\"^ssd\"]}]},{\"or\":[{\"ranks\":[\"0-3\"]}]}]}"));
    assertThat(c)
        .isEqualTo(
            new Constraint.And(
                List.of(
                    new Constraint.Hostlist(List.of("host[0-1]")),
                    new Constraint.Not(List.of(new Constraint.Properties(List.of("^ssd")))),
                    new Constraint.Or(List.of(new Constraint.Ranks(List.of("0-3")))))));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"properties\":[\"ssd\",\"^slow\",\"amd-mi50@gpu\"]}",
        "{\"hostlist\":[\"node[0-3,7],login1\",\"a[00-09]-eth2\",\"\"]}",
        "{\"ranks\":[\"0\",\"[1-3,5]\",\"2147483647\",\"\",\"[]\"]}",
        "{\"and\":[]}",
        "{\"or\":[]}",
        "{\"not\":[]}",
        "{\"not\":[{\"and\":[{\"ranks\":[\"1\"]},{\"ranks\":[\"2\"]}]}]}"
      })
  void parse_wellFormed_toJsonRoundTrips(String text) throws IOException {
    Constraint c = ConstraintRules.parse(json(text));
    assertThat(c.toJson()).isEqualTo(json(text));
    assertThat(ConstraintRules.parse(c.toJson())).isEqualTo(c);
  }

  @Test
  void parse_emptyObject_matchesEverythingAsEmptyAnd() throws IOException {
    assertThat(ConstraintRules.parse(json("{}"))).isEqualTo(new Constraint.And(List.of()));
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = "=>",
      textBlock =
          """
          [\"ssd\"] => /: an array (expected: an object)
          {\"properties\":[\"a\"],\"not\":[]} => /: has 2 operators [properties, not] (expected: exactly one per object)
          {\"near\":[\"a\"]} => /near: unknown operator "near" (expected: one of properties, hostlist, ranks, and, or, not)
          {\"ranks\":\"0-3\"} => /ranks: a string (expected: an array)
          {\"ranks\":[3]} => /ranks/0: an integer (expected: a string)
          {\"ranks\":[\"1,1\"]} => /ranks/0: idset "1,1": "1" is out of order (expected: ascending)
          {\"ranks\":[\"01\"]} => /ranks/0: idset "01": "01" is not a decimal id or range
          {\"ranks\":[\"3-3\"]} => /ranks/0: idset "3-3": "3-3" ends before it starts
          {\"ranks\":[\"2147483648\"]} => /ranks/0: idset "2147483648": "2147483648" is larger than 2147483647
          {\"ranks\":[\"[0-1\"]} => /ranks/0: idset "[0-1": unbalanced brackets
          {\"hostlist\":[\"foo[]\"]} => /hostlist/0: hostlist "foo[]": "foo[]" has an empty bracket list
          {\"hostlist\":[\"foo[x-y]\"]} => /hostlist/0: hostlist "foo[x-y]": "foo[x-y]": "x-y" is not a number or range
          {\"hostlist\":[\"foo[0-1,2--5]\"]} => /hostlist/0: hostlist "foo[0-1,2--5]": "foo[0-1,2--5]": "2--5" is not a number or range
          {\"hostlist\":[\"foo]\"]} => /hostlist/0: hostlist "foo]": "foo]" has unbalanced brackets
          {\"hostlist\":[\"a b\"]} => /hostlist/0: hostlist "a b": "a b" contains a space or a non-printable character
          {\"hostlist\":[\"n[0-2000000]\"]} => /hostlist/0: hostlist "n[0-2000000]": "n[0-2000000]": "0-2000000" expands to more than 1048576 hosts
          {\"properties\":[\"^\"]} => /properties/0: property "^": empty name (expected: a property name)
          {\"properties\":[\"a(b)\"]} => /properties/0: property "a(b)": '(' is not allowed (expected: none of & ' " ` | ( ))
          {\"or\":[{\"and\":[{\"ranks\":[\"x\"]}]}]} => /or/0/and/0/ranks/0: idset "x": "x" is not a decimal id or range
          """)
  void parse_malformed_locatedViolation(String text, String expected) throws IOException {
    JsonNode node = json(text);
    assertThatThrownBy(() -> ConstraintRules.parse(node))
        .isInstanceOfSatisfying(
            JobspecException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::toString)
                    .containsExactly(expected));
  }

  @Test
  void parse_manyProblems_allReportedSorted() throws IOException {
    JsonNode node = json("{\"and\":[{\"ranks\":[\"b\"]},{\"hostlist\":[\"[\"]},{\"x\":[]}]}");
    assertThatThrownBy(() -> ConstraintRules.parse(node))
        .isInstanceOfSatisfying(
            JobspecException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::pointer)
                    .containsExactly("/and/0/ranks/0", "/and/1/hostlist/0", "/and/2/x"));
  }
}
