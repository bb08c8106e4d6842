package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * R written as compact JSON text with a streaming generator, byte for byte what Jackson writes of
 * {@link RCodec#encode}'s tree (issue 32: a scheduler writes one per grant, and the tree was built
 * only to be serialized). The grouping of ranks is shared with {@link RCodec#encode}.
 */
final class RCompact {
  private RCompact() {}

  /** The compact UTF-8 text of {@code RCodec.encode(r)}, byte for byte. */
  static byte[] encode(ResourceSet r) {
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
