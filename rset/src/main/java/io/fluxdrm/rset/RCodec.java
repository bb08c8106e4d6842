package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes R version 1 JSON (RFC 20) with the checks of flux-core's rlist_from_json. */
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
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RCodec() {}

  static RsetException error(String pointer, String what) {
    return new RsetException("R: " + pointer + ": " + what);
  }

  static RsetException error(RsetException.Reason reason, String pointer, String what) {
    return new RsetException(reason, "R: " + pointer + ": " + what);
  }

  static String describe(JsonNode n) {
    String text = n.toString();
    if (text.length() > 40) {
      text = text.substring(0, 40) + "...";
    }
    return text + " (" + n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT) + ")";
  }

  static ResourceSet decode(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw new RsetException(
          "R: the document is "
              + (root == null ? "missing" : describe(root))
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
    if (!rlite.isArray()) {
      throw error("/execution/R_lite", describe(rlite) + " is not an array");
    }
    RNode[] nodes = decodeRlite(rlite);

    JsonNode nodelist = exec.get("nodelist");
    if (nodelist != null && !nodelist.isNull()) {
      nodes = assignHosts(nodes, nodelist);
    }
    Map<String, IdSet> props = Map.of();
    JsonNode pj = exec.get("properties");
    if (pj != null && !pj.isNull()) {
      props = decodeProperties(pj, nodes);
    }
    double start = time(exec, "starttime");
    double end = time(exec, "expiration");
    long nslots = 0;
    JsonNode ns = exec.get("nslots");
    if (ns != null && !ns.isNull()) {
      if (!ns.isIntegralNumber() || !ns.canConvertToLong()) {
        throw error("/execution/nslots", describe(ns) + " is not an integer");
      }
      nslots = Math.max(0, ns.longValue());
    }
    JsonNode sched = root.get("scheduling");
    if (sched != null && sched.isNull()) {
      sched = null;
    }
    if (sched != null && !sched.isObject()) {
      throw error("/scheduling", describe(sched) + " is not an object");
    }
    return new ResourceSet(
        nodes, props, start, end, nslots, sched == null ? null : sched.deepCopy());
  }

  private static double time(JsonNode exec, String key) {
    JsonNode t = exec.get(key);
    if (t == null || t.isNull()) {
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

  private static RNode[] decodeRlite(JsonNode rlite) {
    int n = rlite.size();
    Children[] kids = new Children[n];
    long total = 0;
    List<IdSet> rankSets = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String at = "/execution/R_lite/" + i;
      JsonNode e = rlite.get(i);
      if (!e.isObject()) {
        throw error(at, describe(e) + " is not an object (expected: {rank, children})");
      }
      JsonNode rank = e.get("rank");
      if (rank == null) {
        throw error(at + "/rank", "is missing (expected: an idset string)");
      }
      if (!rank.isTextual()) {
        throw error(at + "/rank", describe(rank) + " is not a string (expected: an idset string)");
      }
      IdSet ranks = idset(at + "/rank", rank.textValue());
      total += ranks.count();
      if (total > ResourceSet.MAX_RANKS) {
        throw error(
            RsetException.Reason.RANGE,
            at + "/rank",
            "R names more than " + ResourceSet.MAX_RANKS + " ranks (expected: at most that many)");
      }
      rankSets.add(ranks);
      JsonNode children = e.get("children");
      if (children == null) {
        throw error(at + "/children", "is missing (expected: an object)");
      }
      if (!children.isObject()) {
        throw error(at + "/children", describe(children) + " is not an object");
      }
      Children c = Children.NONE;
      Iterator<Map.Entry<String, JsonNode>> it = children.properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> f = it.next();
        String cat = at + "/children/" + pointerEscape(f.getKey());
        if (!f.getValue().isTextual()) {
          throw error(cat, describe(f.getValue()) + " is not a string (expected: an idset string)");
        }
        c = c.with(f.getKey(), idset(cat, f.getValue().textValue()));
      }
      kids[i] = c;
    }
    // one node per rank; entries naming the same rank are merged, shared ids are an error
    int[] order = new int[(int) total];
    int[] entryOf = new int[(int) total];
    int k = 0;
    for (int i = 0; i < n; i++) {
      for (java.util.PrimitiveIterator.OfInt r = rankSets.get(i).iterator(); r.hasNext(); ) {
        order[k] = r.nextInt();
        entryOf[k] = i;
        k++;
      }
    }
    boolean sorted = true;
    for (int j = 1; j < k && sorted; j++) {
      sorted = order[j] > order[j - 1];
    }
    if (!sorted) {
      long[] packed = new long[k];
      for (int j = 0; j < k; j++) {
        packed[j] = ((long) order[j] << 32) | entryOf[j];
      }
      Arrays.sort(packed);
      for (int j = 0; j < k; j++) {
        order[j] = (int) (packed[j] >>> 32);
        entryOf[j] = (int) packed[j];
      }
    }
    List<RNode> out = new ArrayList<>(k);
    for (int j = 0; j < k; j++) {
      Children c = kids[entryOf[j]];
      int rank = order[j];
      if (!out.isEmpty() && out.get(out.size() - 1).rank() == rank) {
        RNode prev = out.get(out.size() - 1);
        String shared = prev.children().overlap(c);
        if (shared != null) {
          throw error(
              RsetException.Reason.EXISTS,
              "/execution/R_lite/" + entryOf[j],
              "rank "
                  + rank
                  + " has "
                  + shared
                  + " "
                  + prev.children()
                      .get(shared)
                      .intersection(c.get(shared))
                      .encode(IdSet.Style.RANGES)
                  + " more than once (expected: each id once per rank)");
        }
        out.set(out.size() - 1, prev.withChildren(prev.children().union(c)));
      } else {
        out.add(new RNode(rank, null, c));
      }
    }
    return out.toArray(new RNode[0]);
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

  private static RNode[] assignHosts(RNode[] nodes, JsonNode nodelist) {
    String at = "/execution/nodelist";
    if (!nodelist.isArray()) {
      throw error(at, describe(nodelist) + " is not an array (expected: an array of hostlists)");
    }
    List<Hostlist> parts = new ArrayList<>(nodelist.size());
    long total = 0;
    for (int i = 0; i < nodelist.size(); i++) {
      JsonNode e = nodelist.get(i);
      if (!e.isTextual()) {
        throw error(at + "/" + i, describe(e) + " is not a string (expected: a hostlist)");
      }
      Hostlist h;
      try {
        h = Hostlist.parse(e.textValue());
      } catch (RsetException ex) {
        throw new RsetException(ex.reason(), "R: " + at + "/" + i + ": " + ex.getMessage());
      }
      total += h.count();
      parts.add(h);
    }
    if (total != nodes.length) {
      throw error(
          at,
          "names "
              + total
              + " host"
              + (total == 1 ? "" : "s")
              + " for "
              + nodes.length
              + " rank"
              + (nodes.length == 1 ? "" : "s")
              + " (expected: one host per rank)");
    }
    RNode[] out = new RNode[nodes.length];
    int k = 0;
    for (Hostlist h : parts) {
      for (String host : h.expand()) {
        RNode n = nodes[k];
        out[k++] = new RNode(n.rank(), host, n.children());
      }
    }
    return out;
  }

  private static Map<String, IdSet> decodeProperties(JsonNode pj, RNode[] nodes) {
    String at = "/execution/properties";
    if (!pj.isObject()) {
      throw error(at, describe(pj) + ": properties must be an object");
    }
    IdSet all = ranksOf(nodes);
    Map<String, IdSet> props = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = pj.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> f = it.next();
      String name = f.getKey();
      String pat = at + "/" + pointerEscape(name);
      checkPropertyName(pat, name);
      if (!f.getValue().isTextual()) {
        throw error(
            pat,
            "properties value " + describe(f.getValue()) + " is not a string (expected: an idset)");
      }
      IdSet ranks = idset(pat, f.getValue().textValue());
      IdSet missing = ranks.difference(all);
      if (!missing.isEmpty()) {
        throw error(
            RsetException.Reason.NOT_FOUND,
            pat,
            "ranks " + missing + " not found in target resource list");
      }
      if (!ranks.isEmpty()) {
        props.put(name, ranks);
      }
    }
    return props;
  }

  /** Characters RFC 20 forbids in property names. */
  static void checkPropertyName(String where, String name) {
    if (name.isEmpty()) {
      throw error(where, "property name is empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if ("!&'\"^`|()".indexOf(c) >= 0 || Character.isWhitespace(c) || c < 0x20) {
        throw error(
            where,
            "invalid character '"
                + c
                + "' in property \""
                + name
                + "\" (expected: none of !&'\"^`|() or space)");
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
    Map<Children, IdSet.Builder> groups = new LinkedHashMap<>();
    RNode[] nodes = r.nodes();
    boolean hosts = nodes.length > 0;
    for (RNode n : nodes) {
      groups.computeIfAbsent(n.children(), c -> IdSet.builder()).add(n.rank());
      hosts &= n.host() != null;
    }
    for (Map.Entry<Children, IdSet.Builder> g : groups.entrySet()) {
      ObjectNode e = rlite.addObject();
      e.put("rank", g.getValue().build().toString());
      ObjectNode ch = e.putObject("children");
      Children c = g.getKey();
      for (int i = 0; i < c.size(); i++) {
        ch.put(c.name(i), c.set(i).toString());
      }
    }
    exec.put("starttime", r.starttime());
    exec.put("expiration", r.expiration());
    if (r.nslots() > 0) {
      exec.put("nslots", r.nslots());
    }
    if (hosts) {
      exec.putArray("nodelist").add(r.nodelist().toString());
    }
    if (!r.properties().isEmpty()) {
      ObjectNode p = exec.putObject("properties");
      for (Map.Entry<String, IdSet> e : r.properties().entrySet()) {
        p.put(e.getKey(), e.getValue().toString());
      }
    }
    if (r.scheduling() != null) {
      root.set("scheduling", r.scheduling().deepCopy());
    }
    return root;
  }

  static JsonParser parser(java.io.InputStream in) throws java.io.IOException {
    return FACTORY.createParser(in);
  }
}
