package io.fluxdrm.dvm.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs the scenarios in worlds and makes the side-by-side table of {@code docs/dvm.md}: id,
 * scenario, the reference DVM's outcome, PRRTE's, the verdict (agree / differ / cannot run / not
 * run yet) and, for a difference or a scenario that cannot run, the reason.
 */
public final class SideBySide {
  private SideBySide() {}

  /** The markers around the table in docs/dvm.md. */
  public static final String BEGIN = "<!-- side-by-side:begin -->";

  /** The end marker. */
  public static final String END = "<!-- side-by-side:end -->";

  /**
   * Runs every runnable scenario of each group in one world of that group, in order.
   *
   * @param worlds makes the world of a group
   * @return the outcomes by id ("error: ..." for a scenario that threw)
   */
  public static Map<String, String> run(Function<World.Group, World> worlds) {
    Map<String, String> out = new LinkedHashMap<>();
    java.util.Set<String> only = only();
    for (World.Group g : World.Group.values()) {
      List<Scenario> of =
          Scenarios.all().stream()
              .filter(s -> s.group() == g && s.body().isPresent() && s.cannotRun().isEmpty())
              .filter(s -> only.isEmpty() || only.contains(s.id()))
              .toList();
      if (of.isEmpty()) {
        continue;
      }
      try (World w = new EchoFree(worlds.apply(g))) {
        for (Scenario s : of) {
          String o;
          try {
            o = s.body().get().apply(w).text();
          } catch (RuntimeException e) {
            o = "error: " + e.getMessage();
            // what the failed scenario did not wait for must not reach the next one
            w.events(0);
          }
          o = o.replace(w.master(), "head");
          System.err.println("side-by-side " + s.id() + ": " + o);
          out.put(s.id(), o);
        }
      } catch (Exception e) {
        throw new IllegalStateException("world " + g + ": " + e, e);
      }
    }
    return out;
  }

  /**
   * The scenarios to run when only some are wanted (while one is being written): the ids in the
   * system property {@code fluxdrm.sidebyside.only}, comma-separated; empty for all. A partial run
   * writes no document.
   *
   * @return the ids
   */
  public static java.util.Set<String> only() {
    String v = System.getProperty("fluxdrm.sidebyside.only", "").strip();
    return v.isEmpty() ? java.util.Set.of() : java.util.Set.of(v.split("\\s*,\\s*"));
  }

  /**
   * The scenarios whose row says PRRTE's outcome varies between runs and differs from the
   * reference's ({@code Reasons.VARIES}, D465) but whose PRRTE outcome of this run is the
   * reference's: such a row no longer says what PRRTE does.
   *
   * @param reference the reference DVM's outcomes
   * @param prrte PRRTE's
   * @return their ids
   */
  public static List<String> variesButAgrees(
      Map<String, String> reference, Map<String, String> prrte) {
    return Reasons.VARIES.keySet().stream()
        .filter(id -> prrte.containsKey(id) && prrte.get(id).equals(reference.get(id)))
        .sorted()
        .toList();
  }

  /** One row. */
  public record Row(
      String id, String title, String reference, String prrte, String verdict, String reason) {}

  /**
   * The rows, in the spec's order.
   *
   * @param reference the reference DVM's outcomes
   * @param prrte PRRTE's, empty when PRRTE did not run
   * @return the rows
   */
  public static List<Row> rows(Map<String, String> reference, Optional<Map<String, String>> prrte) {
    List<Row> rows = new ArrayList<>();
    for (Scenario s : Scenarios.all()) {
      String ref = reference.getOrDefault(s.id(), "—");
      if (s.cannotRun().isPresent()) {
        rows.add(new Row(s.id(), s.title(), ref, "—", "cannot run", s.cannotRun().get()));
      } else if (s.body().isEmpty()) {
        rows.add(new Row(s.id(), s.title(), "—", "—", "not run yet", "not written yet"));
      } else if (Reasons.VARIES.containsKey(s.id())
          && prrte.isPresent()
          && prrte.get().containsKey(s.id())) {
        rows.add(
            new Row(
                s.id(),
                s.title(),
                ref,
                "varies between runs",
                "differ",
                Reasons.VARIES.get(s.id())));
      } else if (prrte.isEmpty() || !prrte.get().containsKey(s.id())) {
        rows.add(new Row(s.id(), s.title(), ref, "—", "not run yet", "PRRTE did not run"));
      } else {
        String p = prrte.get().get(s.id());
        if (p.equals(ref)) {
          rows.add(new Row(s.id(), s.title(), ref, p, "agree", ""));
        } else {
          rows.add(
              new Row(
                  s.id(),
                  s.title(),
                  ref,
                  p,
                  "differ",
                  Reasons.WHY.getOrDefault(s.id(), "not explained yet")));
        }
      }
    }
    rows.sort(Comparator.comparing((Row r) -> r.id().charAt(0)).thenComparing(r -> num(r.id())));
    return rows;
  }

  private static int num(String id) {
    return Integer.parseInt(id.substring(1));
  }

  /** The table in Markdown, with a line of counts before it. */
  public static String markdown(List<Row> rows) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String v : List.of("agree", "differ", "cannot run", "not run yet")) {
      counts.put(v, 0);
    }
    rows.forEach(r -> counts.merge(r.verdict(), 1, Integer::sum));
    StringBuilder b = new StringBuilder();
    b.append("Counts: ");
    List<String> cs = new ArrayList<>();
    counts.forEach((k, v) -> cs.add(k + " " + v));
    b.append(String.join(" · ", cs)).append(".\n\n");
    b.append("| id | scenario | reference DVM | PRRTE | verdict | reason |\n");
    b.append("| --- | --- | --- | --- | --- | --- |\n");
    for (Row r : rows) {
      b.append("| ")
          .append(
              String.join(
                  " | ",
                  List.of(
                      r.id(),
                      cell(r.title()),
                      cell(r.reference()),
                      cell(r.prrte()),
                      r.verdict(),
                      cell(r.reason()))))
          .append(" |\n");
    }
    return b.toString();
  }

  private static String cell(String s) {
    return s.replace("|", "\\|");
  }

  /** The text between the markers of a document (without the newlines next to them). */
  public static String between(String doc) {
    int b = doc.indexOf(BEGIN);
    int e = doc.indexOf(END);
    if (b < 0 || e < b) {
      throw new IllegalArgumentException("no " + BEGIN + " ... " + END + " in the document");
    }
    return doc.substring(b + BEGIN.length(), e).strip() + "\n";
  }

  /** The document with {@code table} between its markers. */
  public static String replace(String doc, String table) {
    int b = doc.indexOf(BEGIN);
    int e = doc.indexOf(END);
    if (b < 0 || e < b) {
      throw new IllegalArgumentException("no " + BEGIN + " ... " + END + " in the document");
    }
    return doc.substring(0, b + BEGIN.length()) + "\n" + table + doc.substring(e);
  }

  /** The reference column of the document's table, by id. */
  public static Map<String, String> referenceColumn(String doc) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : between(doc).split("\n")) {
      if (!line.startsWith("| ") || line.startsWith("| id ") || line.startsWith("| ---")) {
        continue;
      }
      String[] c = line.substring(2, line.length() - 2).split(" \\| ", -1);
      m.put(c[0], c[2].replace("\\|", "|"));
    }
    return m;
  }

  /** Reads a file. */
  public static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
