package io.fluxdrm.bridge.translate;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.RsetException;
import java.util.ArrayList;
import java.util.List;

/**
 * A PMIx node list as PRRTE reads {@code PMIX_ALLOC_NODE_LIST}: comma-separated entries, each an
 * RFC 29 hostlist with an optional {@code :slots} suffix ({@code n2:2,n[5-6]:4}). The suffix must
 * be the same on every entry that has one.
 *
 * @param hosts the hosts, duplicates removed, in order of first appearance
 * @param slots the slots per host, or 0 when no entry gives one
 */
record NodeList(Hostlist hosts, int slots) {

  /**
   * Parses the list of an entry: a string, or a PMIx regex ({@code PMIX_REGEX2}, {@code
   * PMIX_REGEX}) expanded first, as PRRTE does (decision D503).
   *
   * @throws TranslateException (BAD_PARAM) for a bad list or a regex form that cannot be expanded
   */
  static NodeList parse(String key, Info info, boolean slotsAllowed) {
    String text;
    try {
      text = info.value() instanceof PmixRegex r ? r.text() : info.stringValue();
    } catch (PmixException e) {
      throw new TranslateException(
          PmixStatus.PMIX_ERR_BAD_PARAM, key + " (" + info.type() + "): " + e.getMessage());
    }
    return parse(key, text, slotsAllowed);
  }

  static NodeList parse(String key, String text, boolean slotsAllowed) {
    String where = key + " \"" + text + "\": ";
    if (text.isBlank()) {
      throw new TranslateException(
          PmixStatus.PMIX_ERR_BAD_PARAM, where + "empty (expected: a node list)");
    }
    List<String> entries = split(text);
    StringBuilder names = new StringBuilder();
    int slots = 0;
    for (String e : entries) {
      String name = e;
      int colon = e.lastIndexOf(':');
      if (colon >= 0 && e.indexOf(']', colon) < 0) {
        String n = e.substring(colon + 1);
        name = e.substring(0, colon);
        if (!slotsAllowed) {
          throw new TranslateException(
              PmixStatus.PMIX_ERR_BAD_PARAM,
              where + "entry \"" + e + "\" has a slot count (expected: host names only)");
        }
        int s = slotCount(n);
        if (s < 1) {
          throw new TranslateException(
              PmixStatus.PMIX_ERR_BAD_PARAM,
              where + "entry \"" + e + "\": slots \"" + n + "\" (expected: an integer >= 1)");
        }
        if (slots != 0 && s != slots) {
          throw new TranslateException(
              PmixStatus.PMIX_ERR_NOT_SUPPORTED,
              where
                  + "slots "
                  + slots
                  + " and "
                  + s
                  + " differ (expected: one slot count for every host, as a version 1 jobspec"
                  + " gives every node the same shape)");
        }
        slots = s;
      }
      if (names.length() > 0) {
        names.append(',');
      }
      names.append(name);
    }
    Hostlist hosts;
    try {
      hosts = Hostlist.parse(names.toString());
    } catch (RsetException e) {
      throw new TranslateException(PmixStatus.PMIX_ERR_BAD_PARAM, where + e.getMessage());
    }
    if (hosts.isEmpty()) {
      throw new TranslateException(
          PmixStatus.PMIX_ERR_BAD_PARAM, where + "names no host (expected: a node list)");
    }
    return new NodeList(uniqueInOrder(hosts), slots);
  }

  private static Hostlist uniqueInOrder(Hostlist hosts) {
    List<String> seen = new ArrayList<>();
    java.util.Set<String> set = new java.util.HashSet<>();
    for (String h : hosts.expand()) {
      if (set.add(h)) {
        seen.add(h);
      }
    }
    return Hostlist.of(seen);
  }

  private static int slotCount(String n) {
    if (n.isEmpty() || n.length() > 9) {
      return -1;
    }
    for (int i = 0; i < n.length(); i++) {
      if (n.charAt(i) < '0' || n.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(n);
  }

  /** Splits at the commas outside brackets. */
  private static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth = Math.max(0, depth - 1);
      } else if (c == ',' && depth == 0) {
        out.add(text.substring(start, i));
        start = i + 1;
      }
    }
    out.add(text.substring(start));
    return out;
  }
}
