package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * R written as compact JSON text, byte for byte what Jackson writes of {@link RCodec#encode}'s tree
 * (issue 32: a scheduler writes one per grant, and the tree was built only to be serialized). The
 * grouping of ranks is shared with {@link RCodec#encode}.
 */
final class RCompact {
  private RCompact() {}

  /** The compact UTF-8 text of {@code RCodec.encode(r)}, byte for byte. */
  static byte[] encode(ResourceSet r) {
    byte[] direct = r.schedulingShared() == null ? encodeDirect(r) : null;
    return direct != null ? direct : encodeWithGenerator(r);
  }

  /**
   * The text written straight into bytes, without a generator (issue 32: setting one up for each R
   * was most of the writing's cost). Null when some value is not written as Jackson does; {@code
   * scheduling} (an arbitrary tree) is left to Jackson too.
   */
  static byte[] encodeDirect(ResourceSet r) {
    Layout l = Layout.of(r);
    JsonBytes o = new JsonBytes(256);
    o.raw("{\"version\":1,\"execution\":{\"R_lite\":[");
    boolean first = true;
    for (Map.Entry<Children, IdSet.Builder> e : l.groups.entrySet()) {
      Children c = e.getKey();
      if (c.isEmpty()) {
        continue;
      }
      o.raw(first ? "{\"rank\":" : ",{\"rank\":").string(e.getValue().build().toString());
      o.raw(",\"children\":{");
      first = false;
      boolean firstChild = true;
      for (int i = 0; i < c.size(); i++) {
        if (!c.set(i).isEmpty()) {
          if (!firstChild) {
            o.raw(',');
          }
          o.string(c.name(i)).raw(':').string(c.set(i).toString());
          firstChild = false;
        }
      }
      o.raw("}}");
    }
    o.raw(']');
    if (r.nslots() > 0) {
      o.raw(",\"nslots\":").number(r.nslots());
    }
    o.raw(",\"starttime\":").seconds(r.starttime());
    o.raw(",\"expiration\":").seconds(r.expiration());
    if (l.hosts) {
      o.raw(",\"nodelist\":[").string(l.nodelist(r)).raw(']');
    }
    if (!l.props.isEmpty()) {
      char sep = '{';
      o.raw(",\"properties\":");
      for (Map.Entry<String, IdSet.Builder> e : l.props.entrySet()) {
        o.raw(sep).string(e.getKey()).raw(':').string(e.getValue().build().toString());
        sep = ',';
      }
      o.raw('}');
    }
    o.raw("}}");
    return o.missed() ? null : o.toByteArray();
  }

  /** The text written with Jackson's generator: for R with scheduling and what JsonBytes misses. */
  static byte[] encodeWithGenerator(ResourceSet r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = RCodec.MAPPER.getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("version", 1);
      g.writeObjectFieldStart("execution");
      g.writeArrayFieldStart("R_lite");
      Layout l = Layout.of(r);
      for (Map.Entry<Children, IdSet.Builder> e : l.groups.entrySet()) {
        Children c = e.getKey();
        if (c.isEmpty()) {
          continue;
        }
        g.writeStartObject();
        g.writeStringField("rank", e.getValue().build().toString());
        g.writeObjectFieldStart("children");
        for (int i = 0; i < c.size(); i++) {
          if (!c.set(i).isEmpty()) {
            g.writeStringField(c.name(i), c.set(i).toString());
          }
        }
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndArray();
      if (r.nslots() > 0) {
        g.writeNumberField("nslots", r.nslots());
      }
      g.writeFieldName("starttime");
      g.writeNumber(RCodec.seconds(r.starttime()));
      g.writeFieldName("expiration");
      g.writeNumber(RCodec.seconds(r.expiration()));
      if (l.hosts) {
        g.writeArrayFieldStart("nodelist");
        g.writeString(l.nodelist(r));
        g.writeEndArray();
      }
      if (!l.props.isEmpty()) {
        g.writeObjectFieldStart("properties");
        for (Map.Entry<String, IdSet.Builder> e : l.props.entrySet()) {
          g.writeStringField(e.getKey(), e.getValue().build().toString());
        }
        g.writeEndObject();
      }
      g.writeEndObject();
      if (r.schedulingShared() != null) {
        g.writeFieldName("scheduling");
        RCodec.MAPPER.writeTree(g, r.schedulingShared());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("R did not serialize", e);
    }
    return out.toByteArray();
  }

  /** What R's encoding groups: ranks by children, whether every rank has a host, properties. */
  static final class Layout {
    final Map<Children, IdSet.Builder> groups = new LinkedHashMap<>();
    final Map<String, IdSet.Builder> props = new TreeMap<>();
    boolean hosts = true;
    private RNode[] nodes;

    static Layout of(ResourceSet r) {
      Layout l = new Layout();
      l.nodes = r.byRank();
      for (RNode n : l.nodes) {
        l.groups.computeIfAbsent(n.children(), c -> IdSet.builder()).add(n.rank());
        l.hosts &= n.host() != null;
        for (String p : n.properties()) {
          l.props.computeIfAbsent(p, x -> IdSet.builder()).add(n.rank());
        }
      }
      return l;
    }

    String nodelist(ResourceSet r) {
      return nodes.length == 0 ? "" : r.nodelist().toString();
    }
  }
}
