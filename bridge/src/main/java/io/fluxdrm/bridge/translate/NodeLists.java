package io.fluxdrm.bridge.translate;

import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.NodeList;
import io.fluxdrm.pmix.request.RequestException;
import io.fluxdrm.rset.Hostlist;

/**
 * What the bridge asks of a PMIx {@link NodeList} beyond its syntax: its hosts as an RFC 29
 * hostlist, and one slot count for every host (a version 1 jobspec gives every node the same
 * shape). Errors are worded with the key string, as every bridge refusal is.
 */
final class NodeLists {
  private NodeLists() {}

  /**
   * The bridge's refusal of a value of a typed request that does not read.
   *
   * @param e the located error
   * @return a refusal with the error's status, labelled with its key string
   */
  static TranslateException refusal(RequestException e) {
    return new TranslateException(e.status(), e.labelled(e.key()));
  }

  /** The hosts, each once, as an RFC 29 hostlist. */
  static Hostlist hosts(NodeList list) {
    return Hostlist.of(list.hosts());
  }

  /**
   * The one slot count of {@code list}, or 0 when no entry gives one.
   *
   * @param key the key the list came with, for the message
   * @throws TranslateException (NOT_SUPPORTED) when two entries give different counts
   */
  static int slots(String key, NodeList list) {
    int slots = 0;
    for (int s : list.slotsGiven()) {
      if (slots != 0 && s != slots) {
        throw new TranslateException(
            PmixStatus.PMIX_ERR_NOT_SUPPORTED,
            key
                + " \""
                + list.text()
                + "\": slots "
                + slots
                + " and "
                + s
                + " differ (expected: one slot count for every host, as a version 1 jobspec"
                + " gives every node the same shape)");
      }
      slots = s;
    }
    return slots;
  }
}
