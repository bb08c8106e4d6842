package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable RFC 20 resource set (R version 1): execution targets by rank, each with a host name
 * and its resources ({@code core}, {@code gpu}, ...), rank properties, {@code starttime}, {@code
 * expiration}, {@code nslots} and the opaque {@code scheduling} object.
 *
 * <p>Parsing follows flux-core's {@code rlist_from_json()}; {@link #toJson()} follows {@code
 * rlist_to_R()} (ranks with identical resources share one R_lite entry, one compressed nodelist
 * string, times always written). The operations are those of flux-core's librlist and work by rank:
 * a rank left without resources disappears, with its host and its properties.
 */
public final class ResourceSet {

  /** Most ranks one R may name. */
  public static final int MAX_RANKS = 1 << 20;

  private static final ResourceSet EMPTY = new ResourceSet(new RNode[0], Map.of(), 0, 0, 0, null);

  private final RNode[] nodes;
  private final Map<String, IdSet> properties;
  private final double starttime;
  private final double expiration;
  private final long nslots;
  private final JsonNode scheduling;

  ResourceSet(
      RNode[] nodes,
      Map<String, IdSet> properties,
      double starttime,
      double expiration,
      long nslots,
      JsonNode scheduling) {
    this.nodes = nodes;
    this.properties =
        properties.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
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

  /** Decodes R from a JSON tree. */
  public static ResourceSet fromJson(JsonNode root) {
    return RCodec.decode(root);
  }

  /**
   * An R whose ranks all have the same cores and GPUs, as {@code flux R encode} builds it.
   *
   * @param hosts host names for the ranks in ascending order, or null for none
   * @throws RsetException when the host count differs from the rank count
   */
  public static ResourceSet of(IdSet ranks, IdSet cores, IdSet gpus, Hostlist hosts) {
    if (ranks.count() > MAX_RANKS) {
      throw new RsetException(
          RsetException.Reason.RANGE, "R: " + ranks.count() + " ranks is more than " + MAX_RANKS);
    }
    if (hosts != null && hosts.count() != ranks.count()) {
      throw new RsetException(
          "R: "
              + hosts.count()
              + " hosts for "
              + ranks.count()
              + " ranks (expected: one host per rank)");
    }
    Children c = Children.NONE.with("core", cores).with("gpu", gpus);
    List<String> names = hosts == null ? null : hosts.expand();
    RNode[] out = new RNode[(int) ranks.count()];
    int k = 0;
    for (java.util.PrimitiveIterator.OfInt it = ranks.iterator(); it.hasNext(); k++) {
      out[k] = new RNode(it.nextInt(), names == null ? null : names.get(k), c);
    }
    return new ResourceSet(out, Map.of(), 0, 0, 0, null);
  }

  /** The RFC 20 JSON of this set, as flux-core's {@code rlist_to_R()} writes it. */
  public JsonNode toJson() {
    return RCodec.encode(this);
  }

  /** Compact JSON text of {@link #toJson()}. */
  @Override
  public String toString() {
    return toJson().toString();
  }

  RNode[] nodes() {
    return nodes;
  }

  // ---- queries ------------------------------------------------------------------------------

  public boolean isEmpty() {
    return nodes.length == 0;
  }

  /** Number of ranks (execution targets). */
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
    RNode n = find(rank);
    return n == null ? IdSet.empty() : n.children().get(type);
  }

  /** The host name of {@code rank}, or null when the rank is absent or R has no nodelist. */
  public String host(int rank) {
    RNode n = find(rank);
    return n == null ? null : n.host();
  }

  /** Whether every rank has a host name (R carries a nodelist). */
  public boolean hasNodelist() {
    for (RNode n : nodes) {
      if (n.host() == null) {
        return false;
      }
    }
    return nodes.length > 0;
  }

  /**
   * Host names in rank order.
   *
   * @throws RsetException when R has no nodelist
   */
  public Hostlist nodelist() {
    List<String> hosts = new ArrayList<>(nodes.length);
    for (RNode n : nodes) {
      if (n.host() == null) {
        throw new RsetException(
            RsetException.Reason.NOT_FOUND,
            "R: rank " + n.rank() + " has no host name (R has no nodelist)");
      }
      hosts.add(n.host());
    }
    return Hostlist.of(hosts);
  }

