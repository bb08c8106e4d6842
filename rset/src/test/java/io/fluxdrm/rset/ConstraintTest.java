package io.fluxdrm.rset;

import static io.fluxdrm.rset.RText.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** RFC 31 constraints as flux-core's matcher reads and evaluates them. */
class ConstraintTest {

  static Stream<Arguments> parse_invalid_errorLocatesProblem() {
    return RText.table(
        """
        not an object | [] | constraint: /: [] (array) is not an object
        a string | 'properties' | constraint: /: "properties" (string) is not an object
        two keys | {'properties':[],'ranks':[]} | constraint: /: constraint must only contain 1 element
        unknown operator | {'hosts':['a']} | constraint: /hosts: unknown constraint operator: hosts (expected: properties, hostlist, ranks, and, or, not)
        unknown operator not an array | {'nodes':1} | constraint: /nodes: unknown constraint operator: nodes
        properties not an array | {'properties':'a'} | constraint: /properties: "a" (string) is not an array
        hostlist not an array | {'hostlist':'a'} | constraint: /hostlist: "a" (string) is not an array
        ranks not an array | {'ranks':{}} | constraint: /ranks: {} (object) is not an array
        and not an array | {'and':{}} | constraint: /and: {} (object) is not an array
        not not an array | {'not':null} | constraint: /not: null (null) is not an array
        property not a string | {'properties':['a',1]} | constraint: /properties/1: 1 (number) is not a string
        hostlist element not a string | {'hostlist':[null]} | constraint: /hostlist/0: null (null) is not a string
        ranks element not a string | {'ranks':['0',5]} | constraint: /ranks/1: 5 (number) is not a string
        bad hostlist | {'hostlist':['foo[1-']} | constraint: /hostlist/0: hostlist "foo[1-"
        bad ranks | {'ranks':['0-4','x']} | constraint: /ranks/1: idset "x"
        nested problem located | {'or':[{'ranks':['0']},{'not':[{'frob':[]}]}]} | constraint: /or/1/not/0/frob: unknown constraint operator: frob
        nested not an object | {'and':[1]} | constraint: /and/0: 1 (number) is not an object
        truncated JSON | {'properties':[ | constraint: not valid JSON:
        """);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void parse_invalid_errorLocatesProblem(String name, String in, String message) {
    assertThatThrownBy(() -> Constraint.parse(json(in)))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith(message)
        .hasMessageNotContaining("\n");
  }

  @ParameterizedTest(name = "property query with {0} rejected")
  @ValueSource(strings = {"!", "&", "'", "\"", "`", "|", "(", ")"})
  void parse_forbiddenCharInQuery_rejected(String c) {
    String q = "a" + c + "b";
    String doc = "{\"properties\":[\"ok\",\"" + (c.equals("\"") ? "a\\\"b" : q) + "\"]}";
    assertThatThrownBy(() -> Constraint.parse(doc))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith(
            "constraint: /properties/1: invalid character '" + c + "' in property \"" + q + "\"");
  }

  @Test
  void parse_deepNestingTree_rejected() {
    com.fasterxml.jackson.databind.node.ObjectNode doc = RText.MAPPER.createObjectNode();
    com.fasterxml.jackson.databind.node.ObjectNode at = doc;
    for (int i = 0; i < 40; i++) {
      at = at.putArray("not").addObject();
    }
    assertThatThrownBy(() -> Constraint.parse(doc))
        .isInstanceOf(RsetException.class)
        .hasMessageContaining("nested too deeply");
  }

  /**
   * Ranks 0-4 on hosts n0-n4 (rank 4 without a host), properties: batch on 0-1, gpu on 1-2, the
   * empty name on 3.
   */
  private static boolean matches(String constraint, int rank) {
    String host = rank == 4 ? null : "n" + rank;
    Set<String> props =
        switch (rank) {
          case 0 -> Set.of("batch");
          case 1 -> Set.of("batch", "gpu");
          case 2 -> Set.of("gpu");
          case 3 -> Set.of("");
          default -> Set.of();
        };
    Constraint c = Constraint.parse(json(constraint));
    return c.matches(rank, host, (r, name) -> r == rank && props.contains(name));
  }

  static Stream<Arguments> matches_table_ranksThatMatch() {
    return RText.table(
        """
        {} | 0 1 2 3 4
        {'properties':[]} | 0 1 2 3 4
        {'and':[]} | 0 1 2 3 4
        {'or':[]} | 0 1 2 3 4
        {'not':[]} |
        {'properties':['batch']} | 0 1
        {'properties':['batch','gpu']} | 1
        {'properties':['^batch']} | 2 3 4
        {'properties':['^batch','^gpu']} | 3 4
        {'properties':['n2']} | 2
        {'properties':['^n2']} | 0 1 3 4
        {'properties':['n2','gpu']} | 2
        {'properties':['']} | 3
        {'properties':['^']} | 0 1 2 4
        {'properties':['a^b']} |
        {'properties':['^^a']} | 0 1 2 3 4
        {'properties':['nope']} |
        {'hostlist':['n[1-2]','n0']} | 0 1 2
        {'hostlist':[]} |
        {'ranks':['3-9']} | 3 4
        {'ranks':['0','2,4']} | 0 2 4
        {'ranks':[]} |
        {'not':[{'ranks':['0-1']}]} | 2 3 4
        {'not':[{'ranks':['0-2']},{'properties':['gpu']}]} | 0 3 4
        {'or':[{'ranks':['0']},{'properties':['gpu']}]} | 0 1 2
        {'and':[{'ranks':['0-2']},{'properties':['^batch']}]} | 2
        {'and':[{'or':[{'hostlist':['n3']},{'ranks':['4']}]},{'not':[{'ranks':['4']}]}]} | 3
        """);
  }

  @ParameterizedTest(name = "{0} matches ranks [{1}]")
  @MethodSource
  void matches_table_ranksThatMatch(String constraint, String ranks) {
    StringBuilder got = new StringBuilder();
    for (int rank = 0; rank <= 4; rank++) {
      if (matches(constraint, rank)) {
        got.append(got.length() == 0 ? "" : " ").append(rank);
      }
    }
    assertThat(got.toString()).isEqualTo(ranks);
  }

  @Test
  void any_matchesEverything() {
    assertThat(Constraint.any().matches(7, null, (r, n) -> false)).isTrue();
    assertThat(Constraint.parse("{}")).isEqualTo(Constraint.any());
  }
}
