package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.request.AllocationRequest;
import io.fluxdrm.pmix.request.NodeList;
import io.fluxdrm.pmix.request.RequestException;
import java.util.List;

/** The typed PMIx requests of {@code io.fluxdrm.pmix.request}, read with the DVM's refusal. */
final class Requests {
  private Requests() {}

  /**
   * Reads an allocation request.
   *
   * @throws Refused with the status and message of the located error
   */
  static AllocationRequest allocation(List<Info> infos) {
    try {
      return AllocationRequest.parse(infos);
    } catch (RequestException e) {
      throw refused(e);
    }
  }

  /**
   * Reads a node list.
   *
   * @throws Refused with the status and message of the located error
   */
  static List<NodeList.Entry> nodes(String key, String text, boolean slotsAllowed) {
    try {
      return NodeList.parse(key, text, slotsAllowed).entries();
    } catch (RequestException e) {
      throw refused(e);
    }
  }

  /**
   * Reads the node list of an info (a string or a PMIx regex).
   *
   * @throws Refused with the status and message of the located error
   */
  static List<NodeList.Entry> nodes(Info info) {
    try {
      return NodeList.parse(info, true).entries();
    } catch (RequestException e) {
      throw refused(e);
    }
  }

  static Refused refused(RequestException e) {
    return new Refused(e.status(), e.getMessage());
  }
}