  /** Property name to the ranks that have it, in insertion order. */
  public Map<String, IdSet> properties() {
    return properties;
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

  /** The opaque {@code scheduling} object, or null. */
  public JsonNode scheduling() {
    return scheduling == null ? null : scheduling.deepCopy();
  }

  private RNode find(int rank) {
    int i = indexOf(rank);
    return i >= 0 ? nodes[i] : null;
  }

  private int indexOf(int rank) {
    int lo = 0;
    int hi = nodes.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int r = nodes[mid].rank();
      if (r < rank) {
        lo = mid + 1;
      } else if (r > rank) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /**
   * The one-line summary of flux-core's {@code rlist_dumps()}: ranks with identical resources
   * grouped, e.g. {@code rank[0-1]/core[0-3],gpu0 rank2/core[0-7]}; empty for an empty set.
   */
  public String summary() {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < nodes.length) {
      Children c = nodes[i].children();
      IdSet.Builder ranks = IdSet.builder();
      int j = i;
      while (j < nodes.length && nodes[j].children().equals(c)) {
        ranks.add(nodes[j].rank());
        j++;
      }
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append("rank").append(ranks.build().encode(IdSet.Style.BRACKETS)).append('/');
      c.appendSummary(sb);
      i = j;
    }
    return sb.toString();
  }

  // ---- building new sets --------------------------------------------------------------------

  private ResourceSet withNodes(RNode[] n, Map<String, IdSet> props) {
    return new ResourceSet(
        n, restrict(props, n), starttime, expiration, nslots, n.length == 0 ? null : scheduling);
  }

  private static Map<String, IdSet> restrict(Map<String, IdSet> props, RNode[] n) {
    if (props.isEmpty()) {
      return props;
    }
    IdSet ranks = RCodec.ranksOf(n);
    Map<String, IdSet> out = new LinkedHashMap<>();
    for (Map.Entry<String, IdSet> e : props.entrySet()) {
      IdSet r = e.getValue().intersection(ranks);
      if (!r.isEmpty()) {
        out.put(e.getKey(), r);
      }
    }
    return out;
  }

  /** This set with other times. */
  public ResourceSet withTimes(double start, double end) {
    return new ResourceSet(
        nodes, properties, Math.max(0, start), Math.max(0, end), nslots, scheduling);
  }

  /** This set with {@code nslots} set (0 removes it). */
  public ResourceSet withNslots(long n) {
    return new ResourceSet(nodes, properties, starttime, expiration, Math.max(0, n), scheduling);
  }

  /** This set with its hosts named, in rank order. */
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
    RNode[] out = new RNode[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      out[i] = new RNode(nodes[i].rank(), names.get(i), nodes[i].children());
    }
    return new ResourceSet(out, properties, starttime, expiration, nslots, scheduling);
  }

  /**
   * This set with property {@code name} on {@code ranks} added to the ranks that already have it.
   *
   * @throws RsetException for a name with a forbidden character or ranks not in the set
   */
  public ResourceSet withProperty(String name, IdSet ranks) {
    RCodec.checkPropertyName("/execution/properties", name);
    IdSet missing = ranks.difference(ranks());
    if (!missing.isEmpty()) {
      throw new RsetException(
          RsetException.Reason.NOT_FOUND,
          "R: property \"" + name + "\": ranks " + missing + " not found in target resource list");
    }
    Map<String, IdSet> p = new LinkedHashMap<>(properties);
    p.merge(name, ranks, IdSet::union);
    p.values().removeIf(IdSet::isEmpty);
    return new ResourceSet(nodes, p, starttime, expiration, nslots, scheduling);
  }

