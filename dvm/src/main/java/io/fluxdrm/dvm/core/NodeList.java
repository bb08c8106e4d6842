package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.RsetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node lists of {@code PMIX_ALLOC_NODE_LIST} and {@code PMIX_HOST}, in PRRTE's {@code --host}
 * syntax: comma-separated entries {@code name[:slots]}, where a name may be an RFC 29 hostlist
 * ({@code node[3-4]:2}). A bare name gives no slot count: a new node then has 1 slot, a known one
 * keeps its count (decision D352).
 */
final class NodeList {
  private NodeList() {}

  /** The most hosts one list may name. */
  static final int MAX_HOSTS = 4096;

  /** One named host and the slots asked for it, if any. */
  record Entry(String host, Optional<Integer> slots) {}

  /**
   * Parses the list of an entry: a string, or a PMIx regex ({@code PMIX_REGEX2}, {@code
   * PMIX_REGEX}) expanded first, as PRRTE does (decision D503).
   *
   * @param what where the list came from, for messages
   * @param info the entry
   * @param slotsAllowed whether {@code :N} suffixes are allowed
   * @return the entries
   * @throws Refused (BAD_PARAM) naming the bad entry, or the regex form that cannot be expanded
   */
  static List<Entry> parse(String what, Info info, boolean slotsAllowed) {
    String text;
    try {
      text = info.value() instanceof PmixRegex r ? r.text() : info.stringValue();
    } catch (PmixException e) {
      throw Refused.badParam(what + " (" + info.type() + "): " + e.getMessage());
    }
    return parse(what, text, slotsAllowed);
  }

  /**
   * Parses {@code text}.
   *
   * @param what where the list came from, for messages ({@code PMIX_ALLOC_NODE_LIST})
   * @param text the list
   * @param slotsAllowed whether {@code :N} suffixes are allowed (not for an activation)
   * @return the entries, each host once (a later entry's slots win)
   * @throws Refused (BAD_PARAM) naming the bad entry
   */
  static List<Entry> parse(String what, String text, boolean slotsAllowed) {
    if (text.isBlank()) {
      throw Refused.badParam(what + " \"\": empty (expected: name[:slots],...)");
    }
    Map<String, Entry> out = new LinkedHashMap<>();
    for (String raw : splitTopLevel(text)) {
      String e = raw.strip();
      if (e.isEmpty()) {
        throw Refused.badParam(what + " \"" + text + "\": an empty entry (expected: name[:slots])");
      }
      Optional<Integer> slots = Optional.empty();
      int colon = e.lastIndexOf(':');
      String names = e;
      if (colon >= 0) {
        if (!slotsAllowed) {
          throw Refused.badParam(
              what + " entry \"" + e + "\": a slot count is not accepted here (expected: a name)");
        }
        String n = e.substring(colon + 1);
        names = e.substring(0, colon);
        if (n.isEmpty() || !n.chars().allMatch(c -> c >= '0' && c <= '9') || n.length() > 6) {
          throw Refused.badParam(
              what + " entry \"" + e + "\": slots \"" + n + "\" (expected: 1 to 999999)");
        }
        int v = Integer.parseInt(n);
        if (v < 1) {
          throw Refused.badParam(what + " entry \"" + e + "\": slots 0 (expected: at least 1)");
        }
        slots = Optional.of(v);
      }
      if (names.isBlank()) {
        throw Refused.badParam(
            what + " entry \"" + e + "\": no host name (expected: name[:slots])");
      }
      List<String> hosts;
      try {
        hosts = Hostlist.parse(names).expand();
      } catch (RsetException ex) {
        throw Refused.badParam(what + " entry \"" + e + "\": " + ex.getMessage());
      }
      for (String h : hosts) {
        if (h.isEmpty() || h.startsWith("+") || h.contains("=")) {
          throw Refused.badParam(what + " entry \"" + e + "\": \"" + h + "\" is not a host name");
        }
        out.put(h, new Entry(h, slots));
        if (out.size() > MAX_HOSTS) {
          throw Refused.badParam(what + ": more than " + MAX_HOSTS + " hosts");
        }
      }
    }
    if (out.isEmpty()) {
      throw Refused.badParam(
          what + " \"" + text + "\": names no host (expected: name[:slots],...)");
    }
    return List.copyOf(out.values());
  }

  /** Splits on commas outside brackets. */
  static List<String> splitTopLevel(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }
}
