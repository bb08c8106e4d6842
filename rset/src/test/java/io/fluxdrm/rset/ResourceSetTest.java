package io.fluxdrm.rset;

import static io.fluxdrm.rset.RText.json;
import static io.fluxdrm.rset.RText.nodelist;
import static io.fluxdrm.rset.RText.properties;
import static io.fluxdrm.rset.RText.r;
import static io.fluxdrm.rset.RText.rl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 20 R v1 with flux-core librlist semantics, on the project's own vectors. JSON in the tables
 * is written with single quotes; R_lite in the step tables uses {@link RText}'s notation.
 */
class ResourceSetTest {

  private static RsetException.Reason reason(Throwable e) {
    return ((RsetException) e).reason();
  }

  // ---- parse and canonical encoding ---------------------------------------------------------

  static Stream<Arguments> encode_parsed_canonicalText() {
    return RText.table(
        """
          identical ranks grouped, groups by lowest rank | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0-3'}},{'rank':'1','children':{'core':'0-3','gpu':'0'}},{'rank':'2','children':{'core':'0-3'}}]}} | {'version':1,'execution':{'R_lite':[{'rank':'0,2','children':{'core':'0-3'}},{'rank':'1','children':{'core':'0-3','gpu':'0'}}],'starttime':0.0,'expiration':0.0}}
          one compressed nodelist | {'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0'}}],'nodelist':['foo0','foo[1-2]','foo3']}} | {'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0,'nodelist':['foo[0-3]']}}
          times always reals | {'version':1,'execution':{'R_lite':[],'starttime':5,'expiration':1795966031.0037868}} | {'version':1,'execution':{'R_lite':[],'starttime':5.0,'expiration':1795966031.0037868,'nodelist':['']}}
          time with exponent written plainly | {'version':1,'execution':{'R_lite':[],'starttime':1e10,'expiration':0}} | {'version':1,'execution':{'R_lite':[],'starttime':10000000000.0,'expiration':0.0,'nodelist':['']}}
          negative times unset | {'version':1,'execution':{'R_lite':[],'starttime':-5,'expiration':-0.5}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          nslots kept when positive | {'version':1,'execution':{'R_lite':[],'nslots':4}} | {'version':1,'execution':{'R_lite':[],'nslots':4,'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          nslots 0 dropped | {'version':1,'execution':{'R_lite':[],'nslots':0}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          nslots negative dropped | {'version':1,'execution':{'R_lite':[],'nslots':-2}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          properties by name | {'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0'}}],'properties':{'debug':'3','batch':'0-1'}}} | {'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0,'properties':{'batch':'0-1','debug':'3'}}}
          empty property dropped | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'x':''}}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0}}
          property names as flux allows them | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'':'0','a!@: b':'0'}}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0,'properties':{'':'0','a!@: b':'0'}}}
          scheduling kept verbatim | {'version':1,'execution':{'R_lite':[]},'scheduling':{'writer':'fluxion','graph':[1,2.5,null]}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']},'scheduling':{'writer':'fluxion','graph':[1,2.5,null]}}
          scheduling reals kept reals | {'version':1,'execution':{'R_lite':[]},'scheduling':{'a':1.0,'b':2.50,'c':1e3,'d':-0.0,'e':7}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']},'scheduling':{'a':1.0,'b':2.50,'c':1000.0,'d':0.0,'e':7}}
          scheduling null kept | {'version':1,'execution':{'R_lite':[]},'scheduling':null} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']},'scheduling':null}
          scheduling scalar kept | {'version':1,'execution':{'R_lite':[]},'scheduling':42} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']},'scheduling':42}
          empty set has nodelist of empty string | {'version':1,'execution':{'R_lite':[]}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          empty R_lite object means no entry | {'version':1,'execution':{'R_lite':{}}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          empty nodelist string re-parses | {'version':1,'execution':{'R_lite':[],'nodelist':['']}} | {'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,'nodelist':['']}}
          target without resources left out of R_lite only | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}},{'rank':'1','children':{'core':''}}],'nodelist':['foo[0-1]'],'properties':{'x':'1'}}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0,'nodelist':['foo[0-1]'],'properties':{'x':'1'}}} | fails
          empty gpu set keeps ranks apart | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0','gpu':''}},{'rank':'1','children':{'core':'0'}}]}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}},{'rank':'1','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0}} | regroups
          ranks sorted by nodelist | {'version':1,'execution':{'R_lite':[{'rank':'1','children':{'core':'0-7'}},{'rank':'0','children':{'core':'0-1'}}],'starttime':0,'expiration':0,'nodelist':['f[0-1]']}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0-1'}},{'rank':'1','children':{'core':'0-7'}}],'starttime':0.0,'expiration':0.0,'nodelist':['f[0-1]']}}
          repeated rank merged | {'version':1,'execution':{'R_lite':[{'rank':'0-1','children':{'core':'0-1'}},{'rank':'0','children':{'gpu':'0'}},{'rank':'1','children':{'core':'2'}}]}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0-1','gpu':'0'}},{'rank':'1','children':{'core':'0-2'}}],'starttime':0.0,'expiration':0.0}}
          unknown keys ignored | {'version':1,'attributes':{'system':{}},'execution':{'R_lite':[{'rank':'0','node':'x','children':{'core':'0'}}],'other':1}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0}}
          any resource type kept core first | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'gpu':'0','foo':'3-5','core':'0'}}]}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0','foo':'3-5','gpu':'0'}}],'starttime':0.0,'expiration':0.0}}
          gpus without cores | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'','gpu':'0'}}]}} | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'gpu':'0'}}],'starttime':0.0,'expiration':0.0}}
          bracketed rank idset | {'version':1,'execution':{'R_lite':[{'rank':'[0-2,5]','children':{'core':'[0-1]'}}]}} | {'version':1,'execution':{'R_lite':[{'rank':'0-2,5','children':{'core':'0-1'}}],'starttime':0.0,'expiration':0.0}}
          hosts shared by ranks | {'version':1,'execution':{'R_lite':[{'rank':'0-1','children':{'core':'0'}}],'nodelist':['foo,foo']}} | {'version':1,'execution':{'R_lite':[{'rank':'0-1','children':{'core':'0'}}],'starttime':0.0,'expiration':0.0,'nodelist':['foo,foo']}}
          """);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void encode_parsed_canonicalText(String name, String in, String out, String roundTrip) {
    ResourceSet r = r(in);
    assertThat(r.toString()).isEqualTo(json(out));
    if (roundTrip == null) {
      ResourceSet again = ResourceSet.parse(r.toString());
      assertThat(again).isEqualTo(r);
      assertThat(again.toString()).isEqualTo(r.toString());
      assertThat(ResourceSet.fromJson(r.toJson())).isEqualTo(r);
    } else if (roundTrip.equals("fails")) {
      // as flux-core: the target without resources keeps its host but leaves R_lite
      assertThatThrownBy(() -> ResourceSet.parse(r.toString()))
          .hasMessageContaining("/execution/nodelist: names");
    } else {
      // as flux-core: an empty type is not written, so the re-read ranks group together
      ResourceSet again = ResourceSet.parse(r.toString());
      assertThat(again).isNotEqualTo(r);
      assertThat(again.toString()).isNotEqualTo(r.toString());
      assertThat(again.summary()).isEqualTo("rank[0-1]/core0");
      assertThat(r.summary()).isEqualTo("rank0/core0 rank1/core0");
    }
  }

  static Stream<Arguments> parse_invalid_errorLocatesProblem() {
    return RText.table(
        """
          not an object | [] | R: the document is [] (array) (expected: an RFC 20 R object)
          a string | 'x' | R: the document is "x" (string) (expected: an RFC 20 R object)
          version missing | {} | R: /version: is missing (expected: 1)
          version a string | {'version':'1','execution':{'R_lite':[]}} | R: /version: "1" (string) is not an integer (expected: 1)
          version a real | {'version':1.0,'execution':{'R_lite':[]}} | R: /version: 1.0 (number) is not an integer (expected: 1)
          version unknown | {'version':2,'execution':{'R_lite':[]}} | R: /version: invalid version=2 (expected: 1)
          version huge | {'version':4294967297,'execution':{'R_lite':[]}} | R: /version: invalid version=4294967297 (expected: 1)
          execution missing | {'version':1} | R: /execution: is missing (expected: an object)
          execution an array | {'version':1,'execution':[]} | R: /execution: [] (array) is not an object
          R_lite missing | {'version':1,'execution':{}} | R: /execution/R_lite: is missing (expected: an array)
          R_lite a string | {'version':1,'execution':{'R_lite':'0'}} | R: /execution/R_lite: "0" (string) is not an array
          R_lite a non-empty object | {'version':1,'execution':{'R_lite':{'rank':'0'}}} | R: /execution/R_lite: {"rank":"0"} (object) is not an array
          entry not an object | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}},1]}} | R: /execution/R_lite/1: 1 (number) is not an object (expected: {rank, children})
          rank missing | {'version':1,'execution':{'R_lite':[{'children':{'core':'0'}}]}} | R: /execution/R_lite/0/rank: is missing (expected: an idset string)
          rank a number | {'version':1,'execution':{'R_lite':[{'rank':0,'children':{'core':'0'}}]}} | R: /execution/R_lite/0/rank: 0 (number) is not a string (expected: an idset string)
          rank a bad idset | {'version':1,'execution':{'R_lite':[{'rank':'2,1','children':{'core':'0'}}]}} | R: /execution/R_lite/0/rank: idset "2,1"
          rank repeated in its idset | {'version':1,'execution':{'R_lite':[{'rank':'1,1','children':{'core':'0'}}]}} | R: /execution/R_lite/0/rank: idset "1,1"
          children missing | {'version':1,'execution':{'R_lite':[{'rank':'0'}]}} | R: /execution/R_lite/0/children: is missing (expected: an object)
          children an array | {'version':1,'execution':{'R_lite':[{'rank':'0','children':['core']}]}} | R: /execution/R_lite/0/children: ["core"] (array) is not an object
          child a number | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':0}}]}} | R: /execution/R_lite/0/children/core: 0 (number) is not a string (expected: an idset string)
          child a bad idset | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'gpu':'0-'}}]}} | R: /execution/R_lite/0/children/gpu: idset "0-"
          child name escaped in pointer | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'a/b~c':'x'}}]}} | R: /execution/R_lite/0/children/a~1b~0c: idset "x"
          ids twice on a rank | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0-1'}},{'rank':'0','children':{'core':'1-2'}}]}} | R: /execution/R_lite/1: rank 0 has core 1 more than once (expected: each id once per rank)
          gpu ids twice on a rank | {'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0','gpu':'0-3'}},{'rank':'2','children':{'gpu':'2-5'}}]}} | R: /execution/R_lite/1: rank 2 has gpu 2-3 more than once (expected: each id once per rank)
          nodelist a string | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'nodelist':'foo'}} | R: /execution/nodelist: "foo" (string) is not an array (expected: an array of hostlists)
          nodelist element a number | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'nodelist':[1]}} | R: /execution/nodelist/0: 1 (number) is not a string (expected: a hostlist)
          nodelist element a bad hostlist | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'nodelist':['foo[1-']}} | R: /execution/nodelist/0: hostlist "foo[1-"
          fewer hosts than ranks | {'version':1,'execution':{'R_lite':[{'rank':'0-1','children':{'core':'0'}}],'nodelist':['a']}} | R: /execution/nodelist: names 1 host for 2 ranks (expected: one host per rank)
          more hosts than ranks | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'nodelist':['a','b[0-1]']}} | R: /execution/nodelist: names 3 hosts for 1 rank (expected: one host per rank)
          hosts for an empty set | {'version':1,'execution':{'R_lite':[],'nodelist':['a']}} | R: /execution/nodelist: names 1 host for 0 ranks (expected: one host per rank)
          properties a string | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':'foo'}} | R: /execution/properties: "foo" (string): properties must be an object
          properties null | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':null}} | R: /execution/properties: null (null): properties must be an object
          property value a number | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'foo':1}}} | R: /execution/properties/foo: properties value '1' not a string (expected: an idset)
          property name with ^ | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'fo^o':'0'}}} | R: /execution/properties/fo^o: invalid character '^' in property "fo^o"
          property value a bad idset | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'foo':'x-y'}}} | R: /execution/properties/foo: invalid idset 'x-y' specified for property "foo"
          property on an absent rank | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'ok':'0','x':'5'}}} | R: /execution/properties/x: rank 5 not found in target resource list
          property on absent ranks | {'version':1,'execution':{'R_lite':[{'rank':'1-10','children':{'core':'0'}}],'properties':{'foo':'1-30'}}} | R: /execution/properties/foo: ranks 11-30 not found in target resource list
          first bad property reported | {'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],'properties':{'a':'7','b&':'0'}}} | R: /execution/properties/b&: invalid character '&' in property "b&"
          nslots a string | {'version':1,'execution':{'R_lite':[],'nslots':'4'}} | R: /execution/nslots: "4" (string) is not an integer
          nslots a real | {'version':1,'execution':{'R_lite':[],'nslots':1.5}} | R: /execution/nslots: 1.5 (number) is not an integer
          starttime a string | {'version':1,'execution':{'R_lite':[],'starttime':'0'}} | R: /execution/starttime: "0" (string) is not a number (expected: epoch seconds)
          starttime null | {'version':1,'execution':{'R_lite':[],'starttime':null}} | R: /execution/starttime: null (null) is not a number (expected: epoch seconds)
          expiration a boolean | {'version':1,'execution':{'R_lite':[],'expiration':true}} | R: /execution/expiration: true (boolean) is not a number (expected: epoch seconds)
          expiration beyond a double | {'version':1,'execution':{'R_lite':[],'expiration':1e400}} | R: /execution/expiration: 1E+400 is out of range (expected: epoch seconds)
          too many ranks | {'version':1,'execution':{'R_lite':[{'rank':'0-1048576','children':{'core':'0'}}]}} | R: /execution/R_lite/0/rank: R names more than 1048576 ranks (expected: at most that many)
          too many ranks over entries | {'version':1,'execution':{'R_lite':[{'rank':'0-1048575','children':{'core':'0'}},{'rank':'2000000','children':{'core':'0'}}]}} | R: /execution/R_lite/1/rank: R names more than 1048576 ranks (expected: at most that many)
          """);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void parse_invalid_errorLocatesProblem(String name, String in, String message) {
    assertThatThrownBy(() -> r(in))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith(message)
        .hasMessageNotContaining("\n")
        .satisfies(e -> assertThat(e.getMessage()).doesNotEndWith("."));
  }

  @ParameterizedTest(name = "property name with {0} rejected")
  @ValueSource(strings = {"^", "&", "'", "\"", "`", "|", "(", ")"})
  void parse_forbiddenCharInPropertyName_rejected(String c) {
    String doc =
        "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0\"}}],"
            + "\"properties\":{\"a"
            + (c.equals("\"") ? "\\\"" : c)
            + "b\":\"0\"}}}";
    assertThatThrownBy(() -> ResourceSet.parse(doc))
        .isInstanceOf(RsetException.class)
        .hasMessageContaining("invalid character '" + c + "' in property \"a" + c + "b\"");
  }

  static Stream<Arguments> parse_notJson_notValidJsonWithPlace() {
    return RText.table(
        """
          truncated | {'version':1,'execution':{'R_lite':[
          truncated string | {'version':1,'execution':{'R_lite':[{'rank':'0
          trailing garbage | {'version':1,'execution':{'R_lite':[]}} xyz
          two documents | {'version':1,'execution':{'R_lite':[]}}{}
          duplicate key | {'version':1,'version':1,'execution':{'R_lite':[]}}
          not JSON | garbage
          empty text |
          """);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void parse_notJson_notValidJsonWithPlace(String name, String in) {
    assertThatThrownBy(() -> r(in))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith("R: ")
        .hasMessageNotContaining("\n")
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .containsAnyOf("not valid JSON", "the document is")
                    .doesNotContain("Exception"));
  }

  @Test
  void parse_duplicateIds_reasonExists() {
    assertThatThrownBy(() -> rl("0:core=0-1 0:core=1-2"))
        .extracting(ResourceSetTest::reason)
        .isEqualTo(RsetException.Reason.EXISTS);
  }

  @Test
  void parse_propertyOnAbsentRank_reasonNotFound() {
    assertThatThrownBy(
            () ->
                r(
                    "{'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],"
                        + "'properties':{'x':'5'}}}"))
        .extracting(ResourceSetTest::reason)
        .isEqualTo(RsetException.Reason.NOT_FOUND);
  }

  @Test
  void parse_tooManyRanks_reasonRange() {
    assertThatThrownBy(() -> rl("0-1048576:core=0"))
        .extracting(ResourceSetTest::reason)
        .isEqualTo(RsetException.Reason.RANGE);
  }

  @Test
  void parse_maximumRanks_accepted() {
    ResourceSet r = rl("0-1048575:core=0");
    assertThat(r.nnodes()).isEqualTo(ResourceSet.MAX_RANKS);
    assertThat(r.count("core")).isEqualTo(ResourceSet.MAX_RANKS);
  }

  @Test
  void parse_schedulingNullVersusAbsent_kept() {
    assertThat(r("{'version':1,'execution':{'R_lite':[]},'scheduling':null}").scheduling())
        .isEqualTo(NullNode.getInstance());
    assertThat(r("{'version':1,'execution':{'R_lite':[]}}").scheduling()).isNull();
  }

  @Test
  void ofHostNames_isOfWithTheirHostlist_andCountsThem() {
    IdSet ranks = IdSet.of(1, 3, 4);
    assertThat(
            ResourceSet.ofHostNames(
                ranks, IdSet.range(0, 3), IdSet.of(0), List.of("a1", "a3", "b")))
        .isEqualTo(
            ResourceSet.of(ranks, IdSet.range(0, 3), IdSet.of(0), Hostlist.parse("a[1,3],b")));
    assertThatThrownBy(
            () -> ResourceSet.ofHostNames(ranks, IdSet.of(0), IdSet.empty(), List.of("a")))
        .isInstanceOf(RsetException.class)
        .hasMessage("R: 1 hosts for 3 ranks (expected: one host per rank)");
  }

  @Test
  void toJsonBytes_withPropertiesSchedulingAndTimes_isTheTreeWrittenCompact() {
    for (String doc :
        List.of(
            "{'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0-7','gpu':'0'}},"
                + "{'rank':'4','children':{'core':'0-3'}}],'nslots':9,'starttime':1796617984.34,"
                + "'expiration':1e10,'nodelist':['n[0-4]'],'properties':{'b':'4','a':'0-1'}},"
                + "'scheduling':{'graph':{'nodes':[1.5e3,-0.0,'x'],'edges':null}}}",
            "{'version':1,'execution':{'R_lite':[]},'scheduling':null}",
            "{'version':1,'execution':{'R_lite':[]}}")) {
      ResourceSet r = r(doc);
      assertThat(new String(r.toJsonBytes(), StandardCharsets.UTF_8))
          .as(doc)
          .isEqualTo(r.toString());
    }
  }

  @Test
  void scheduling_returnedCopy_doesNotChangeSet() {
    ResourceSet r = r("{'version':1,'execution':{'R_lite':[]},'scheduling':{'a':[1]}}");
    ((com.fasterxml.jackson.databind.node.ObjectNode) r.scheduling()).put("b", 2);
    assertThat(r.toString()).endsWith("\"scheduling\":{\"a\":[1]}}");
  }

  @Test
  void parse_timesAndNslots_exposed() {
    ResourceSet r =
        r("{'version':1,'execution':{'R_lite':[],'nslots':3,'starttime':1.5,'expiration':9}}");
    assertThat(r.starttime()).isEqualTo(1.5);
    assertThat(r.expiration()).isEqualTo(9.0);
    assertThat(r.nslots()).isEqualTo(3);
  }

  // ---- queries ------------------------------------------------------------------------------

  @Test
  void counts_mixedTargets_countEveryType() {
    ResourceSet r =
        ResourceSet.parse(
            RText.lite("0-1:core=0-3+gpu=0-1 2:core=0+foo=3-5 3:core=", "n[0-3]")
                .replace("}]", "}],\"properties\":{\"big\":\"0-1\",\"none\":\"3\"}"));
    assertThat(r.nnodes()).isEqualTo(4);
    assertThat(r.isEmpty()).isFalse();
    assertThat(r.count("core")).isEqualTo(9);
    assertThat(r.count("gpu")).isEqualTo(4);
    assertThat(r.count("foo")).isEqualTo(3);
    assertThat(r.count("cores")).isZero();
    assertThat(r.ranks()).hasToString("0-3");
    assertThat(r.resources(2, "foo")).hasToString("3-5");
    assertThat(r.resources(2, "gpu").isEmpty()).isTrue();
    assertThat(r.resources(9, "core").isEmpty()).isTrue();
    assertThat(r.host(3)).isEqualTo("n3");
    assertThat(r.host(9)).isNull();
    assertThat(r.hasEmptyTarget()).isTrue();
    assertThat(r.hasNodelist()).isTrue();
    assertThat(r.nodelist()).hasToString("n[0-3]");
    assertThat(properties(r)).isEqualTo("big=0-1 none=3");
    assertThat(r.summary()).isEqualTo("rank[0-1]/core[0-3],gpu[0-1] rank2/core0,foo[3-5]");
  }

  @Test
  void nodelist_rankWithoutHost_notFound() {
    ResourceSet r = rl("0-1:core=0");
    assertThat(r.hasNodelist()).isFalse();
    assertThat(r.host(0)).isNull();
    assertThatThrownBy(r::nodelist)
        .isInstanceOf(RsetException.class)
        .hasMessage("R: rank 0 has no host name (R has no nodelist)")
        .extracting(ResourceSetTest::reason)
        .isEqualTo(RsetException.Reason.NOT_FOUND);
  }

  @Test
  void empty_everyQuery_nothing() {
    ResourceSet e = ResourceSet.empty();
    assertThat(e.isEmpty()).isTrue();
    assertThat(e.nnodes()).isZero();
    assertThat(e.count("core")).isZero();
    assertThat(e.summary()).isEmpty();
    assertThat(e.ranks().isEmpty()).isTrue();
    assertThat(e.nodelist().isEmpty()).isTrue();
    assertThat(e.hasNodelist()).isTrue();
    assertThat(e).isEqualTo(rl(""));
    assertThat(e.toString())
        .isEqualTo(
            json(
                "{'version':1,'execution':{'R_lite':[],'starttime':0.0,'expiration':0.0,"
                    + "'nodelist':['']}}"));
  }

  // ---- summary ------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0} hosts {1} -> \"{2}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0:core=0 1:core=1 2:core=2 3:core=3      | -        | rank0/core0 rank1/core1 rank2/core2 rank3/core3
          0:core=0-3 1-2:core=0-1                 | -        | rank0/core[0-3] rank[1-2]/core[0-1]
          0-1:core=0-1 2-3:core=0-1+gpu=0-1       | -        | rank[0-1]/core[0-1] rank[2-3]/core[0-1],gpu[0-1]
          0:core=+gpu=0                           | -        | rank0/gpu0
          0:core=0 1:core=0-1 2:core=0            | -        | rank[0,2]/core0 rank1/core[0-1]
          1:core=0 0:core=0-1 2:core=0            | -        | rank[1-2]/core0 rank0/core[0-1]
          1:core=0 0:core=0-1 2:core=0            | n[0-2]   | rank0/core[0-1] rank[1-2]/core0
          0:core=0+gpu= 1:core=0                  | -        | rank0/core0 rank1/core0
          0:core=                                 | -        | ''
          ''                                      | -        | ''
          1,3,5:core=0-3+gpu=0                    | -        | rank[1,3,5]/core[0-3],gpu0
          0:gpu=1+core=1+aaa=2+zzz=3              | -        | rank0/core1,aaa2,gpu1,zzz3
          0:core=0-3 1:core=0-7 1234567:core=0-12345 1234568:core=0-12346 | - | rank0/core[0-3] rank1/core[0-7] rank1234567/core[0-12345] rank1234568/core[0-12346]
          """)
  void summary_groupsInOrderOfFirstAppearance(String lite, String hosts, String expected) {
    assertThat(rl(lite, hosts).summary()).isEqualTo(expected);
  }

  // ---- union --------------------------------------------------------------------------------

  @ParameterizedTest(name = "[{0}]@{1} + [{2}]@{3} = {4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0:core=0-3            | foo15  | 0:core=0-3               | foo15  | rank0/core[0-3]                  | foo15
          0:core=0-3+gpu=0-1    | foo15  | 1:core=0-3+gpu=0-1       | foo16  | rank[0-1]/core[0-3],gpu[0-1]     | foo[15-16]
          0:core=0-3            | foo15  | 0:core=+gpu=0            | foo15  | rank0/core[0-3],gpu0             | foo15
          0:core=0-3            | foo0   | 0:core=0-7               | foo0   | rank0/core[0-7]                  | foo0
          0-1:core=0-3          | foo[16,15] | 0:core=0-3           | foo16  | rank[0-1]/core[0-3]              | foo[16,15]
          0:core=0 1:core=1     | -      | 0:core=0                 | -      | rank1/core1 rank0/core0          | -
          0:core=0-1 1:core=2   | -      | 1:core=3 0:core=1        | -      | rank1/core[2-3] rank0/core[0-1]  | -
          0:core=0-1 1:core=0-1 2:core=5 | - | 1:core=2 3:core=0 | -    | rank0/core[0-1] rank2/core5 rank1/core[0-2] rank3/core0 | -
          0:core=0-1            | a0     | 0:core=1                 | b0     | rank0/core[0-1]                  | a0
          0:core=1              | a0     | 0:core=0-1               | b0     | rank0/core[0-1]                  | b0
          0:core=0-1            | -      | 0:core=1                 | b0     | rank0/core[0-1]                  | -
          0:core=1              | -      | 0:core=0-1               | b0     | rank0/core[0-1]                  | b0
          ''                    | -      | 0-1:core=0               | n[0-1] | rank[0-1]/core0                  | n[0-1]
          0-1:core=0            | n[0-1] | ''                       | -      | rank[0-1]/core0                  | n[0-1]
          """)
  void union_table_summaryAndHosts(
      String a, String ah, String b, String bh, String summary, String hosts) {
    ResourceSet u = rl(a, ah).union(rl(b, bh));
    assertThat(u.summary()).isEqualTo(summary);
    assertThat(nodelist(u)).isEqualTo(hosts);
    assertThat(ResourceSet.parse(u.toString())).isEqualTo(u);
  }

  @ParameterizedTest(name = "a props {1}, b props {3} -> {4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0:core=0-1 | x     | 0:core=1     | y  | x=0 y=0
          0:core=1   | x     | 0:core=0-1   | y  | y=0
          0:core=1   | x     | 1:core=0     | y  | x=0 y=1
          0:core=1   | x     | 0:core=1     | -  | -
          """)
  void union_properties_leftKeptOnlyWhileItsIdsRemain(
      String a, String ap, String b, String bp, String expected) {
    ResourceSet u = withProp(rl(a), ap).union(withProp(rl(b), bp));
    assertThat(properties(u)).isEqualTo(expected);
  }

  private static ResourceSet withProp(ResourceSet r, String name) {
    return name.equals("-") ? r : r.withProperty(name, r.ranks());
  }

  @Test
  void union_timesNslots_droppedScheduling_leftFirst() {
    String base = "{'version':1,'execution':{'R_lite':[{'rank':'%s','children':{'core':'0'}}]";
    ResourceSet a =
        r(String.format(base, "0") + ",'starttime':5,'expiration':9,'nslots':2},'scheduling':1}");
    ResourceSet b = r(String.format(base, "1") + ",'starttime':6},'scheduling':2}");
    ResourceSet none = rl("2:core=0");
    ResourceSet nul = r(String.format(base, "3") + "},'scheduling':null}");
    ResourceSet u = a.union(b);
    assertThat(u.starttime()).isZero();
    assertThat(u.expiration()).isZero();
    assertThat(u.nslots()).isZero();
    assertThat(u.scheduling()).isEqualTo(IntNode.valueOf(1));
    assertThat(b.union(a).scheduling()).isEqualTo(IntNode.valueOf(2));
    assertThat(none.union(b).scheduling()).isEqualTo(IntNode.valueOf(2));
    assertThat(nul.union(b).scheduling()).isEqualTo(NullNode.getInstance());
    assertThat(none.union(none).scheduling()).isNull();
  }

  @Test
  void operations_emptyTarget_carriedWhereFluxCoreFails() {
    // D52: flux-core's union, append and diff fail on a target without resources
    ResourceSet withEmpty = rl("0:core=0 1:core=", "n[0-1]");
    ResourceSet other = rl("2:core=0", "n2");
    assertThat(withEmpty.hasEmptyTarget()).isTrue();
    ResourceSet u = withEmpty.union(other);
    assertThat(u.nnodes()).isEqualTo(3);
    assertThat(u.hasEmptyTarget()).isTrue();
    assertThat(u.summary()).isEqualTo("rank[0,2]/core0");
    assertThat(other.append(withEmpty).nnodes()).isEqualTo(3);
    assertThat(withEmpty.diff(other).nnodes()).isEqualTo(2);
    assertThat(withEmpty.diff(rl("1:core=0")).summary()).isEqualTo("rank0/core0");
    assertThat(withEmpty.diff(rl("1:core=0")).nnodes()).isEqualTo(1);
  }

  // ---- append -------------------------------------------------------------------------------

  @ParameterizedTest(name = "[{0}]@{1} append [{2}]@{3} = {4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1:core=0-3           | foo15      | 0:core=0-3           | foo16          | rank[0-1]/core[0-3]          | foo[16,15]
          0,2-3:core=0-3       | foo[0,2-3] | 1:core=0-3           | foo1           | rank[0-3]/core[0-3]          | foo[0-3]
          0:core=0-3           | foo0       | 0:core=4-7           | foo0           | rank0/core[0-7]              | foo0
          0:core=0-3           | a0         | 0:core=4-7           | b0             | rank0/core[0-7]              | a0
          0:core=0-3           | -          | 0:core=4-7           | b0             | rank0/core[0-7]              | -
          0:core=0             | -          | 0:gpu=0 1:core=0     | -              | rank0/core0,gpu0 rank1/core0 | -
          5:core=0 1:core=0-1  | -          | 3:core=0             | -              | rank[3,5]/core0 rank1/core[0-1] | -
          ''                   | -          | 0-1:core=0           | n[0-1]         | rank[0-1]/core0              | n[0-1]
          """)
  void append_disjoint_mergesByRank(
      String a, String ah, String b, String bh, String summary, String hosts) {
    ResourceSet r = rl(a, ah).append(rl(b, bh));
    assertThat(r.summary()).isEqualTo(summary);
    assertThat(nodelist(r)).isEqualTo(hosts);
  }

  @ParameterizedTest(name = "[{0}] append [{1}] fails: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0-1:core=0          | 1-2:core=0               | R: rank 1 holds core 0 in both sets (expected: disjoint resources)
          0-1:core=0-1+gpu=0  | 1:core=2-3+gpu=0         | R: rank 1 holds gpu 0 in both sets (expected: disjoint resources)
          0:core=0-7          | 0:core=2-3,6             | R: rank 0 holds core [2-3,6] in both sets (expected: disjoint resources)
          """)
  void append_overlap_existsError(String a, String b, String message) {
    ResourceSet left = rl(a);
    String before = left.toString();
    assertThatThrownBy(() -> left.append(rl(b)))
        .isInstanceOf(RsetException.class)
        .hasMessage(message)
        .extracting(ResourceSetTest::reason)
        .isEqualTo(RsetException.Reason.EXISTS);
    assertThat(left.toString()).isEqualTo(before);
  }

  @Test
  void append_appendedRankCounts_matchVector() {
    ResourceSet r =
        rl("0-1023:core=0-3", "foo[0-1023]").append(rl("1000-1024:core=4-7", "foo[1000-1024]"));
    assertThat(r.count("core")).isEqualTo(4196);
    assertThat(r.nnodes()).isEqualTo(1025);
    assertThat(r.nodelist()).hasToString("foo[0-1024]");
  }

  @Test
  void append_propertiesMergedTimesDroppedSchedulingFirstNonNull() {
    ResourceSet a =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],"
                + "'properties':{'x':'0'},'starttime':3,'nslots':1}}");
    ResourceSet b =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'0-1','children':{'core':'1'}}],"
                + "'properties':{'y':'0-1'}},'scheduling':{'w':1}}");
    ResourceSet r = a.append(b);
    assertThat(properties(r)).isEqualTo("x=0 y=0-1");
    assertThat(r.starttime()).isZero();
    assertThat(r.nslots()).isZero();
    assertThat(r.scheduling()).hasToString("{\"w\":1}");
    assertThat(r.summary()).isEqualTo("rank0/core[0-1] rank1/core1");
  }

  // ---- diff ---------------------------------------------------------------------------------

  @ParameterizedTest(name = "[{0}]@{1} - [{2}] = {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0:core=0-3            | foo15 | 0:core=0-3           | ''                       | -
          0:core=0-3+gpu=0-1    | foo15 | 0:core=0-3+gpu=0-1   | ''                       | -
          0:core=0-3            | foo15 | 0:core=0-1           | rank0/core[2-3]          | foo15
          0:core=0-3+gpu=0      | foo15 | 0:core=0-3           | rank0/gpu0               | foo15
          0-1:core=0-1          | n[0-1] | 0-1:core=1          | rank[0-1]/core0          | n[0-1]
          0:core=0-1 1:core=2   | -     | 0:core=0             | rank1/core2 rank0/core1  | -
          0:core=0-1+gpu=0 1:core=0-1 | n[0-1] | 0:gpu=0       | rank[0-1]/core[0-1]      | n[0-1]
          0:core=0-1            | a0    | 0:gpu=0              | rank0/core[0-1]          | a0
          0:core=0-1            | a0    | 1:core=0-1           | rank0/core[0-1]          | a0
          0-3:core=0            | n[0-3] | 1:core=0 3:core=0   | rank[0,2]/core0          | n[0,2]
          0:core=0-1            | a0    | 0:core=0             | rank0/core1              | a0
          0:foo=3-5+core=0      | -     | 0:foo=3-5            | rank0/core0              | -
          ''                    | -     | 0:core=0             | ''                       | -
          """)
  void diff_table_byRankAndType(String a, String ah, String b, String summary, String hosts) {
    ResourceSet d = rl(a, ah).diff(rl(b, "-"));
    assertThat(d.summary()).isEqualTo(summary);
    assertThat(nodelist(d)).isEqualTo(d.isEmpty() ? "" : hosts);
  }

  @Test
  void diff_emptiedGpu_removedSoRanksRegroup() {
    ResourceSet d = rl("0:core=0-1+gpu=0 1:core=0-1", "n[0-1]").diff(rl("0:gpu=0"));
    assertThat(d.toString())
        .contains("\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0-1\"}}]");
  }

  @Test
  void diff_emptyTypeInBoth_removedEvenWhenNothingElseChanges() {
    // rnode_diff deletes a type other than core that is empty after the subtraction
    ResourceSet d = rl("0:core=0+gpu= 1:core=0").diff(rl("0:core=+gpu="));
    assertThat(d.toString()).contains("[{\"rank\":\"0-1\",\"children\":{\"core\":\"0\"}}]");
    assertThat(d.summary()).isEqualTo("rank[0-1]/core0");
  }

  @Test
  void diff_coreEmptied_keptSoRankStaysApartFromGpuOnlyRank() {
    ResourceSet d = rl("0:core=0-1+gpu=0 1:core=+gpu=0").diff(rl("0:core=0-1"));
    // rank 0 keeps an empty core; rank 1 has one too: both are {core:"", gpu:0}
    assertThat(d.summary()).isEqualTo("rank[0-1]/gpu0");
  }

  @Test
  void diff_propertiesHostsSchedulingFromLeftTimesDropped() {
    ResourceSet a =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'0-1','children':{'core':'0-1'}}],"
                + "'nodelist':['a[0-1]'],'properties':{'x':'0-1'},'starttime':4,'nslots':2},"
                + "'scheduling':'s'}");
    ResourceSet b =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],"
                + "'nodelist':['b0'],'properties':{'y':'0'}},'scheduling':'t'}");
    ResourceSet d = a.diff(b);
    assertThat(properties(d)).isEqualTo("x=0-1");
    assertThat(nodelist(d)).isEqualTo("a[0-1]");
    assertThat(d.summary()).isEqualTo("rank1/core[0-1] rank0/core1");
    assertThat(d.starttime()).isZero();
    assertThat(d.nslots()).isZero();
    assertThat(d.scheduling().textValue()).isEqualTo("s");
    assertThat(a.diff(a).scheduling().textValue()).isEqualTo("s");
  }

  // ---- intersect ----------------------------------------------------------------------------

  @ParameterizedTest(name = "[{0}]@{1} & [{2}]@{3} = {4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0-10:core=0-3          | foo[0-10] | 9-15:core=1           | foo[9-15] | rank[9-10]/core1        | foo[9-10]
          0:core=0-3+gpu=0-1     | foo15     | 1:core=0-3+gpu=0-1    | foo16     | ''                      | ''
          0-3:core=0-1           | -         | 1-5:core=0            | -         | rank[1-3]/core0         | -
          0-3:core=0-1           | -         | 4-5:core=0            | -         | ''                      | ''
          0:core=0               | x0        | 0:core=0              | y0        | ''                      | ''
          0:core=0               | -         | 0:core=0              | y0        | rank0/core0             | -
          0:core=0               | x0        | 0:core=0              | -         | rank0/core0             | x0
          0:core=0 1:core=1      | -         | 1:core=1 0:core=0     | -         | rank1/core1 rank0/core0 | -
          0:core=0+gpu=0         | -         | 0:core=0+gpu=1        | -         | rank0/core0             | -
          0:core=0+gpu=0 1:core=0 | -        | 0-1:core=0+gpu=1      | -         | rank[0-1]/core0         | -
          0:core=0+gpu=0         | -         | 0:gpu=0               | -         | rank0/gpu0              | -
          0:core=0-1             | -         | 0:core=2              | -         | ''                      | ''
          """)
  void intersect_table_byRankInRightOrder(
      String a, String ah, String b, String bh, String summary, String hosts) {
    ResourceSet i = rl(a, ah).intersect(rl(b, bh));
    assertThat(i.summary()).isEqualTo(summary);
    assertThat(nodelist(i)).isEqualTo(i.isEmpty() ? "" : hosts);
  }

  @Test
  void intersect_propertiesDroppedSchedulingOnlyWhenNonEmpty() {
    ResourceSet a =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],"
                + "'properties':{'x':'0'},'starttime':2},'scheduling':42}");
    ResourceSet i = a.intersect(a);
    assertThat(i.properties()).isEmpty();
    assertThat(i.starttime()).isZero();
    assertThat(i.scheduling()).isEqualTo(IntNode.valueOf(42));
    assertThat(a.intersect(rl("1:core=0")).scheduling()).isNull();
  }

  // ---- copyRanks / removeRanks ---------------------------------------------------------------

  @ParameterizedTest(name = "copy ranks {0}: {1} nodes, {2} cores, {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1,3,5 | 3 | 12 | rank[1,3,5]/core[0-3],gpu0
          5-9   | 1 | 4  | rank5/core[0-3],gpu0
          9,20  | 0 | 0  | ''
          ''    | 0 | 0  | ''
          """)
  void copyRanks_base_subsetInRankOrder(String ranks, int nnodes, int cores, String summary) {
    ResourceSet r = rl("0-5:core=0-3+gpu=0", "foo[0-5]").copyRanks(IdSet.parse(ranks));
    assertThat(r.nnodes()).isEqualTo(nnodes);
    assertThat(r.count("core")).isEqualTo(cores);
    assertThat(r.summary()).isEqualTo(summary);
  }

  @Test
  void copyRanks_unsortedList_rankOrderHostsPropertiesKeptTimesDropped() {
    ResourceSet r =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'2','children':{'core':'2'}},"
                + "{'rank':'0','children':{'core':'0'}},{'rank':'1','children':{'core':'1'}}],"
                + "'properties':{'p':'0,2'},'starttime':7,'nslots':3},'scheduling':'s'}");
    ResourceSet c = r.copyRanks(IdSet.parse("0,2"));
    assertThat(c.summary()).isEqualTo("rank0/core0 rank2/core2");
    assertThat(properties(c)).isEqualTo("p=0,2");
    assertThat(c.starttime()).isZero();
    assertThat(c.nslots()).isZero();
    assertThat(c.scheduling().textValue()).isEqualTo("s");
    assertThat(r.copyRanks(IdSet.of(9)).scheduling()).isNull();
  }

  @ParameterizedTest(name = "remove ranks {0}: {1} left, {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1,3,5 | 3 | rank[0,2,4]/core[0-3],gpu0 | foo[0,2,4]
          5-9   | 5 | rank[0-4]/core[0-3],gpu0   | foo[0-4]
          9,20  | 6 | rank[0-5]/core[0-3],gpu0   | foo[0-5]
          0-5   | 0 | ''                         | ''
          """)
  void removeRanks_base_restKept(String ranks, int left, String summary, String hosts) {
    ResourceSet r = rl("0-5:core=0-3+gpu=0", "foo[0-5]").removeRanks(IdSet.parse(ranks));
    assertThat(r.nnodes()).isEqualTo(left);
    assertThat(r.summary()).isEqualTo(summary);
    assertThat(r.nodelist()).hasToString(hosts);
  }

  @Test
  void removeRanks_timesNslotsSchedulingAndOrder_kept() {
    ResourceSet r =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'2','children':{'core':'2'}},"
                + "{'rank':'0','children':{'core':'0'}},{'rank':'1','children':{'core':'1'}}],"
                + "'starttime':7,'expiration':8,'nslots':3},'scheduling':'s'}");
    ResourceSet x = r.removeRanks(IdSet.of(0, 1));
    assertThat(x.summary()).isEqualTo("rank2/core2");
    assertThat(x.starttime()).isEqualTo(7);
    assertThat(x.expiration()).isEqualTo(8);
    assertThat(x.nslots()).isEqualTo(3);
    assertThat(x.scheduling().textValue()).isEqualTo("s");
    assertThat(r.removeRanks(IdSet.of(9)).summary())
        .isEqualTo("rank2/core2 rank0/core0 rank1/core1");
  }

  // ---- copyConstraint -----------------------------------------------------------------------

  static Stream<Arguments> copyConstraint_fluxVectors_selectsRanks() {
    return RText.table(
        """
          {'properties':['na']}                      |
          {'properties':['foo']}                     | rank[1-3]/core[0-1]
          {'properties':['bar']}                     | rank7/core[0-1]
          {'properties':['^bar']}                    | rank[1-6,8-10]/core[0-1]
          {'properties':['foo5']}                    | rank5/core[0-1]
          {'properties':['^foo5']}                   | rank[1-4,6-10]/core[0-1]
          {'properties':['foo','^foo2']}             | rank[1,3]/core[0-1]
          {'properties':[]}                          | rank[1-10]/core[0-1]
          {}                                         | rank[1-10]/core[0-1]
          {'hostlist':['foo[2,3,7]']}                | rank[2-3,7]/core[0-1]
          {'not':[{'hostlist':['foo[2,3,7]']}]}      | rank[1,4-6,8-10]/core[0-1]
          {'not':[{'ranks':['0-4']}]}                | rank[5-10]/core[0-1]
          {'not':[]}                                 |
          {'or':[]}                                  | rank[1-10]/core[0-1]
          {'and':[]}                                 | rank[1-10]/core[0-1]
          {'or':[{'ranks':['1']},{'properties':['bar']}]} | rank[1,7]/core[0-1]
          {'and':[{'ranks':['1-5']},{'properties':['foo']}]} | rank[1-3]/core[0-1]
          """);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void copyConstraint_fluxVectors_selectsRanks(String constraint, String summary) {
    ResourceSet base =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'1-10','children':{'core':'0-1'}}],"
                + "'nodelist':['foo[1-10]'],'properties':{'foo':'1-3','bar':'7'}}}");
    assertThat(base.copyConstraint(Constraint.parse(json(constraint))).summary())
        .isEqualTo(summary);
  }

  @Test
  void copyConstraint_listOrderKeptTimesDroppedSchedulingWhenNonEmpty() {
    ResourceSet r =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'2','children':{'core':'2'}},"
                + "{'rank':'0','children':{'core':'0'}},{'rank':'1','children':{'core':'1'}}],"
                + "'properties':{'p':'0,2'},'starttime':7,'nslots':3},'scheduling':'s'}");
    ResourceSet c = r.copyConstraint(Constraint.parse("{\"properties\":[\"p\"]}"));
    assertThat(c.summary()).isEqualTo("rank2/core2 rank0/core0");
    assertThat(properties(c)).isEqualTo("p=0,2");
    assertThat(c.starttime()).isZero();
    assertThat(c.nslots()).isZero();
    assertThat(c.scheduling().textValue()).isEqualTo("s");
    assertThat(r.copyConstraint(Constraint.parse("{\"not\":[]}")).scheduling()).isNull();
  }

  @Test
  void copyConstraint_noNodelist_missingPropertyDoesNotMatch() {
    // flux-core dereferences the missing host name here (see docs/decisions-rset-r.md)
    ResourceSet r = rl("0-1:core=0").withProperty("foo", IdSet.of(1));
    assertThat(r.copyConstraint(Constraint.parse("{\"properties\":[\"foo\"]}")).summary())
        .isEqualTo("rank1/core0");
    assertThat(r.copyConstraint(Constraint.parse("{\"properties\":[\"^foo\"]}")).summary())
        .isEqualTo("rank0/core0");
  }

  // ---- remap / rerank / hostsToRanks ---------------------------------------------------------

  @ParameterizedTest(name = "remap [{0}] = {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1,7,9,53:core=0-3                | rank[0-3]/core[0-3]
          1,7,9,53:core=1,5,7,9+gpu=1,3    | rank[0-3]/core[0-3],gpu[1,3]
          5,99,1000:core=0                 | rank[0-2]/core0
          0:foo=3-5                        | rank0/foo[0-2]
          3:core=2-3 1:core=0              | rank0/core0 rank1/core[0-1]
          4:core=+gpu=2                    | rank0/gpu2
          ''                               | ''
          """)
  void remap_table_ranksAndIdsDenseButGpus(String lite, String summary) {
    assertThat(rl(lite, "-").remap().summary()).isEqualTo(summary);
  }

  @Test
  void remap_hostsPropertiesTimesFollow() {
    ResourceSet r =
        r(
            "{'version':1,'execution':{'R_lite':[{'rank':'4,9','children':{'core':'4-5'}}],"
                + "'nodelist':['n[4,9]'],'properties':{'p':'9'},'starttime':3,'nslots':2},"
                + "'scheduling':1}");
    ResourceSet m = r.remap();
    assertThat(m.nodelist()).hasToString("n[4,9]");
    assertThat(properties(m)).isEqualTo("p=1");
    assertThat(m.starttime()).isEqualTo(3);
    assertThat(m.nslots()).isEqualTo(2);
    assertThat(m.scheduling()).isEqualTo(IntNode.valueOf(1));
    assertThat(m.toString()).contains("{\"rank\":\"0-1\",\"children\":{\"core\":\"0-1\"}}");
  }

  @ParameterizedTest(name = "rerank {0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          foo[1-15]    | TOO_FEW   | Number of hosts (15) is less than node count (16)
          foo[0-16]    | TOO_MANY  | Number of hosts (17) is greater than node count (16)
          foo[1-16]    | NOT_FOUND | Host foo16 not found in resources
          """)
  void rerank_wrongHosts_errorLeavesSetUnchanged(
      String hosts, RsetException.Reason why, String message) {
    ResourceSet base = rl("0-15:core=0-3", "foo[0-15]");
    assertThatThrownBy(() -> base.rerank(Hostlist.parse(hosts)))
        .isInstanceOf(RsetException.class)
        .hasMessage(message)
        .extracting(ResourceSetTest::reason)
        .isEqualTo(why);
    assertThat(base.nodelist()).hasToString("foo[0-15]");
  }

  @ParameterizedTest(name = "rerank {1} on {0}@{2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0-15:core=0-3        | foo[0-15]   | foo[1-15,0]   | foo[1-15,0]   | rank[0-15]/core[0-3]
          0-3:core=0           | foo[0-3]    | foo[3,2,1,0]  | foo[3,2,1,0]  | rank[0-3]/core0
          0:core=0 1:core=1    | a,b         | b,a           | b,a           | rank1/core0 rank0/core1
          0-1:core=0           | x,x         | x,x           | x,x           | rank[0-1]/core0
          """)
  void rerank_hosts_ithHostBecomesRankI(
      String lite, String hosts, String order, String nodelist, String summary) {
    ResourceSet r = rl(lite, hosts).rerank(Hostlist.parse(order));
    assertThat(r.nodelist()).hasToString(nodelist);
    assertThat(r.summary()).isEqualTo(summary);
  }

  @Test
  void rerank_properties_followTheirHost() {
    ResourceSet r = rl("0:core=0 1:core=1", "a,b").withProperty("p", IdSet.of(0));
    ResourceSet x = r.rerank(Hostlist.parse("b,a"));
    assertThat(properties(x)).isEqualTo("p=1");
    assertThat(x.host(1)).isEqualTo("a");
    assertThat(x.resources(1, "core")).hasToString("0");
  }

  @ParameterizedTest(name = "hosts {1} on {0}@{2} -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0-10:core=0-1 | foo[0-10]                         | foo[1,7]   | 1,7
          0-11:core=0-1 | foo10,foo[0-4],foo11,foo[5-9]     | foo[1,9,4] | 2,5,11
          0-3:core=0-1  | foo,foo,foo,foo                   | foo        | 0-3
          0-3:core=0-1  | foo[0-3]                          | ''         | ''
          """)
  void hostsToRanks_listedHosts_theirRanks(String lite, String hosts, String query, String ranks) {
    assertThat(rl(lite, hosts).hostsToRanks(Hostlist.parse(query))).hasToString(ranks);
  }

  @Test
  void hostsToRanks_unknownHosts_namedInError() {
    assertThatThrownBy(
            () -> rl("0-10:core=0-1", "foo[0-10]").hostsToRanks(Hostlist.parse("foo[9-12],bar")))
        .isInstanceOf(RsetException.class)
        .hasMessage("invalid hosts: foo[11-12],bar")
        .extracting(ResourceSetTest::reason)
        .isEqualTo(RsetException.Reason.NOT_FOUND);
  }

  // ---- verify -------------------------------------------------------------------------------

  @ParameterizedTest(name = "verify [{0}]@{1}: {2} \"{3}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1:core=0-3+gpu=0     | foo1 | true  | ''
          1:core=0-3+gpu=      | foo1 | false | rank 1 (foo1) missing resources: gpu0
          5:core=0-1+gpu=0     | foo5 | false | rank 5 (foo5) missing resources: core[2-3]
          5:core=0-3+gpu=0     | foo7 | false | rank 5 got hostname 'foo7', expected 'foo5'
          0:core=0-7+gpu=0-1   | foo0 | true  | rank 0 (foo0) has extra resources: core[4-7],gpu1
          7:core=0-3+gpu=0     | foo7 | false | rank 7 not found in expected ranks
          2:core=0-3+gpu=0     | -    | true  | ''
          2:core=0-2           | -    | false | rank 2 (unknown) missing resources: core3,gpu0
          0-1:core=0-3+gpu=0   | foo[0-1] | false | Verification supported on single rank only
          ''                   | -    | false | Verification supported on single rank only
          """)
  void verify_table_missingFailsExtraWarns(String lite, String hosts, boolean ok, String msg) {
    ResourceSet expected = rl("0-5:core=0-3+gpu=0", "foo[0-5]");
    ResourceSet.Verification v = expected.verify(rl(lite, hosts));
    assertThat(v.ok()).isEqualTo(ok);
    assertThat(v.message()).isEqualTo(msg);
  }

  @Test
  void verify_expectedWithoutHosts_hostNotChecked() {
    assertThat(rl("0-5:core=0-3").verify(rl("3:core=0-3", "zzz")).ok()).isTrue();
  }

  // ---- withProperties / withHosts / withTimes / withNslots ----------------------------------

  @Test
  void withProperties_inOrder_addedToRanks() {
    Map<String, IdSet> props = new LinkedHashMap<>();
    props.put("batch", IdSet.parse("0-1"));
    props.put("a!@: b", IdSet.of(3));
    props.put("", IdSet.of(2));
    props.put("empty", IdSet.empty());
    ResourceSet r = rl("0-3:core=0", "n[0-3]").withProperties(props);
    assertThat(properties(r)).isEqualTo("=2 a!@: b=3 batch=0-1");
    assertThat(r.withProperty("batch", IdSet.of(1)).properties()).isEqualTo(r.properties());
    assertThat(ResourceSet.parse(r.toString())).isEqualTo(r);
  }

  @ParameterizedTest(name = "property {0} on {1}: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          foo   | 1-2    | rank 2 not found in target resource list
          foo   | 4-5    | ranks 4-5 not found in target resource list
          fo^o  | 0      | invalid character '^' in property "fo^o"
          a(b   | 0      | invalid character '(' in property "a(b"
          """)
  void withProperties_bad_errorSetUnchanged(String name, String ranks, String message) {
    ResourceSet r = rl("0-1:core=0");
    Map<String, IdSet> props = new LinkedHashMap<>();
    props.put("ok", IdSet.of(0));
    props.put(name, IdSet.parse(ranks));
    assertThatThrownBy(() -> r.withProperties(props))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith(message);
    assertThat(r.properties()).isEmpty();
  }

  @Test
  void withHosts_rankOrder_assigned() {
    ResourceSet r = rl("2:core=2 0:core=0 1:core=1").withHosts(Hostlist.parse("n[7-9]"));
    assertThat(r.host(0)).isEqualTo("n7");
    assertThat(r.host(2)).isEqualTo("n9");
    assertThat(r.nodelist()).hasToString("n[7-9]");
  }

  @Test
  void withHosts_countMismatch_error() {
    assertThatThrownBy(() -> rl("0-1:core=0").withHosts(Hostlist.parse("a")))
        .isInstanceOf(RsetException.class)
        .hasMessage("R: 1 hosts for 2 ranks (expected: one host per rank)");
  }

  @ParameterizedTest(name = "times {0},{1} -> {2},{3}")
  @CsvSource(
      textBlock =
          """
          5, 9, 5.0, 9.0
          -1, 0, 0.0, 0.0
          0.25, 1e9, 0.25, 1.0E9
          """)
  void withTimes_values_negativeUnset(double s, double e, double s2, double e2) {
    ResourceSet r = rl("0:core=0").withTimes(s, e);
    assertThat(r.starttime()).isEqualTo(s2);
    assertThat(r.expiration()).isEqualTo(e2);
    assertThat(ResourceSet.parse(r.toString())).isEqualTo(r);
  }

  @ParameterizedTest(name = "time {0} rejected")
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
  void withTimes_notFinite_rejected(double t) {
    // toString() used to fail with NumberFormatException on such a time
    assertThatThrownBy(() -> rl("0:core=0").withTimes(t, 0))
        .isInstanceOf(RsetException.class)
        .hasMessageContaining("not both finite");
    assertThatThrownBy(() -> rl("0:core=0").withTimes(0, t)).isInstanceOf(RsetException.class);
  }

  @Test
  void withNslots_values_zeroOrNegativeRemoves() {
    ResourceSet r = rl("0:core=0");
    assertThat(r.withNslots(5).toString()).contains("\"nslots\":5,");
    assertThat(r.withNslots(5).withNslots(0).toString()).doesNotContain("nslots");
    assertThat(r.withNslots(-3).nslots()).isZero();
  }

  // ---- of / equals / parseAll ---------------------------------------------------------------

  @Test
  void of_ranksCoresGpusHosts_likeFluxEncode() {
    ResourceSet r =
        ResourceSet.of(
            IdSet.parse("0-3"),
            IdSet.parse("0-7"),
            IdSet.parse("0-1"),
            Hostlist.parse("node[0-3]"));
    assertThat(r.toString())
        .isEqualTo(
            json(
                "{'version':1,'execution':{'R_lite':[{'rank':'0-3','children':{'core':'0-7',"
                    + "'gpu':'0-1'}}],'starttime':0.0,'expiration':0.0,'nodelist':['node[0-3]']}}"));
    assertThat(ResourceSet.of(IdSet.of(0), IdSet.of(0), IdSet.empty(), null).hasNodelist())
        .isFalse();
    assertThatThrownBy(
            () ->
                ResourceSet.of(IdSet.parse("0-1"), IdSet.of(0), IdSet.empty(), Hostlist.parse("a")))
        .isInstanceOf(RsetException.class)
        .hasMessage("R: 1 hosts for 2 ranks (expected: one host per rank)");
  }

  @Test
  void equals_listOrderIgnoredEverythingElseCounts() {
    ResourceSet a = rl("0:core=0 1:core=1");
    ResourceSet b = rl("1:core=1 0:core=0");
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(rl("0:core=0 1:core=1", "a,b"));
    assertThat(a).isNotEqualTo(a.withNslots(1));
    assertThat(a).isNotEqualTo(a.withTimes(1, 0));
    assertThat(a).isNotEqualTo(a.withProperty("p", IdSet.of(0)));
    assertThat(rl("0:core=0+gpu=")).isNotEqualTo(rl("0:core=0"));
  }

  @Test
  void parseAll_concatenated_trailingGarbageIgnored() {
    String one = RText.lite("0:core=0", "-");
    String two = RText.lite("1:core=1", "-");
    ResourceSet.Documents d =
        ResourceSet.parseAll(
            new ByteArrayInputStream(
                (one + two + "\n" + one + " xyz").getBytes(StandardCharsets.UTF_8)),
            "stdin");
    assertThat(d.sets()).hasSize(3);
    assertThat(d.ignored()).startsWith("after document 3: ");
    assertThat(d.sets().get(1).summary()).isEqualTo("rank1/core1");
  }

  static Stream<Arguments> parseAll_bad_error() {
    return RText.table(
        """
          nothing            |                                            | failed to read an R object from stdin: it holds no JSON document
          whitespace only    |    \t                                      | failed to read an R object from stdin: it holds no JSON document
          garbage            | garbage                                    | failed to read an R object from stdin:
          scalar first       | 5                                          | failed to read an R object from stdin:
          second not R       | {'version':1,'execution':{'R_lite':[]}} {} | failed to decode R on stdin (document 2): /version: is missing
          array              | []                                         | failed to decode R on stdin (document 1): the document is [] (array)
          """);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void parseAll_bad_error(String name, String in, String message) {
    assertThatThrownBy(
            () ->
                ResourceSet.parseAll(
                    new ByteArrayInputStream(json(in).getBytes(StandardCharsets.UTF_8)), "stdin"))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith(message)
        .hasMessageNotContaining("\n");
  }
}