  /** Merges per rank; a rank in both gets the union of its resources. */
  private static RNode[] mergeNodes(
      RNode[] a, RNode[] b, boolean disjoint, ResourceSet ra, ResourceSet rb) {
    RNode[] out = new RNode[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i].rank() < b[j].rank())) {
        out[n++] = a[i++];
      } else if (i >= a.length || b[j].rank() < a[i].rank()) {
        out[n++] = b[j++];
      } else {
        RNode x = a[i++];
        RNode y = b[j++];
        if (disjoint && x.children().overlap(y.children()) != null) {
          throw new RsetException(
              RsetException.Reason.EXISTS,
              "R objects '" + ra.summary() + "' and '" + rb.summary() + "' overlap");
        }
        RNode m = x.withChildren(x.children().union(y.children()));
        if (m.host() == null && y.host() != null) {
          m = new RNode(m.rank(), y.host(), m.children());
        }
        out[n++] = m;
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  private static Map<String, IdSet> mergeProperties(Map<String, IdSet> a, Map<String, IdSet> b) {
    if (b.isEmpty()) {
      return a;
    }
    Map<String, IdSet> p = new LinkedHashMap<>(a);
    for (Map.Entry<String, IdSet> e : b.entrySet()) {
      p.merge(e.getKey(), e.getValue(), IdSet::union);
    }
    return p;
  }

  private ResourceSet merged(ResourceSet other, boolean disjoint) {
    RNode[] n = mergeNodes(nodes, other.nodes, disjoint, this, other);
    JsonNode sched = scheduling != null ? scheduling : other.scheduling;
    return new ResourceSet(
        n, mergeProperties(properties, other.properties), starttime, expiration, nslots, sched);
  }

  /** This set ∪ other: ranks of both; a rank in both gets the union of its resources. */
  public ResourceSet union(ResourceSet other) {
    if (other.isEmpty() && other.properties.isEmpty()) {
      return this;
    }
    return merged(other, false);
  }

  /**
   * This set with other's resources added, which must not share any id with it ({@code
   * rlist_append}).
   *
   * @throws RsetException with reason EXISTS when a rank holds an id of the same type in both
   */
  public ResourceSet append(ResourceSet other) {
    return merged(other, true);
  }

  /** This set − other, by rank: ids of other's ranks removed; ranks left empty disappear. */
  public ResourceSet diff(ResourceSet other) {
    RNode[] out = new RNode[nodes.length];
    int n = 0;
    int j = 0;
    RNode[] b = other.nodes;
    for (RNode x : nodes) {
      while (j < b.length && b[j].rank() < x.rank()) {
        j++;
      }
      if (j < b.length && b[j].rank() == x.rank()) {
        Children c = x.children().difference(b[j].children());
        if (!c.isEmpty()) {
          out[n++] = x.withChildren(c);
        }
      } else {
        out[n++] = x;
      }
    }
    return withNodes(Arrays.copyOf(out, n), properties);
  }

  /** This set ∩ other, by rank: ids both hold on the ranks both name. */
  public ResourceSet intersect(ResourceSet other) {
    RNode[] out = new RNode[Math.min(nodes.length, other.nodes.length)];
    int n = 0;
    int j = 0;
    RNode[] b = other.nodes;
    for (RNode x : nodes) {
      while (j < b.length && b[j].rank() < x.rank()) {
        j++;
      }
      if (j < b.length && b[j].rank() == x.rank()) {
        Children c = x.children().intersection(b[j].children());
        if (!c.isEmpty()) {
          out[n++] = x.withChildren(c);
        }
      }
    }
    return withNodes(Arrays.copyOf(out, n), properties);
  }

  /** The ranks of this set that are in {@code ranks} (others ignored). */
  public ResourceSet copyRanks(IdSet ranks) {
    RNode[] out = new RNode[nodes.length];
    int n = 0;
    for (RNode x : nodes) {
      if (ranks.contains(x.rank())) {
        out[n++] = x;
      }
    }
    return withNodes(Arrays.copyOf(out, n), properties);
  }

  /** This set without the ranks in {@code ranks}. */
  public ResourceSet removeRanks(IdSet ranks) {
    RNode[] out = new RNode[nodes.length];
    int n = 0;
    for (RNode x : nodes) {
      if (!ranks.contains(x.rank())) {
        out[n++] = x;
      }
    }
    return withNodes(Arrays.copyOf(out, n), properties);
  }

  /**
   * Ranks renumbered 0..n-1 in ascending order, and on each rank every resource type but {@code
   * gpu} renumbered densely from 0 ({@code rlist_remap}).
   */
  public ResourceSet remap() {
    RNode[] out = new RNode[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      Children c = nodes[i].children();
      Children d = c;
      for (int k = 0; k < c.size(); k++) {
        if (!c.name(k).equals("gpu")) {
          IdSet s = c.set(k);
          d = d.with(c.name(k), IdSet.range(0, (int) s.count() - 1));
        }
      }
      out[i] = new RNode(i, nodes[i].host(), d);
    }
    Map<String, IdSet> p = new LinkedHashMap<>();
    for (Map.Entry<String, IdSet> e : properties.entrySet()) {
      IdSet.Builder b = IdSet.builder();
      for (java.util.PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        b.add(indexOf(it.nextInt()));
      }
      p.put(e.getKey(), b.build());
    }
    return new ResourceSet(out, p, starttime, expiration, nslots, scheduling);
  }

  /**
   * Ranks reassigned so that the i-th host of {@code hosts} becomes rank i ({@code rlist_rerank}).
   *
   * @throws RsetException TOO_FEW or TOO_MANY when the host count differs from the rank count,
   *     NOT_FOUND for a host that is not in the set
   */
  public ResourceSet rerank(Hostlist hosts) {
    if (hosts.count() < nodes.length) {
      throw new RsetException(
          RsetException.Reason.TOO_FEW,
          "Number of hosts (" + hosts.count() + ") is less than node count (" + nodes.length + ")");
    }
    if (hosts.count() > nodes.length) {
      throw new RsetException(
          RsetException.Reason.TOO_MANY,
          "Number of hosts ("
              + hosts.count()
              + ") is greater than node count ("
              + nodes.length
              + ")");
    }
    Map<String, List<Integer>> byHost = new LinkedHashMap<>();
    for (int i = 0; i < nodes.length; i++) {
      if (nodes[i].host() != null) {
        byHost.computeIfAbsent(nodes[i].host(), h -> new ArrayList<>(1)).add(i);
      }
    }
    RNode[] out = new RNode[nodes.length];
    int[] newRank = new int[nodes.length];
    Map<String, Integer> used = new java.util.HashMap<>();
    int k = 0;
    for (String h : hosts.expand()) {
      List<Integer> at = byHost.get(h);
      int u = used.getOrDefault(h, 0);
      if (at == null || u >= at.size()) {
        throw new RsetException(
            RsetException.Reason.NOT_FOUND, "Host " + h + " not found in resources");
      }
      used.put(h, u + 1);
      int idx = at.get(u);
      newRank[idx] = k;
      out[k] = nodes[idx].withRank(k);
      k++;
    }
    Map<String, IdSet> p = new LinkedHashMap<>();
    for (Map.Entry<String, IdSet> e : properties.entrySet()) {
      IdSet.Builder b = IdSet.builder();
      for (java.util.PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        b.add(newRank[indexOf(it.nextInt())]);
      }
      p.put(e.getKey(), b.build());
    }
    return new ResourceSet(out, p, starttime, expiration, nslots, scheduling);
  }

  /**
   * The ranks whose host is listed in {@code hosts} (several ranks may share a host).
   *
   * @throws RsetException NOT_FOUND naming the hosts that are not in the set
   */
  public IdSet hostsToRanks(Hostlist hosts) {
    Map<String, IdSet.Builder> byHost = new java.util.HashMap<>();
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

  /** The ranks of this set that match an RFC 31 constraint. */
  public ResourceSet copyConstraint(Constraint constraint) {
    RNode[] out = new RNode[nodes.length];
    int n = 0;
    for (RNode x : nodes) {
      if (constraint.matches(x.rank(), x.host(), this::hasProperty)) {
        out[n++] = x;
      }
    }
    return withNodes(Arrays.copyOf(out, n), properties);
  }

  private boolean hasProperty(int rank, String name) {
    IdSet r = properties.get(name);
    return r != null && r.contains(rank);
  }

  /**
   * Compares an expected R (this) with what a rank really has, as {@code rlist_verify}: both must
   * name one rank; missing resources are an error, extra resources a warning.
   */
  public Verification verify(ResourceSet actual) {
    if (nodes.length != 1 || actual.nodes.length != 1) {
      return new Verification(false, "Verification supported on single rank only");
    }
    RNode e = nodes[0];
    RNode a = actual.nodes[0];
    String who = "rank " + e.rank() + " (" + (e.host() == null ? "" : e.host()) + ")";
    if (a.host() != null && e.host() != null && !a.host().equals(e.host())) {
      return new Verification(false, who + " got hostname " + a.host() + ", expected " + e.host());
    }
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

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceSet r
        && Arrays.equals(nodes, r.nodes)
        && properties.equals(r.properties)
        && Double.compare(starttime, r.starttime) == 0
        && Double.compare(expiration, r.expiration) == 0
        && nslots == r.nslots
        && Objects.equals(scheduling, r.scheduling);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(nodes) * 31 + properties.hashCode();
  }
}
