package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;

/** Jobspecs the command tests submit and allocate. */
final class Jobspecs {
  private Jobspecs() {}

  /**
   * A V1 jobspec of {@code nnodes} nodes (exclusive when asked), each one slot of {@code cores}
   * cores, one task per slot running {@code true}, no duration.
   */
  static ObjectNode nodes(int nnodes, int cores, boolean exclusive) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", cores);
    ObjectNode node = Json.object().put("type", "node").put("count", nnodes);
    if (exclusive) {
      node.put("exclusive", true);
    }
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("true");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }
}
