package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An immutable RFC 20 resource set (R version 1): execution targets, each with a rank, a host name,
 * its resources ({@code core}, {@code gpu}, ...) and properties; plus {@code starttime}, {@code
 * expiration}, {@code nslots} and the opaque {@code scheduling} value.
 *
 * <p>It behaves as flux-core's librlist, so that {@code fluxdrm R} prints what {@code flux R}
 * prints: parsing follows {@code rlist_from_json()}, {@link #toJson()} follows {@code rlist_to_R()}
 * (ranks with identical resources share one R_lite entry, one compressed nodelist string, times
 * always written), and each operation keeps librlist's rules for which operand's host names,
 * properties, times and {@code scheduling} survive. The targets keep librlist's list order, which
 * {@link #summary()} follows; the JSON is always in rank order. Operations work by rank: a rank
 * left without resources disappears with its host and properties.
 *
 * <p>Why one class: it is one immutable value carrying librlist's algebra, and every operation must
 * keep the same per-rank rules for hosts, properties and times; the JSON codec is apart ({@code
 * RCodec}).
 */
public final class ResourceSet {

  /** Most ranks one R may name. */
  public static final int MAX_RANKS = 1 << 20;

  private static final RNode[] NO_NODES = new RNode[0];
  private static final ResourceSet EMPTY = new ResourceSet(NO_NODES, 0, 0, 0, null);

  /** Targets in list order. */
  private final RNode[] nodes;

  private final double starttime;
  private final double expiration;
  private final long nslots;

  /** Null when absent; a JSON null is kept as such, as flux-core does. */
  private final JsonNode scheduling;

  /** Ranks in ascending order and the list position of each; built on first use. */
  private int[] sortedRanks;

  private int[] positions;

  ResourceSet(
      RNode[] nodes, double starttime, double expiration, long nslots, JsonNode scheduling) {
    this(nodes, starttime, expiration, nslots, scheduling, new Memo());
  }

  private ResourceSet(
      RNode[] nodes,
      double starttime,
      double expiration,
      long nslots,
      JsonNode scheduling,
      Memo memo) {
    this.memo = memo;
    this.nodes = nodes;
    this.starttime = starttime;
    this.expiration = expiration;
    this.nslots = nslots;
    this.scheduling = scheduling;
  }

  public static ResourceSet empty() {
    return EMPTY;
  }

  /**
   * Decodes R from JSON text.
   *
   * @throws RsetException naming the JSON Pointer of the first problem and the rule it breaks
   */
  public static ResourceSet parse(String json) {
    JsonNode root;
    try {
      root = RCodec.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new RsetException("R: not valid JSON: " + jsonProblem(e));
    }
    return RCodec.decode(root);
  }

  /** Decodes R from a JSON tree. */
  public static ResourceSet fromJson(JsonNode root) {
    return RCodec.decode(root);
  }

  /** Jackson's complaint, on one line, with where it was found. */
  static String jsonProblem(JsonProcessingException e) {
    String msg = e.getOriginalMessage();
    if (msg == null) {
      msg = e.getClass().getSimpleName();
    }
    for (String cut : new String[] {"\n", " (start marker", " at [Source"}) {
      int at = msg.indexOf(cut);
      if (at >= 0) {
        msg = msg.substring(0, at);
      }
    }
    if (msg.length() > 160) {
      msg = msg.substring(0, 160) + "...";
    }
    var loc = e.getLocation();
    return loc == null
        ? msg
        : msg + " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
  }

  /** Result of reading a stream of R documents. */
  public record Documents(List<ResourceSet> sets, String ignored) {}

  /**
   * Decodes a stream of concatenated R documents as {@code flux R} reads stdin: documents are read
   * until the stream ends or the first one that is not JSON; that rest is ignored (and described in
   * {@link Documents#ignored()}), unless no document was read at all.
   *
   * @param what names the stream in messages, e.g. {@code "stdin"}
   * @throws RsetException when no document could be read, or a document is JSON but not a valid R
   */
  public static Documents parseAll(java.io.InputStream in, String what) {
    List<ResourceSet> out = new ArrayList<>();
    String ignored = null;
    try (com.fasterxml.jackson.core.JsonParser p = RCodec.parser(in)) {
      while (true) {
        JsonNode doc;
        try {
          com.fasterxml.jackson.core.JsonToken t = p.nextToken();
          if (t == null) {
            break;
          }
          if (t != com.fasterxml.jackson.core.JsonToken.START_OBJECT
              && t != com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
            throw new com.fasterxml.jackson.core.JsonParseException(
                p, "expected '{' or '[' to start a document, found " + p.getText());
          }
          doc = RCodec.STREAM_READER.readTree(p);
        } catch (JsonProcessingException e) {
          if (out.isEmpty()) {
            throw new RsetException(
                "failed to read an R object from " + what + ": " + jsonProblem(e));
          }
          ignored = "after document " + out.size() + ": " + jsonProblem(e);
          break;
        }
        try {
          out.add(RCodec.decode(doc));
        } catch (RsetException e) {
          throw new RsetException(
              e.reason(),
              "failed to decode R on "
                  + what
                  + " (document "
                  + (out.size() + 1)
                  + "): "
                  + e.getMessage().replaceFirst("^R: ", ""));
        }
      }
    } catch (java.io.IOException e) {
      throw new RsetException("failed to read R from " + what + ": " + e.getMessage());
    }
    if (out.isEmpty()) {
      throw new RsetException(
          "failed to read an R object from "
              + what
              + ": it holds no JSON document (expected: at least one R object)");
    }
    return new Documents(out, ignored);
  }

  /**
   * An R whose ranks all hold the same cores and GPUs, as {@code flux R encode} builds it.
   *
   * @param hosts host names for the ranks in ascending order, or null for none
   * @throws RsetException when the host count differs from the rank count
   */
  public static ResourceSet of(IdSet ranks, IdSet cores, IdSet gpus, Hostlist hosts) {
    return ofHostNames(ranks, cores, gpus, hosts == null ? null : hosts.expand());
  }

  /**
   * As {@link #of(IdSet, IdSet, IdSet, Hostlist)}, with the host names listed one per rank (names
   * that are already valid host names, such as those of another R): no hostlist is made of them.
   *
   * @param hosts host names for the ranks in ascending order, or null for none
   * @throws RsetException when the host count differs from the rank count
   */
  public static ResourceSet ofHostNames(IdSet ranks, IdSet cores, IdSet gpus, List<String> hosts) {
    if (ranks.count() > MAX_RANKS) {
      throw new RsetException(
          RsetException.Reason.RANGE,
          "R: " + ranks.count() + " ranks is more than " + MAX_RANKS + " (expected: fewer)");
    }
    if (hosts != null && hosts.size() != ranks.count()) {
      throw new RsetException(
          "R: "
              + hosts.size()
              + " hosts for "
              + ranks.count()
              + " ranks (expected: one host per rank)");
    }
    Children c = Children.NONE.with("core", cores);
    if (!gpus.isEmpty()) {
      c = c.with("gpu", gpus);
    }
    RNode[] out = new RNode[(int) ranks.count()];
    int k = 0;
    for (PrimitiveIterator.OfInt it = ranks.iterator(); it.hasNext(); k++) {
      out[k] = new RNode(it.nextInt(), hosts == null ? null : hosts.get(k), c);
    }
    return new ResourceSet(out, 0, 0, 0, null);
  }

  /** The RFC 20 JSON of this set, as flux-core's {@code rlist_to_R()} writes it. */
  public JsonNode toJson() {
    return RCodec.encode(this);
  }

  /**
   * The compact UTF-8 JSON text of {@link #toJson()}, byte for byte as Jackson writes that tree,
   * written without building it.
   */
  public byte[] toJsonBytes() {
    return RCompact.encode(this);
  }

  /** Compact JSON text of {@link #toJson()}. */
  @Override
  public String toString() {
    return RCodec.write(toJson());
  }

  RNode[] nodes() {
    return nodes;
  }

  // ---- rank index ---------------------------------------------------------------------------

  private void index() {
    if (sortedRanks != null) {
      return;
    }
    int n = nodes.length;
    int[] ranks = new int[n];
    int[] pos = new int[n];
    boolean sorted = true;
    for (int i = 0; i < n; i++) {
      ranks[i] = nodes[i].rank();
      pos[i] = i;
      if (i > 0 && ranks[i] <= ranks[i - 1]) {
        sorted = false;
      }
    }
    if (!sorted) {
      long[] packed = new long[n];
      for (int i = 0; i < n; i++) {
        packed[i] = ((long) nodes[i].rank() << 32) | i;
      }
      Arrays.sort(packed);
      for (int i = 0; i < n; i++) {
        ranks[i] = (int) (packed[i] >>> 32);
        pos[i] = (int) packed[i];
      }
    }
    positions = pos;
    sortedRanks = ranks;
  }

  /** List position of the target with {@code rank}, or -1. */
  private int position(int rank) {
    index();
    int i = Arrays.binarySearch(sortedRanks, rank);
    return i >= 0 ? positions[i] : -1;
  }

  /** Targets in ascending rank order. */
  RNode[] byRank() {
    index();
    RNode[] out = new RNode[nodes.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = nodes[positions[i]];
    }
    return out;
  }

  // ---- queries ------------------------------------------------------------------------------

  /** Whether the set has no targets. */
  public boolean isEmpty() {
    return nodes.length == 0;
  }

  /** Number of targets (ranks), those without resources included. */
  public int nnodes() {
    return nodes.length;
  }

  /** The ranks. */
  public IdSet ranks() {
    return RCodec.ranksOf(nodes);
  }

  /** Total count of resources of one type ({@code core}, {@code gpu}, ...) over all ranks. */
  public long count(String type) {
    long n = 0;
    for (RNode node : nodes) {
      n += node.children().get(type).count();
    }
    return n;
  }

  /** The resources of {@code type} on {@code rank}; empty when there are none. */
  public IdSet resources(int rank, String type) {
    int p = position(rank);
    return p < 0 ? IdSet.empty() : nodes[p].children().get(type);
  }

  /** The host name of {@code rank}, or null when the rank is absent or has no host name. */
  public String host(int rank) {
    int p = position(rank);
    return p < 0 ? null : nodes[p].host();
  }

  /** Whether every rank has a host name. */
  public boolean hasNodelist() {
    for (RNode n : nodes) {
      if (n.host() == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * Host names in rank order.
   *
   * @throws RsetException NOT_FOUND when some rank has no host name
   */
  public Hostlist nodelist() {
    List<String> hosts = new ArrayList<>(nodes.length);
    for (RNode n : byRank()) {
      if (n.host() == null) {
        throw new RsetException(
            RsetException.Reason.NOT_FOUND,
            "R: rank " + n.rank() + " has no host name (R has no nodelist)");
      }
      hosts.add(n.host());
    }
    return Hostlist.of(hosts);
  }

  /** Property name to the ranks that have it, names sorted. */
  public Map<String, IdSet> properties() {
    Map<String, IdSet.Builder> b = new TreeMap<>();
    for (RNode n : nodes) {
      for (String p : n.properties()) {
        b.computeIfAbsent(p, x -> IdSet.builder()).add(n.rank());
      }
    }
    Map<String, IdSet> out = new LinkedHashMap<>();
    b.forEach((k, v) -> out.put(k, v.build()));
    return Collections.unmodifiableMap(out);
  }

  public double starttime() {
    return starttime;
  }

  public double expiration() {
    return expiration;
  }

  /** Slots of a scheduler allocation; 0 when absent. */
  public long nslots() {
    return nslots;
  }

  /** The opaque {@code scheduling} value (maybe a JSON null), or null when absent. */
  public JsonNode scheduling() {
    return scheduling == null ? null : scheduling.deepCopy();
  }

  JsonNode schedulingShared() {
    return scheduling;
  }

  /** Whether some target holds no resource at all (kept by flux-core, left out of R_lite). */
  public boolean hasEmptyTarget() {
    for (RNode n : nodes) {
      if (n.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The one-line summary of flux-core's {@code rlist_dumps()}: targets with identical resources
   * grouped in order of first appearance, e.g. {@code rank[0-1]/core[0-3],gpu0 rank2/core[0-7]};
   * empty for a set without resources.
   */
  public String summary() {
    String s = memo.summary;
    if (s == null) {
      s = makeSummary();
      memo.summary = s;
    }
    return s;
  }

  /**
   * What is made once of the nodes and shared with the copies that differ in times or nslots only
   * (a grant's R is summarized when granted and when freed); a benign race: any thread makes the
   * same string.
   */
  private static final class Memo {
    String summary;
  }

  private final Memo memo;

  private String makeSummary() {
    Map<Children, IdSet.Builder> groups = new LinkedHashMap<>();
    for (RNode n : nodes) {
      if (!n.isEmpty()) {
        groups.computeIfAbsent(n.children(), c -> IdSet.builder()).add(n.rank());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<Children, IdSet.Builder> g : groups.entrySet()) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append("rank").append(g.getValue().build().encode(IdSet.Style.BRACKETS)).append('/');
      g.getKey().appendSummary(sb);
    }
    return sb.toString();
  }

  // ---- new sets ------------------------------------------------------------------------------

  /**
   * This set with other times (negative values become 0, "unset").
   *
   * @throws RsetException when a time is not a finite number
   */
  public ResourceSet withTimes(double start, double end) {
    if (!Double.isFinite(start) || !Double.isFinite(end)) {
      throw new RsetException(
          "R: times "
              + start
              + " and "
              + end
              + " are not both finite (expected: epoch seconds, 0 for unset)");
    }
    return new ResourceSet(nodes, Math.max(0, start), Math.max(0, end), nslots, scheduling, memo);
  }

  /** This set with {@code nslots} set (0 removes it). */
  public ResourceSet withNslots(long n) {
    return new ResourceSet(nodes, starttime, expiration, Math.max(0, n), scheduling, memo);
  }

  /**
   * This set with its targets' host names given in rank order.
   *
   * @throws RsetException when the host count differs from the rank count
   */
  public ResourceSet withHosts(Hostlist hosts) {
    if (hosts.count() != nodes.length) {
      throw new RsetException(
          "R: "
              + hosts.count()
              + " hosts for "
              + nodes.length
              + " ranks (expected: one host per rank)");
    }
    List<String> names = hosts.expand();
    RNode[] sorted = byRank();
    RNode[] out = new RNode[nodes.length];
    for (int i = 0; i < sorted.length; i++) {
      out[i] = sorted[i].withHost(names.get(i));
    }
    return new ResourceSet(out, starttime, expiration, nslots, scheduling);
  }

  /**
   * This set with properties added to ranks ({@code rlist_assign_properties}): every name is
   * checked first, then each is added in order.
   *
   * @param props property name to ranks, in the order to apply them
   * @throws RsetException for a forbidden character in a name, or ranks that are not in the set
   */
  public ResourceSet withProperties(Map<String, IdSet> props) {
    for (String name : props.keySet()) {
      RCodec.checkPropertyName(name);
    }
    RNode[] out = nodes.clone();
    for (Map.Entry<String, IdSet> e : props.entrySet()) {
      IdSet missing = e.getValue().difference(ranks());
      if (!missing.isEmpty()) {
        throw RCodec.ranksNotFound(missing);
      }
      Set<String> one = Set.of(e.getKey());
      for (PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        int p = position(it.nextInt());
        out[p] = out[p].plusProperties(one);
      }
    }
    return new ResourceSet(out, starttime, expiration, nslots, scheduling);
  }

  /** This set with one property added to {@code ranks}. */
  public ResourceSet withProperty(String name, IdSet ranks) {
    return withProperties(Map.of(name, ranks));
  }

  /** The merge of {@code y} into {@code x} (same rank): x's host, both sets of properties. */
  private static RNode merge(RNode x, RNode y, Children union) {
    return x.withChildren(union).plusProperties(y.properties());
  }

  /**
   * This set with {@code other}'s targets added ({@code rlist_append}): a rank in both keeps this
   * set's host name and gets other's properties too. Times and nslots are not carried over (the
   * result is a new allocation in librlist's terms); {@code scheduling} is this set's, or other's.
   *
   * @throws RsetException EXISTS when a rank holds an id of the same type in both
   */
  public ResourceSet append(ResourceSet other) {
    RNode[] out = Arrays.copyOf(nodes, nodes.length + other.nodes.length);
    int n = nodes.length;
    for (RNode y : other.nodes) {
      int p = position(y.rank());
      if (p < 0) {
        out[n++] = y;
        continue;
      }
      RNode x = out[p];
      String shared = x.children().overlap(y.children());
      if (shared != null) {
        throw new RsetException(
            RsetException.Reason.EXISTS,
            "R: rank "
                + y.rank()
                + " holds "
                + shared
                + " "
                + x.children()
                    .get(shared)
                    .intersection(y.children().get(shared))
                    .encode(IdSet.Style.BRACKETS)
                + " in both sets (expected: disjoint resources)");
      }
      out[p] = merge(x, y, x.children().union(y.children()));
    }
    return new ResourceSet(
        n == out.length ? out : Arrays.copyOf(out, n),
        0,
        0,
        0,
        scheduling != null ? scheduling : other.scheduling);
  }

  /**
   * This set − other by rank ({@code rlist_diff}): on each rank of other, the ids of each type both
   * have are removed; a type other than core left empty disappears, and so does a target left
   * without resources. Host names and properties are this set's; times and nslots are dropped.
   */
  public ResourceSet diff(ResourceSet other) {
    return new ResourceSet(diffNodes(other).toArray(NO_NODES), 0, 0, 0, scheduling);
  }

  private List<RNode> diffNodes(ResourceSet other) {
    List<RNode> list = new ArrayList<>(nodes.length);
    boolean[] detached = new boolean[nodes.length];
    List<RNode> tail = new ArrayList<>();
    for (RNode y : other.nodes) {
      int p = position(y.rank());
      if (p < 0) {
        continue;
      }
      detached[p] = true;
      RNode x = nodes[p];
      if (!x.children().coveredBy(y.children())) {
        tail.add(x.withChildren(x.children().difference(y.children())));
      }
    }
    for (int i = 0; i < nodes.length; i++) {
      if (!detached[i]) {
        list.add(nodes[i]);
      }
    }
    list.addAll(tail);
    return list;
  }

  /**
   * This set ∪ other ({@code rlist_union}: the difference, then other appended). A rank in both
   * keeps this set's host name and properties while some of its own ids remain; times and nslots
   * are dropped; {@code scheduling} is this set's, or other's.
   */
  public ResourceSet union(ResourceSet other) {
    // rlist_union = diff then append: this set's targets that other does not name (this order),
    // then the remainders other merges into (other's order), then other's remaining targets
    boolean[] detached = new boolean[nodes.length];
    RNode[] merged = new RNode[other.nodes.length];
    RNode[] rest = new RNode[other.nodes.length];
    int m = 0;
    int r = 0;
    int d = 0;
    for (RNode y : other.nodes) {
      int p = position(y.rank());
      if (p < 0) {
        rest[r++] = y;
        continue;
      }
      detached[p] = true;
      d++;
      RNode x = nodes[p];
      // (x - y) ∪ y is x ∪ y type by type, empty types included
      if (x.children().coveredBy(y.children())) {
        rest[r++] = y;
      } else {
        merged[m++] = merge(x, y, x.children().union(y.children()));
      }
    }
    RNode[] out = new RNode[nodes.length - d + m + r];
    int n = 0;
    for (int i = 0; i < nodes.length; i++) {
      if (!detached[i]) {
        out[n++] = nodes[i];
      }
    }
    System.arraycopy(merged, 0, out, n, m);
    System.arraycopy(rest, 0, out, n + m, r);
    return new ResourceSet(out, 0, 0, 0, scheduling != null ? scheduling : other.scheduling);
  }

  /**
   * This set ∩ other by rank ({@code rlist_intersect}): the ids both hold on each rank both name,
   * in other's order; ranks whose host names differ are skipped; properties, times and nslots are
   * dropped.
   */
  public ResourceSet intersect(ResourceSet other) {
    List<RNode> list = new ArrayList<>();
    for (RNode y : other.nodes) {
      int p = position(y.rank());
      if (p < 0) {
        continue;
      }
      RNode x = nodes[p];
      if (x.host() != null && y.host() != null && !x.host().equals(y.host())) {
        continue;
      }
      Children c = x.children().intersection(y.children());
      if (!c.isEmpty()) {
        list.add(new RNode(x.rank(), x.host(), c));
      }
    }
    return new ResourceSet(list.toArray(NO_NODES), 0, 0, 0, list.isEmpty() ? null : scheduling);
  }

  /** The targets whose rank is in {@code ranks}, in rank order; times and nslots are dropped. */
  public ResourceSet copyRanks(IdSet ranks) {
    List<RNode> list = new ArrayList<>();
    for (RNode x : byRank()) {
      if (ranks.contains(x.rank())) {
        list.add(x);
      }
    }
    return new ResourceSet(list.toArray(NO_NODES), 0, 0, 0, list.isEmpty() ? null : scheduling);
  }

  /** This set without the targets whose rank is in {@code ranks}; everything else is kept. */
  public ResourceSet removeRanks(IdSet ranks) {
    List<RNode> list = new ArrayList<>(nodes.length);
    for (RNode x : nodes) {
      if (!ranks.contains(x.rank())) {
        list.add(x);
      }
    }
    return new ResourceSet(list.toArray(NO_NODES), starttime, expiration, nslots, scheduling);
  }

  /**
   * The targets that match an RFC 31 constraint, in list order ({@code rlist_copy_constraint});
   * times and nslots are dropped.
   */
  public ResourceSet copyConstraint(Constraint constraint) {
    List<RNode> list = new ArrayList<>();
    for (RNode x : nodes) {
      if (constraint.matches(x.rank(), x.host(), (r, name) -> x.properties().contains(name))) {
        list.add(x);
      }
    }
    return new ResourceSet(list.toArray(NO_NODES), 0, 0, 0, list.isEmpty() ? null : scheduling);
  }

  /**
   * Ranks renumbered 0..n-1 in ascending order, and on each target every resource type but {@code
   * gpu} renumbered densely from 0 ({@code rlist_remap}).
   */
  public ResourceSet remap() {
    RNode[] sorted = byRank();
    RNode[] out = new RNode[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      Children c = sorted[i].children();
      Children d = c;
      for (int k = 0; k < c.size(); k++) {
        IdSet s = c.set(k);
        if (!c.name(k).equals("gpu") && !s.isEmpty()) {
          d = d.with(c.name(k), IdSet.range(0, (int) s.count() - 1));
        }
      }
      out[i] = new RNode(i, sorted[i].host(), d, sorted[i].properties());
    }
    return new ResourceSet(out, starttime, expiration, nslots, scheduling);
  }

  /**
   * Ranks reassigned so that the i-th host of {@code hosts} becomes rank i ({@code rlist_rerank}):
   * each host goes to the first target in list order with that name not yet taken.
   *
   * @throws RsetException TOO_FEW or TOO_MANY when the host count differs from the rank count,
   *     NOT_FOUND for a host that is not in the set
   */
  public ResourceSet rerank(Hostlist hosts) {
    if (hosts.count() > nodes.length) {
      throw new RsetException(
          RsetException.Reason.TOO_MANY,
          "Number of hosts ("
              + hosts.count()
              + ") is greater than node count ("
              + nodes.length
              + ")");
    }
    if (hosts.count() < nodes.length) {
      throw new RsetException(
          RsetException.Reason.TOO_FEW,
          "Number of hosts (" + hosts.count() + ") is less than node count (" + nodes.length + ")");
    }
    Map<String, List<Integer>> byHost = new HashMap<>();
    for (int i = 0; i < nodes.length; i++) {
      if (nodes[i].host() != null) {
        byHost.computeIfAbsent(nodes[i].host(), h -> new ArrayList<>(1)).add(i);
      }
    }
    RNode[] out = nodes.clone();
    Map<String, Integer> used = new HashMap<>();
    int k = 0;
    for (String h : hosts.expand()) {
      List<Integer> at = byHost.get(h);
      int u = used.getOrDefault(h, 0);
      if (at == null || u >= at.size()) {
        throw new RsetException(
            RsetException.Reason.NOT_FOUND, "Host " + h + " not found in resources");
      }
      used.put(h, u + 1);
      int p = at.get(u);
      out[p] = nodes[p].withRank(k++);
    }
    return new ResourceSet(out, starttime, expiration, nslots, scheduling);
  }

  /**
   * The ranks whose host is listed in {@code hosts} (several ranks may share a host).
   *
   * @throws RsetException NOT_FOUND naming the hosts that are not in the set
   */
  public IdSet hostsToRanks(Hostlist hosts) {
    Map<String, IdSet.Builder> byHost = new HashMap<>();
    for (RNode n : nodes) {
      if (n.host() != null) {
        byHost.computeIfAbsent(n.host(), h -> IdSet.builder()).add(n.rank());
      }
    }
    IdSet.Builder out = IdSet.builder();
    List<String> missing = new ArrayList<>();
    for (String h : hosts.expand()) {
      IdSet.Builder b = byHost.get(h);
      if (b == null) {
        missing.add(h);
      } else {
        out.addAll(b.build());
      }
    }
    if (!missing.isEmpty()) {
      throw new RsetException(
          RsetException.Reason.NOT_FOUND, "invalid hosts: " + Hostlist.of(missing));
    }
    return out.build();
  }

  /**
   * Checks what one rank really has ({@code actual}, one target) against what this set expects of
   * it ({@code rlist_verify}): missing resources fail, extra resources only warn.
   */
  public Verification verify(ResourceSet actual) {
    if (actual.nodes.length != 1) {
      return new Verification(false, "Verification supported on single rank only");
    }
    RNode a = actual.nodes[0];
    int p = position(a.rank());
    if (p < 0) {
      return new Verification(false, "rank " + a.rank() + " not found in expected ranks");
    }
    RNode e = nodes[p];
    if (a.host() != null && e.host() != null && !a.host().equals(e.host())) {
      return new Verification(
          false,
          "rank " + a.rank() + " got hostname '" + a.host() + "', expected '" + e.host() + "'");
    }
    String who = "rank " + a.rank() + " (" + (a.host() == null ? "unknown" : a.host()) + ")";
    Children missing = e.children().difference(a.children());
    if (!missing.isEmpty()) {
      return new Verification(false, who + " missing resources: " + missing);
    }
    Children extra = a.children().difference(e.children());
    if (!extra.isEmpty()) {
      return new Verification(true, who + " has extra resources: " + extra);
    }
    return new Verification(true, "");
  }

  /** Outcome of {@link #verify}: whether it passed, and the message (empty when all is equal). */
  public record Verification(boolean ok, String message) {}

  /** Equal as R documents: same targets (in rank order) and the same times, nslots, scheduling. */
  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceSet r
        && Arrays.equals(byRank(), r.byRank())
        && Double.compare(starttime, r.starttime) == 0
        && Double.compare(expiration, r.expiration) == 0
        && nslots == r.nslots
        && Objects.equals(scheduling, r.scheduling);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(byRank());
  }

  static Set<String> sortedSet(java.util.Collection<String> names) {
    return names.isEmpty() ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(names));
  }
}
