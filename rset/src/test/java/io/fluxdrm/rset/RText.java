package io.fluxdrm.rset;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Short notations for R documents in test tables.
 *
 * <p>{@link #lite} writes R_lite entries as {@code RANKS:TYPE=IDS+TYPE=IDS}, entries separated by
 * spaces, e.g. {@code "0-1:core=0-3+gpu=0 2:core=1"}; {@code "2:core="} names an empty core set and
 * {@code ""} no entry at all. {@link #json} turns single quotes into double quotes.
 */
final class RText {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private RText() {}

  /**
   * Rows of a table written one per line, columns separated by {@code " | "} and trimmed; an empty
   * column is the empty string, {@code \t} a tab, and columns a row leaves out are null. CSV
   * quoting rules do not apply, so JSON can be written as is.
   */
  static Stream<Arguments> table(String text) {
    return text.lines().filter(l -> !l.isBlank()).map(l -> Arguments.of((Object[]) columns(l)));
  }

  private static String[] columns(String line) {
    String[] c = line.split(" \\|(?: |$)", -1);
    String[] out = new String[Math.max(4, c.length)];
    for (int i = 0; i < c.length; i++) {
      out[i] = c[i].trim().replace("\\t", "\t");
    }
    return out;
  }

  /** JSON text written with single quotes. */
  static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }

  /** Parses R written with single quotes. */
  static ResourceSet r(String singleQuoted) {
    return ResourceSet.parse(json(singleQuoted));
  }

  /** The R_lite array of the notation. */
  static ArrayNode rlite(String entries) {
    ArrayNode lite = MAPPER.createArrayNode();
    if (entries == null || entries.isBlank()) {
      return lite;
    }
    for (String e : entries.trim().split(" +")) {
      int colon = e.indexOf(':');
      ObjectNode entry = lite.addObject();
      entry.put("rank", e.substring(0, colon));
      ObjectNode children = entry.putObject("children");
      for (String c : e.substring(colon + 1).split("\\+")) {
        String[] kv = c.split("=", -1);
        children.put(kv[0], kv[1]);
      }
    }
    return lite;
  }

  /** R text of the notation, with a nodelist when {@code hosts} is not null or "-". */
  static String lite(String entries, String hosts) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", 1);
    ObjectNode exec = root.putObject("execution");
    exec.set("R_lite", rlite(entries));
    if (hosts != null && !hosts.equals("-")) {
      exec.putArray("nodelist").add(hosts);
    }
    return root.toString();
  }

  /** R of the notation, with a nodelist when {@code hosts} is not null or "-". */
  static ResourceSet rl(String entries, String hosts) {
    return ResourceSet.parse(lite(entries, hosts));
  }

  /** R of the notation without a nodelist. */
  static ResourceSet rl(String entries) {
    return rl(entries, null);
  }

  /** The nodelist as text, or "-" when some rank has no host name. */
  static String nodelist(ResourceSet r) {
    return r.hasNodelist() ? r.nodelist().toString() : "-";
  }

  /** Properties as {@code name=ranks} joined by spaces, names sorted; "-" when none. */
  static String properties(ResourceSet r) {
    StringBuilder sb = new StringBuilder();
    r.properties()
        .forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return sb.length() == 0 ? "-" : sb.toString();
  }
}
