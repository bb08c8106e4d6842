package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * R's compact text written straight into bytes against the same text written by Jackson's generator
 * and of the tree {@link RCodec#encode}, on chosen and on random sets, strings and times.
 */
class RCompactTest {

  /** Characters Jackson writes in every way it has: as is, short escapes, hex escapes, UTF-8. */
  private static final String ODD =
      "\"\\/\b\t\n\f\r\u0000\u0001\u000b\u001a\u001f\u007f\u0080\u00e9\u07ff\u0800\u2028\uabcd"
          + "\ud7ff\ue000\ufffd\ufffe\uffff ~";

  /** Those a host name may hold: no separator or bracket. */
  private static final String HOST_ODD = hostName(ODD);

  private static final char[] SURROGATES = {'\ud800', '\udbff', '\udc00', '\udfff'};

  private static String hostName(String s) {
    return s.replaceAll("[, \\t\\[\\]]", "");
  }

  private static byte[] generator(ResourceSet r) {
    return RCompact.encodeWithGenerator(r);
  }

  private static byte[] tree(ResourceSet r) throws IOException {
    return RCodec.MAPPER.writeValueAsBytes(r.toJson());
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** The direct bytes, checked to be both Jackson's; the direct path must have been taken. */
  private static byte[] direct(ResourceSet r) throws IOException {
    byte[] direct = RCompact.encodeDirect(r);
    assertThat(direct).as("direct path taken").isNotNull();
    assertThat(text(direct)).isEqualTo(text(generator(r)));
    assertThat(direct).isEqualTo(generator(r)).isEqualTo(tree(r)).isEqualTo(r.toJsonBytes());
    return direct;
  }

  private static ResourceSet withChild(ResourceSet r, String name) {
    RNode[] nodes = r.nodes().clone();
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = nodes[i].withChildren(nodes[i].children().with(name, IdSet.of(0, 2)));
    }
    return new ResourceSet(nodes, r.starttime(), r.expiration(), r.nslots(), null);
  }

  private static ResourceSet withTimes(double start, double end) {
    return new ResourceSet(RText.rl("0:core=0").nodes(), start, end, 0, null);
  }

  private static byte[] jacksonSeconds(double v) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = RCodec.MAPPER.getFactory().createGenerator(out)) {
      g.writeNumber(RCodec.seconds(v));
    }
    return out.toByteArray();
  }

  private static byte[] directSeconds(double v) {
    JsonBytes o = new JsonBytes(1);
    o.seconds(v);
    assertThat(o.missed()).as("missed %s", v).isEqualTo(!Double.isFinite(v));
    return o.toByteArray();
  }

  /** {@code {s:s}} by Jackson, a name and a value. */
  private static byte[] jacksonNameAndValue(String s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = RCodec.MAPPER.getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField(s, s);
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /** {@code {s:s}} written directly, or null when missed. */
  private static byte[] directNameAndValue(String s) {
    JsonBytes o = new JsonBytes(1);
    o.raw('{').string(s).raw(':').string(s).raw('}');
    return o.missed() ? null : o.toByteArray();
  }

  private static boolean hasSurrogate(String s) {
    return s.chars().anyMatch(c -> Character.isSurrogate((char) c));
  }

  private static void checkString(String s) throws IOException {
    byte[] direct = directNameAndValue(s);
    if (hasSurrogate(s)) {
      assertThat(direct).as("surrogate in %s", s).isNull();
      return;
    }
    assertThat(direct).as(s).isNotNull();
    assertThat(text(direct)).isEqualTo(text(jacksonNameAndValue(s)));
    assertThat(direct).isEqualTo(jacksonNameAndValue(s));
  }

  // ---- examples -------------------------------------------------------------------------------

  @Test
  void encode_emptyR_plainText() throws IOException {
    assertThat(text(direct(ResourceSet.empty())))
        .isEqualTo(
            "{\"version\":1,\"execution\":{\"R_lite\":[],\"starttime\":0.0,"
                + "\"expiration\":0.0,\"nodelist\":[\"\"]}}");
    assertThat(text(direct(RText.rl("")))).isEqualTo(text(generator(ResourceSet.empty())));
  }

  @Test
  void encode_fullR_plainText() throws IOException {
    ResourceSet r =
        RText.rl("0-3:core=0-7+gpu=0 4:core=0-3 5:core=", "n[0-5]")
            .withProperty("b", IdSet.of(4))
            .withProperty("a", IdSet.range(0, 1))
            .withNslots(9)
            .withTimes(1765083528.3457, 1e10);
    assertThat(text(direct(r)))
        .isEqualTo(
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-3\",\"children\":"
                + "{\"core\":\"0-7\",\"gpu\":\"0\"}},{\"rank\":\"4\",\"children\":{\"core\":\"0-3\"}}],"
                + "\"nslots\":9,\"starttime\":1765083528.3457,\"expiration\":10000000000.0,"
                + "\"nodelist\":[\"n[0-5]\"],\"properties\":{\"a\":\"0-1\",\"b\":\"4\"}}}");
  }

  @Test
  void encode_oddCharactersInEveryString_asJackson() throws IOException {
    ResourceSet r =
        RText.rl("0-1:core=0-3 2:gpu=1")
            .withHosts(Hostlist.of("nœud" + HOST_ODD, "節点7", "h\"x\\"))
            .withProperty("é\u0001\\/\n" + ODD.replace("\"", ""), IdSet.of(0, 2))
            .withProperty("plain", IdSet.of(1));
    r = withChild(r, "co\"re\\" + ODD);
    String text = text(direct(r));
    assertThat(text).contains("\\u0000\\u0001\\u000B\\u001A\\u001F", "\\b\\t\\n\\f\\r", "nœud");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "a", "\"", "\\", "\u0000", "\u001f", "\u007f", "\u0080", "\u07ff", "\u0800"})
  void string_oneCharacter_asJackson(String s) throws IOException {
    checkString(s);
    checkString("x" + s + "y");
  }

  @Test
  void string_everyCharacter_asJacksonOrMissedForSurrogates() throws IOException {
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      checkString(String.valueOf((char) c));
    }
  }

  @Test
  void encode_nslots_asJackson() throws IOException {
    for (long n : new long[] {1, 9, 1_000_000, Long.MAX_VALUE}) {
      assertThat(text(direct(RText.rl("0:core=0").withNslots(n)))).contains("\"nslots\":" + n);
    }
    assertThat(text(direct(RText.rl("0:core=0").withNslots(0)))).doesNotContain("nslots");
  }

  @Test
  void encode_times_plainDigitsAsJackson() throws IOException {
    double[] times = {
      0,
      1,
      2,
      0.5,
      0.1,
      1e-3,
      9.99e-4,
      1e-4,
      1e-7,
      1.23e-8,
      1e6,
      9999999,
      1e7,
      1.2345678e7,
      1.23456789e7,
      1765083528.3457,
      1.7959660310037868e9,
      123456789012345678.0,
      1e21,
      1e22,
      1e23,
      Double.MAX_VALUE,
      Double.MIN_VALUE,
      Double.MIN_NORMAL,
      Math.ulp(1.0)
    };
    for (double t : times) {
      direct(RText.rl("0:core=0").withTimes(t, t));
      direct(withTimes(-t, t));
    }
    assertThat(text(direct(withTimes(1e-7, 1e22))))
        .endsWith("\"starttime\":0.00000010,\"expiration\":10000000000000000000000.0}}");
    assertThat(text(direct(withTimes(-0.0, -1.5e9))))
        .endsWith("\"starttime\":0.0,\"expiration\":-1500000000.0}}");
  }

  @Test
  void seconds_examples_plainText() {
    assertThat(text(directSeconds(1e-7))).isEqualTo("0.00000010");
    assertThat(text(directSeconds(1.23e-8))).isEqualTo("0.0000000123");
    assertThat(text(directSeconds(1.23456789e7))).isEqualTo("12345678.9");
    assertThat(text(directSeconds(1.2345678e7))).isEqualTo("12345678.0");
    assertThat(text(directSeconds(-1e22))).isEqualTo("-10000000000000000000000.0");
    assertThat(text(directSeconds(1765083528.3457))).isEqualTo("1765083528.3457");
  }

  // ---- what goes through Jackson --------------------------------------------------------------

  @Test
  void encode_surrogateInAString_writtenByJackson() throws IOException {
    ResourceSet base = RText.rl("0-1:core=0");
    List<ResourceSet> sets =
        List.of(
            withChild(base, "g\ud83d\ude00"),
            base.withHosts(Hostlist.of("a", "b\udc00")),
            base.withProperty("p\ud800", IdSet.of(1)));
    for (ResourceSet r : sets) {
      assertThat(RCompact.encodeDirect(r)).isNull();
      assertThat(r.toJsonBytes()).isEqualTo(generator(r)).isEqualTo(tree(r));
    }
  }

  @Test
  void encode_timeNotFinite_notWrittenDirectly() {
    assertThat(RCompact.encodeDirect(withTimes(Double.NaN, 0))).isNull();
    assertThat(RCompact.encodeDirect(withTimes(0, Double.POSITIVE_INFINITY))).isNull();
    assertThat(RCompact.encodeDirect(withTimes(Double.NEGATIVE_INFINITY, 0))).isNull();
  }

  @Test
  void encode_scheduling_writtenByJackson() throws IOException {
    ResourceSet r =
        RText.r(
            "{'version':1,'execution':{'R_lite':[{'rank':'0','children':{'core':'0'}}],"
                + "'starttime':1e-7},'scheduling':{'g':[1.5e3,-0.0,'x\\u0001é'],'e':null}}");
    assertThat(r.toJsonBytes()).isEqualTo(generator(r)).isEqualTo(tree(r));
    assertThat(text(r.toJsonBytes()))
        .endsWith("\"scheduling\":{\"g\":[1500.0,0.0,\"x\\u0001é\"],\"e\":null}}");
  }

  // ---- random ---------------------------------------------------------------------------------

  @Property(tries = 1000)
  void seconds_anyDouble_asJackson(@ForAll double v) throws IOException {
    checkSeconds(v);
  }

  @Property(tries = 1000)
  void seconds_anyBits_asJackson(@ForAll long bits) throws IOException {
    checkSeconds(Double.longBitsToDouble(bits));
  }

  @Property(tries = 1000)
  void seconds_epochLike_asJackson(@ForAll long seed) throws IOException {
    SplittableRandom rng = new SplittableRandom(seed);
    double v = rng.nextDouble() * Math.pow(10, rng.nextInt(-12, 25));
    checkSeconds(rng.nextBoolean() ? v : Math.rint(v * 1e4) / 1e4);
  }

  private static void checkSeconds(double v) throws IOException {
    byte[] direct = directSeconds(v);
    if (!Double.isFinite(v)) {
      assertThat(direct).isEmpty();
      return;
    }
    assertThat(text(direct)).as("%s", v).isEqualTo(RCodec.seconds(v).toPlainString());
    assertThat(direct).isEqualTo(jacksonSeconds(v));
  }

  @Property(tries = 500)
  void string_anyString_asJacksonOrMissed(@ForAll String s) throws IOException {
    checkString(s);
  }

  @Property(tries = 500)
  void string_oddCharacters_asJacksonOrMissed(@ForAll long seed) throws IOException {
    checkString(oddString(new SplittableRandom(seed), true));
  }

  /** Up to 20 characters, mostly the odd ones, surrogates among them when asked. */
  private static String oddString(SplittableRandom rng, boolean surrogates) {
    StringBuilder sb = new StringBuilder();
    int n = rng.nextInt(21);
    for (int i = 0; i < n; i++) {
      int k = rng.nextInt(10);
      if (k < 5) {
        sb.append(ODD.charAt(rng.nextInt(ODD.length())));
      } else if (k < 7) {
        sb.append((char) rng.nextInt(0x20, 0x7f));
      } else if (k < 9 || !surrogates) {
        sb.append((char) rng.nextInt(0x80, 0xd800));
      } else {
        sb.append(SURROGATES[rng.nextInt(SURROGATES.length)]);
      }
    }
    return sb.toString();
  }

  @Property(tries = 300)
  void encode_randomR_directIsJackson(@ForAll long seed) throws IOException {
    SplittableRandom rng = new SplittableRandom(seed);
    ResourceSet r =
        ResourceSetPropertiesTest.toR(
            ResourceSetPropertiesTest.randomModel(rng, true), rng.nextBoolean(), rng);
    if (rng.nextInt(4) == 0 && !r.isEmpty()) {
      List<String> hosts = new ArrayList<>();
      for (int i = 0; i < r.nnodes(); i++) {
        hosts.add("h" + i + hostName(oddString(rng, false)));
      }
      r = r.withHosts(Hostlist.of(hosts));
    }
    if (rng.nextInt(4) == 0 && !r.isEmpty()) {
      Map<String, IdSet> props = new LinkedHashMap<>();
      int[] ranks = r.ranks().stream().toArray();
      for (int i = rng.nextInt(1, 4); i > 0; i--) {
        String name = oddString(rng, false).replaceAll("[\\^&'\"`|()]", "");
        props.put(name, IdSet.of(ranks[rng.nextInt(ranks.length)]));
      }
      r = r.withProperties(props);
    }
    if (rng.nextInt(4) == 0 && !r.isEmpty()) {
      r = withChild(r, oddString(rng, false));
    }
    if (rng.nextBoolean()) {
      r = r.withNslots(rng.nextLong(0, Long.MAX_VALUE));
    }
    if (rng.nextBoolean()) {
      r = r.withTimes(randomTime(rng), randomTime(rng));
    }
    direct(r);
  }

  private static double randomTime(SplittableRandom rng) {
    return switch (rng.nextInt(4)) {
      case 0 -> 0;
      case 1 -> rng.nextDouble() * 2e9;
      case 2 -> rng.nextInt(1, 2_000_000_000);
      default -> {
        double v = Math.abs(Double.longBitsToDouble(rng.nextLong()));
        yield Double.isFinite(v) ? v : 1;
      }
    };
  }

  @Test
  void encode_nullScheduling_isJsonNullByJackson() throws IOException {
    ResourceSet r =
        new ResourceSet(RText.rl("0:core=0").nodes(), 1, 2, 0, JsonNodeFactory.instance.nullNode());
    assertThat(text(r.toJsonBytes())).endsWith("},\"scheduling\":null}");
    assertThat(r.toJsonBytes()).isEqualTo(tree(r));
  }
}
