package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A PMIx node list ({@code PMIX_ALLOC_NODE_LIST}, {@code PMIX_ALLOC_EXCLUDE}, {@code PMIX_HOST}) in
 * PRRTE's {@code --host} syntax: comma-separated entries {@code host[:slots]}, where a host may be
 * an RFC 29 hostlist range ({@code n[3-4]:2}); a PMIx regex value is expanded first (D503). Whether
 * slot suffixes are allowed is the caller's to say; what a consumer does with differing slot counts
 * is its own rule ({@link #slotsGiven()} keeps every suffix as written). Decision D544.
 *
 * @param text the list as read (a regex value expanded), which parses back equal
 * @param entries each host once, in order of first appearance; a later entry's slots win
 * @param slotsGiven the slot suffixes in the order written, one per entry that had one
 */
public record NodeList(String text, List<Entry> entries, List<Integer> slotsGiven) {

  /** The most hosts one list may name. */
  public static final int MAX_HOSTS = 4096;

  /** The largest slot count one entry may give. */
  public static final int MAX_SLOTS = 999_999;

  /**
   * One named host and the slots asked for it, if any.
   *
   * @param host the host name
   * @param slots its {@code :slots} suffix, if it had one
   */
  public record Entry(String host, Optional<Integer> slots) {}

  /** Copies the lists. */
  public NodeList {
    entries = List.copyOf(entries);
    slotsGiven = List.copyOf(slotsGiven);
  }

  /**
   * Parses the list an info carries: a string, or a PMIx regex ({@code PMIX_REGEX2}, {@code
   * PMIX_REGEX}) expanded first, as PRRTE does (D503).
   *
   * @param info the info; its key locates errors
   * @param slotsAllowed whether {@code :slots} suffixes are allowed
   * @return the list
   * @throws RequestException (BAD_PARAM) locating the bad entry, or the regex that cannot be read
   */
  public static NodeList parse(Info info, boolean slotsAllowed) {
    String text;
    try {
      text = info.value() instanceof PmixRegex r ? r.text() : info.stringValue();
    } catch (PmixException e) {
      throw new RequestException(
          PmixStatus.PMIX_ERR_BAD_PARAM, info.key(), "(" + info.type() + "): " + e.getMessage());
    }
    return parse(info.key(), text, slotsAllowed);
  }

  /**
   * Parses {@code text}.
   *
   * @param key the key the list came with, to locate errors
   * @param text the list
   * @param slotsAllowed whether {@code :slots} suffixes are allowed
   * @return the list, never empty
   * @throws RequestException (BAD_PARAM) locating the bad entry
   */
  public static NodeList parse(String key, String text, boolean slotsAllowed) {
    String where = "\"" + text + "\": ";
    if (text.isBlank()) {
      throw bad(key, where + "empty (expected: a node list, host[:slots],...)");
    }
    Map<String, Entry> out = new LinkedHashMap<>();
    List<Integer> given = new ArrayList<>();
    for (String raw : split(text)) {
      String e = raw.strip();
      if (e.isEmpty()) {
        throw bad(key, where + "an empty entry (expected: host[:slots])");
      }
      String name = e;
      Optional<Integer> slots = Optional.empty();
      int colon = e.lastIndexOf(':');
      if (colon >= 0 && e.indexOf(']', colon) < 0) {
        if (!slotsAllowed) {
          throw bad(
              key, where + "entry \"" + e + "\" has a slot count (expected: host names only)");
        }
        String n = e.substring(colon + 1);
        name = e.substring(0, colon);
        int s = slotCount(n);
        if (s < 1) {
          throw bad(
              key,
              where
                  + "entry \""
                  + e
                  + "\": slots \""
                  + n
                  + (s == 0
                      ? "\" (expected: an integer >= 1)"
                      : "\" (expected: at most " + MAX_SLOTS + ")"));
        }
        slots = Optional.of(s);
        given.add(s);
      }
      if (name.isBlank()) {
        throw bad(key, where + "entry \"" + e + "\": no host name (expected: host[:slots])");
      }
      List<String> hosts;
      try {
        hosts = HostRanges.expand(name, MAX_HOSTS);
      } catch (IllegalArgumentException ex) {
        throw bad(key, where + "entry \"" + e + "\": " + ex.getMessage());
      }
      for (String h : hosts) {
        if (h.isEmpty()
            || h.startsWith("+")
            || h.chars().anyMatch(c -> c == '=' || c == ':' || c <= 0x20)) {
          throw bad(key, where + "entry \"" + e + "\": \"" + h + "\" is not a host name");
        }
        out.put(h, new Entry(h, slots));
        if (out.size() > MAX_HOSTS) {
          throw bad(key, where + "more than " + MAX_HOSTS + " hosts");
        }
      }
    }
    return new NodeList(text, new ArrayList<>(out.values()), given);
  }

  /** The hosts, each once, in order of first appearance. */
  public List<String> hosts() {
    return entries.stream().map(Entry::host).toList();
  }

  /**
   * Splits at the commas outside brackets.
   *
   * @param text a list
   * @return its entries, as written
   */
  public static List<String> split(String text) {
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

  /** The count, 0 when it is not a positive integer, -1 when it is one above the limit. */
  private static int slotCount(String n) {
    if (n.isEmpty() || !n.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return 0;
    }
    String digits = n.replaceFirst("^0+(?=.)", "");
    return digits.length() > 6 ? -1 : Integer.parseInt(digits);
  }

  private static RequestException bad(String key, String problem) {
    return new RequestException(PmixStatus.PMIX_ERR_BAD_PARAM, key, problem);
  }
}
