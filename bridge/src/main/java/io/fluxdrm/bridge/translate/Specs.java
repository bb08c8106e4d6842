package io.fluxdrm.bridge.translate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.Hostlist;

/** Builds the version 1 jobspecs of RFC 51 requests (RFC 25 shapes, one task per slot). */
final class Specs {
  private Specs() {}

  /** Largest count a version 1 jobspec carries. */
  static final long MAX_COUNT = Integer.MAX_VALUE;

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** node×nodes → slot×1 → core×cores, exclusive nodes when asked. */
  static ObjectNode nodes(long nodes, long cores, boolean exclusive) {
    ObjectNode node = F.objectNode();
    node.put("type", "node");
    node.put("count", (int) nodes);
    if (exclusive) {
      node.put("exclusive", true);
    }
    node.putArray("with").add(slot(1, cores));
    return jobspec(node);
  }

  /** slot×slots → core×1. */
  static ObjectNode slots(long slots) {
    return jobspec(slot(slots, 1));
  }

  /** A spec_sub of {@code nodes} nodes of at least {@code cores} cores, on the hosts if given. */
  static ObjectNode release(long nodes, long cores, Hostlist hosts) {
    ObjectNode spec = nodes(nodes, cores, false);
    ObjectNode system = (ObjectNode) spec.get("attributes").get("system");
    system.put("duration", 0.0);
    if (hosts != null) {
      system.set("constraints", hostlist(hosts));
    }
    return spec;
  }

  /** The RFC 31 constraint {@code {"hostlist": ["HOSTS"]}}. */
  static ObjectNode hostlist(Hostlist hosts) {
    ObjectNode o = F.objectNode();
    o.putArray("hostlist").add(hosts.toString());
    return o;
  }

  private static ObjectNode slot(long count, long cores) {
    ObjectNode slot = F.objectNode();
    slot.put("type", "slot");
    slot.put("count", (int) count);
    slot.put("label", RequestTranslator.SLOT);
    ObjectNode core = F.objectNode();
    core.put("type", "core");
    core.put("count", (int) cores);
    slot.putArray("with").add(core);
    return slot;
  }

  private static ObjectNode jobspec(ObjectNode top) {
    ObjectNode spec = F.objectNode();
    spec.put("version", 1);
    spec.putArray("resources").add(top);
    ObjectNode task = spec.putArray("tasks").addObject();
    ArrayNode cmd = task.putArray("command");
    RequestTranslator.COMMAND.forEach(cmd::add);
    task.put("slot", RequestTranslator.SLOT);
    task.putObject("count").put("per_slot", 1);
    spec.putObject("attributes").putObject("system").put("duration", 0.0);
    return spec;
  }
}
