package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.Set;

/** Reads and writes R version 1 JSON (RFC 20) as flux-core's rlist_from_json and rlist_to_R. */
final class RCodec {

  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(64)
                  .maxStringLength(64 << 20)
                  .maxNumberLength(64)
                  .build())
          .build();

  static final ObjectMapper MAPPER =
      new ObjectMapper(FACTORY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
          .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

  /** Reads one document of a stream, leaving the next for the following call. */
  static final com.fasterxml.jackson.databind.ObjectReader STREAM_READER =
      MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Characters flux-core refuses in a property name it sets. */
  private static final String FORBIDDEN_IN_NAME = "^&'\"`|()";

  private RCodec() {}

  static RsetException error(String pointer, String what) {
    return new RsetException("R: " + pointer + ": " + what);
  }

  static RsetException error(RsetException.Reason reason, String pointer, String what) {
    return new RsetException(reason, "R: " + pointer + ": " + what);
  }

  /** A JSON value for a message: short text and its type. */
  static String describe(JsonNode n) {
    String text = n.toString();
    if (text.length() > 40) {
      text = text.substring(0, 40) + "...";
    }
    return text + " (" + n.getNodeType().toString().toLowerCase(Locale.ROOT) + ")";
  }

  static JsonParser parser(InputStream in) throws IOException {
    return FACTORY.createParser(in);
  }

  static String write(JsonNode n) {
    try {
      return MAPPER.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree did not serialize", e);
    }
  }

  static ResourceSet decode(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw new RsetException(
          "R: the document is "
              + (root == null || root.isMissingNode() ? "empty" : describe(root))
              + " (expected: an RFC 20 R object)");
    }
    JsonNode version = root.get("version");
    if (version == null) {
      throw error("/version", "is missing (expected: 1)");
    }
    if (!version.isIntegralNumber()) {
      throw error("/version", describe(version) + " is not an integer (expected: 1)");
    }
    if (!version.canConvertToInt() || version.intValue() != 1) {
      throw error("/version", "invalid version=" + version.asText() + " (expected: 1)");
    }
    JsonNode exec = root.get("execution");
    if (exec == null) {
      throw error("/execution", "is missing (expected: an object)");
    }
    if (!exec.isObject()) {
      throw error("/execution", describe(exec) + " is not an object");
    }
    JsonNode rlite = exec.get("R_lite");
    if (rlite == null) {
      throw error("/execution/R_lite", "is missing (expected: an array)");
    }
    if (!rlite.isArray() && !(rlite.isObject() && rlite.isEmpty())) {
      throw error("/execution/R_lite", describe(rlite) + " is not an array");
    }
    List<RNode> nodes = decodeRlite(rlite);

    JsonNode nodelist = exec.get("nodelist");
    if (nodelist != null) {
      nodes = assignHosts(nodes, nodelist);
    }
    JsonNode pj = exec.get("properties");
    if (pj != null) {
      nodes = assignProperties(nodes, pj);
    }
    double start = time(exec, "starttime");
    double end = time(exec, "expiration");
    long nslots = 0;
    JsonNode ns = exec.get("nslots");
    if (ns != null) {
      if (!ns.isIntegralNumber() || !ns.canConvertToLong()) {
        throw error("/execution/nslots", describe(ns) + " is not an integer");
      }
      nslots = Math.max(0, ns.longValue());
    }
    JsonNode sched = root.get("scheduling");
    return new ResourceSet(
        nodes.toArray(new RNode[0]), start, end, nslots, sched == null ? null : realsKept(sched));
  }

  private static double time(JsonNode exec, String key) {
    JsonNode t = exec.get(key);
    if (t == null) {
      return 0;
    }
    if (!t.isNumber()) {
      throw error("/execution/" + key, describe(t) + " is not a number (expected: epoch seconds)");
    }
    double v = t.doubleValue();
    if (!Double.isFinite(v)) {
      throw error("/execution/" + key, t.asText() + " is out of range (expected: epoch seconds)");
    }
    return v > 0 ? v : 0;
  }

  /** Targets in flux-core's list order: new ranks appended as met, repeated ranks merged. */
  private static List<RNode> decodeRlite(JsonNode rlite) {
    List<RNode> out = new ArrayList<>();
    RankIndex at = new RankIndex(rlite.size());
    long total = 0;
    for (int i = 0; i < rlite.size(); i++) {
      String ptr = "/execution/R_lite/" + i;
      JsonNode e = rlite.get(i);
      if (!e.isObject()) {
        throw error(ptr, describe(e) + " is not an object (expected: {rank, children})");
      }
      JsonNode rank = e.get("rank");
      if (rank == null) {
        throw error(ptr + "/rank", "is missing (expected: an idset string)");
      }
      if (!rank.isTextual()) {
        throw error(ptr + "/rank", describe(rank) + " is not a string (expected: an idset string)");
      }
      IdSet ranks = idset(ptr + "/rank", rank.textValue());
      total += ranks.count();
      if (total > ResourceSet.MAX_RANKS) {
        throw error(
            RsetException.Reason.RANGE,
            ptr + "/rank",
            "R names more than " + ResourceSet.MAX_RANKS + " ranks (expected: at most that many)");
      }
      JsonNode children = e.get("children");
      if (children == null) {
        throw error(ptr + "/children", "is missing (expected: an object)");
      }
      if (!children.isObject()) {
        throw error(ptr + "/children", describe(children) + " is not an object");
      }
      Children c = Children.NONE;
      for (Map.Entry<String, JsonNode> f : children.properties()) {
        String cptr = ptr + "/children/" + pointerEscape(f.getKey());
        if (!f.getValue().isTextual()) {
          throw error(
              cptr, describe(f.getValue()) + " is not a string (expected: an idset string)");
        }
        c = c.with(f.getKey(), idset(cptr, f.getValue().textValue()));
      }
      for (PrimitiveIterator.OfInt it = ranks.iterator(); it.hasNext(); ) {
        int r = it.nextInt();
        int p = at.get(r);
        if (p < 0) {
          at.put(r, out.size());
          out.add(new RNode(r, null, c));
          continue;
        }
        RNode prev = out.get(p);
        String shared = prev.children().overlap(c);
        if (shared != null) {
          throw error(
              RsetException.Reason.EXISTS,
              ptr,
              "rank "
                  + r
                  + " has "
                  + shared
                  + " "
                  + prev.children()
                      .get(shared)
                      .intersection(c.get(shared))
                      .encode(IdSet.Style.RANGES)
                  + " more than once (expected: each id once per rank)");
        }
        out.set(p, prev.withChildren(prev.children().union(c)));
      }
    }
    return out;
  }

  static String pointerEscape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  static IdSet idset(String pointer, String text) {
    try {
      return IdSet.parse(text);
    } catch (RsetException e) {
      throw new RsetException(e.reason(), "R: " + pointer + ": " + e.getMessage());
    }
  }

  /** Hosts given to the targets in ascending rank order; the targets end up in rank order. */
  private static List<RNode> assignHosts(List<RNode> nodes, JsonNode nodelist) {
    String ptr = "/execution/nodelist";
    if (!nodelist.isArray()) {
      throw error(ptr, describe(nodelist) + " is not an array (expected: an array of hostlists)");
    }
    List<Hostlist> parts = new ArrayList<>(nodelist.size());
    long total = 0;
    for (int i = 0; i < nodelist.size(); i++) {
      JsonNode e = nodelist.get(i);
      if (!e.isTextual()) {
        throw error(ptr + "/" + i, describe(e) + " is not a string (expected: a hostlist)");
      }
      Hostlist h;
      try {
        h = Hostlist.parse(e.textValue());
      } catch (RsetException ex) {
        throw new RsetException(ex.reason(), "R: " + ptr + "/" + i + ": " + ex.getMessage());
      }
      total += h.count();
      if (total > ResourceSet.MAX_RANKS) {
        break;
      }
      parts.add(h);
    }
    if (total != nodes.size()) {
      throw error(
          ptr,
          "names "
              + total
              + " host"
              + (total == 1 ? "" : "s")
              + " for "
              + nodes.size()
              + " rank"
              + (nodes.size() == 1 ? "" : "s")
              + " (expected: one host per rank)");
    }
    int[] order = rankOrder(nodes);
    List<RNode> out = new ArrayList<>(order.length);
    int k = 0;
    for (Hostlist h : parts) {
      for (String host : h.expand()) {
        out.add(nodes.get(order[k++]).withHost(host));
      }
    }
    return out;
  }

  /**
   * List positions of the targets in ascending rank order: by direct placement when the ranks are
   * dense (the usual case), else by sorting.
   */
  private static int[] rankOrder(List<RNode> nodes) {
    int n = nodes.size();
    int min = Integer.MAX_VALUE;
    int max = -1;
    for (RNode x : nodes) {
      min = Math.min(min, x.rank());
      max = Math.max(max, x.rank());
    }
    int[] order = new int[n];
    if (n > 0 && (long) max - min < 4L * n) {
      int[] at = new int[max - min + 1];
      Arrays.fill(at, -1);
      for (int i = 0; i < n; i++) {
        at[nodes.get(i).rank() - min] = i;
      }
      int k = 0;
      for (int p : at) {
        if (p >= 0) {
          order[k++] = p;
        }
      }
      return order;
    }
    long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      packed[i] = ((long) nodes.get(i).rank() << 32) | i;
    }
    Arrays.sort(packed);
    for (int i = 0; i < n; i++) {
      order[i] = (int) packed[i];
    }
    return order;
  }

  private static List<RNode> assignProperties(List<RNode> nodes, JsonNode pj) {
    String ptr = "/execution/properties";
    if (!pj.isObject()) {
      throw error(ptr, describe(pj) + ": properties must be an object");
    }
    Map<String, IdSet> props = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> f : pj.properties()) {
      String name = f.getKey();
      String pptr = ptr + "/" + pointerEscape(name);
      if (!f.getValue().isTextual()) {
        throw error(
            pptr, "properties value '" + f.getValue() + "' not a string (expected: an idset)");
      }
      try {
        checkPropertyName(name);
      } catch (RsetException e) {
        throw new RsetException("R: " + pptr + ": " + e.getMessage());
      }
      IdSet ranks;
      try {
        ranks = IdSet.parse(f.getValue().textValue());
      } catch (RsetException e) {
        throw error(
            pptr,
            "invalid idset '"
                + IdSet.abbreviate(f.getValue().textValue())
                + "' specified for property \""
                + name
                + "\"");
      }
      props.put(name, ranks);
    }
    RankIndex at = new RankIndex(nodes.size());
    IdSet.Builder all = IdSet.builder();
    for (int i = 0; i < nodes.size(); i++) {
      at.put(nodes.get(i).rank(), i);
      all.add(nodes.get(i).rank());
    }
    IdSet ranksOfR = all.build();
    List<RNode> out = new ArrayList<>(nodes);
    for (Map.Entry<String, IdSet> e : props.entrySet()) {
      IdSet missing = e.getValue().difference(ranksOfR);
      if (!missing.isEmpty()) {
        RsetException x = ranksNotFound(missing);
        throw new RsetException(
            x.reason(), "R: " + ptr + "/" + pointerEscape(e.getKey()) + ": " + x.getMessage());
      }
      Set<String> one = Set.of(e.getKey());
      for (PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        int p = at.get(it.nextInt());
        out.set(p, out.get(p).plusProperties(one));
      }
    }
    return out;
  }

  static RsetException ranksNotFound(IdSet missing) {
    return new RsetException(
        RsetException.Reason.NOT_FOUND,
        (missing.count() == 1 ? "rank " : "ranks ")
            + missing
            + " not found in target resource list");
  }

  /** A property name may hold any character but those flux-core refuses: ^ & ' " ` | ( ). */
  static void checkPropertyName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (FORBIDDEN_IN_NAME.indexOf(c) >= 0) {
        throw new RsetException(
            "invalid character '"
                + c
                + "' in property \""
                + name
                + "\" (expected: none of "
                + FORBIDDEN_IN_NAME
                + ")");
      }
    }
  }

  static IdSet ranksOf(RNode[] nodes) {
    IdSet.Builder b = IdSet.builder();
    for (RNode n : nodes) {
      b.add(n.rank());
    }
    return b.build();
  }

  static ObjectNode encode(ResourceSet r) {
    ObjectNode root = NODES.objectNode();
    root.put("version", 1);
    ObjectNode exec = root.putObject("execution");
    ArrayNode rlite = exec.putArray("R_lite");
    RCompact.Layout l = RCompact.Layout.of(r);
    for (Map.Entry<Children, IdSet.Builder> g : l.groups.entrySet()) {
      Children c = g.getKey();
      if (c.isEmpty()) {
        continue;
      }
      ObjectNode e = rlite.addObject();
      e.put("rank", g.getValue().build().toString());
      ObjectNode ch = e.putObject("children");
      for (int i = 0; i < c.size(); i++) {
        if (!c.set(i).isEmpty()) {
          ch.put(c.name(i), c.set(i).toString());
        }
      }
    }
    if (r.nslots() > 0) {
      exec.put("nslots", r.nslots());
    }
    exec.set("starttime", DecimalNode.valueOf(seconds(r.starttime())));
    exec.set("expiration", DecimalNode.valueOf(seconds(r.expiration())));
    if (l.hosts) {
      exec.putArray("nodelist").add(l.nodelist(r));
    }
    if (!l.props.isEmpty()) {
      ObjectNode p = exec.putObject("properties");
      l.props.forEach((k, v) -> p.put(k, v.build().toString()));
    }
    if (r.schedulingShared() != null) {
      root.set("scheduling", r.schedulingShared().deepCopy());
    }
    return root;
  }

  /**
   * A deep copy in which every real stays a real when written: {@code 1e3} would otherwise be
   * written plainly as the integer {@code 1000}; it becomes {@code 1000.0}, as jansson writes it.
   */
  static JsonNode realsKept(JsonNode n) {
    if (n.isBigDecimal()) {
      BigDecimal d = n.decimalValue();
      return d.scale() <= 0 ? DecimalNode.valueOf(d.setScale(1)) : n;
    }
    if (n.isArray()) {
      ArrayNode a = NODES.arrayNode(n.size());
      n.forEach(e -> a.add(realsKept(e)));
      return a;
    }
    if (n.isObject()) {
      ObjectNode o = NODES.objectNode();
      n.properties().forEach(e -> o.set(e.getKey(), realsKept(e.getValue())));
      return o;
    }
    return n.deepCopy();
  }

  /** Epoch seconds as a real written plainly: 0.0, 1795966031.0037868. */
  static BigDecimal seconds(double v) {
    BigDecimal d = new BigDecimal(Double.toString(v));
    return d.scale() <= 0 ? d.setScale(1) : d;
  }
}
