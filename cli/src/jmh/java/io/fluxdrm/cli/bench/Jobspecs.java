package io.fluxdrm.cli.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.Answer;
import io.fluxdrm.shell.ShellPlugin;
import java.util.concurrent.TimeUnit;

/** The jobspec and the shrink the grow benchmarks share. */
final class Jobspecs {
  private Jobspecs() {}

  /** A V1 jobspec of {@code n} exclusive nodes, one task each. */
  static ObjectNode nodes(int n) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    ObjectNode node = Json.object().put("type", "node").put("count", n).put("exclusive", true);
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("true");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  /**
   * The resources a grow answer added, from an {@link Answer} (Java API) or the shell's RPC
   * response; fails loudly on anything but a SUCCESS that added.
   */
  static ResourceSet added(Object answer) {
    if (answer instanceof Answer.Success s && !s.added().isEmpty()) {
      return s.added();
    }
    if (answer instanceof Message m
        && m.json().path("type").asInt(-1) == 0
        && m.json().has("R_delta_add")) {
      return ResourceSet.fromJson(m.json().get("R_delta_add"));
    }
    throw new IllegalStateException(
        "grow not granted: "
            + (answer instanceof Answer a ? a.toJson() : ((Message) answer).json()));
  }

  /**
   * Gives {@code added} back: a shrink of one node with {@code R = added}, then the tasks on its
   * ranks exit and the shell releases it ({@code sched.free final: false}); waits for the release.
   */
  static void shrink(ShellPlugin shell, ResourceSet added) throws Exception {
    Answer s = shell.realloc(null, nodes(1), added).get(10, TimeUnit.SECONDS);
    if (!(s instanceof Answer.Success ok) || !ok.removed().summary().equals(added.summary())) {
      throw new IllegalStateException("shrink not granted: " + s.toJson());
    }
    shell.tasksExited(added.ranks()).get(10, TimeUnit.SECONDS);
  }
}
