package io.fluxdrm.dvm.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import java.util.ArrayList;
import java.util.List;

/** The payload of {@link DvmTopics#SCHED_NODES_RELEASED}: {@code {hosts: [host, ...]}} (D421). */
final class HostsPayload {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private HostsPayload() {}

  /** {@code {hosts: [...]}}. */
  static ObjectNode hosts(List<String> hosts) {
    ObjectNode o = F.objectNode();
    com.fasterxml.jackson.databind.node.ArrayNode a = o.putArray("hosts");
    hosts.forEach(a::add);
    return o;
  }

  /** Reads {@code {hosts: [...]}}: EPROTO, located, for anything else. */
  static List<String> readHosts(String topic, ObjectNode p) {
    JsonNode a = p.get("hosts");
    if (a == null || !a.isArray() || p.size() != 1) {
      throw new RpcException(
          Errno.EPROTO,
          topic
              + ": /hosts: "
              + (a == null ? "missing" : a)
              + " (expected: {hosts: [host, ...]} only)");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      JsonNode h = a.get(i);
      if (!h.isTextual() || h.asText().isEmpty()) {
        throw new RpcException(
            Errno.EPROTO, topic + ": /hosts/" + i + ": " + h + " (expected: a host name)");
      }
      out.add(h.asText());
    }
    return out;
  }
}
