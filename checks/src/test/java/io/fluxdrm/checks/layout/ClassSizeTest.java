package io.fluxdrm.checks.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11's rule for large classes: a main-source file of more than {@value #MAX_LINES} lines, in
 * any module's {@code src/main/java}, says in its top-level type's javadoc why it must be one
 * class, with a sentence starting "Why one class:". Issue 31's rule on top: over {@value
 * #HARD_LIMIT} lines only the files of {@link #OVER_HARD_LIMIT}, kept here and nowhere else,
 * whatever their javadoc says.
 */
class ClassSizeTest {
  private static final Path ROOT = Path.of("..");
  static final int MAX_LINES = 500;

  /** No main class is longer than this unless it is on {@link #OVER_HARD_LIMIT}. */
  static final int HARD_LIMIT = 600;

  /**
   * The short list (issue 31, scope 7): value types whose many operations all work on one
   * representation (an id set's ranges, a hostlist's prefixes and ranges, R's nodes), as flux-core
   * keeps idset.c, hostlist.c and rlist.c each in one file.
   */
  static final List<String> OVER_HARD_LIMIT =
      List.of(
          "rset/src/main/java/io/fluxdrm/rset/IdSet.java",
          "rset/src/main/java/io/fluxdrm/rset/Hostlist.java",
          "rset/src/main/java/io/fluxdrm/rset/ResourceSet.java");

  private static final Pattern TOP_LEVEL =
      Pattern.compile(
          "^(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\\s+)*"
              + "(?:class|interface|enum|record|@interface)\\s+\\w+",
          Pattern.MULTILINE);
  private static final Pattern WHY =
      Pattern.compile("(?:^|[.!?]\\s+|<p>\\s*)Why one class:\\s+\\S+");

  @Test
  void everyLargeMainClassSaysWhyItIsOne() {
    List<String> violations = new ArrayList<>();
    for (Path f : mainSources(ROOT)) {
      String rel = ROOT.relativize(f).toString().replace('\\', '/');
      String why = violation(f);
      if (why != null) {
        violations.add(rel + ": " + why);
      }
    }
    assertThat(violations).as("classes over %d lines without a reason", MAX_LINES).isEmpty();
  }

  @Test
  void theSourcesOfEveryModuleAreRead() {
    List<String> read =
        mainSources(ROOT).stream()
            .map(p -> p.getFileName().toString())
            .collect(Collectors.toList());
    assertThat(read).contains("SchedulerCore.java", "ShellPlugin.java", "ResourceSet.java");
    assertThat(read).noneMatch(n -> n.endsWith("Test.java"));
  }

  @Test
  void aLongClassWithoutTheSentenceIsCaught(@TempDir Path dir) throws IOException {
    Path f =
        write(dir, "Big.java", "/** A big class. It does much. */\npublic final class Big {", 501);
    assertThat(violation(f)).isEqualTo("501 lines, no \"Why one class:\" sentence in its javadoc");
  }

  @Test
  void theSentenceInTheClassJavadocPasses(@TempDir Path dir) throws IOException {
    Path f =
        write(
            dir,
            "Big.java",
            "package x;\n\nimport java.util.List;\n\n/**\n * A big class.\n *\n * <p>Why one class:"
                + " its parts share one state machine.\n */\n@SuppressWarnings(\"all\")\n"
                + "@Deprecated(\n    since = \"1\",\n    forRemoval = false)\n"
                + "public final class Big {",
            600);
    assertThat(violation(f)).isNull();
  }

  @Test
  void theSentenceOutsideTheClassJavadocDoesNotCount(@TempDir Path dir) throws IOException {
    Path f =
        write(
            dir,
            "Big.java",
            "/** A big class. */\npublic final class Big {\n  /** Why one class: not here. */\n"
                + "  void m() {}",
            501);
    assertThat(violation(f)).isNotNull();
    Path g =
        write(
            dir, "Bare.java", "/** A big class. Why one class: */\npublic final class Bare {", 501);
    assertThat(violation(g)).as("a sentence with no reason").isNotNull();
    Path h = write(dir, "Plain.java", "public final class Plain {", 501);
    assertThat(violation(h)).isEqualTo("501 lines, no javadoc on its top-level type");
  }

  @Test
  void overTheHardLimit_onlyTheShortList_aSentenceDoesNotSuffice(@TempDir Path dir)
      throws IOException {
    Path f =
        write(
            dir,
            "Huge.java",
            "/**\n * A huge class.\n *\n * <p>Why one class: it says so.\n */\npublic final class"
                + " Huge {",
            HARD_LIMIT + 1);
    assertThat(violation(f))
        .isEqualTo("601 lines, over 600 and not on ClassSizeTest's short list (OVER_HARD_LIMIT)");
    Path g =
        write(
            dir,
            "Edge.java",
            "/** Why one class: it says so. */\npublic final class Edge {",
            HARD_LIMIT);
    assertThat(violation(g)).isNull();
  }

  @Test
  void theShortListNamesLongFilesThatExist() throws IOException {
    for (String rel : OVER_HARD_LIMIT) {
      Path f = ROOT.resolve(rel);
      assertThat(f).as(rel).exists();
      assertThat(Files.readAllLines(f).size()).as(rel).isGreaterThan(HARD_LIMIT);
    }
  }

  @Test
  void aClassOfTheLimitPasses(@TempDir Path dir) throws IOException {
    Path f = write(dir, "Ok.java", "public final class Ok {", MAX_LINES);
    assertThat(violation(f)).isNull();
  }

  /** A file of {@code lines} lines: {@code head}, filler comment lines, a closing brace. */
  private static Path write(Path dir, String name, String head, int lines) throws IOException {
    List<String> out = new ArrayList<>(List.of(head.split("\n", -1)));
    while (out.size() < lines - 1) {
      out.add("  // filler");
    }
    out.add("}");
    Path f = dir.resolve(name);
    Files.write(f, out);
    return f;
  }

  /** Every {@code src/main/java} source file of the tree under {@code root}, build output aside. */
  static List<Path> mainSources(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().replace('\\', '/').contains("/src/main/java/"))
          .filter(p -> !p.toString().replace('\\', '/').contains("/target/"))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Why {@code f} breaks the rule, or null when it keeps it. */
  static String violation(Path f) {
    List<String> lines;
    try {
      lines = Files.readAllLines(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (lines.size() <= MAX_LINES) {
      return null;
    }
    String path = f.toString().replace('\\', '/');
    if (lines.size() > HARD_LIMIT && OVER_HARD_LIMIT.stream().noneMatch(path::endsWith)) {
      return lines.size()
          + " lines, over "
          + HARD_LIMIT
          + " and not on ClassSizeTest's short list (OVER_HARD_LIMIT)";
    }
    String text = String.join("\n", lines);
    String doc = typeJavadoc(text);
    if (doc == null) {
      return lines.size() + " lines, no javadoc on its top-level type";
    }
    return WHY.matcher(doc).find()
        ? null
        : lines.size() + " lines, no \"Why one class:\" sentence in its javadoc";
  }

  /**
   * The text of the javadoc right before the first top-level type declaration (annotations may
   * stand between), its lines' leading {@code *} taken off; null when there is none.
   */
  static String typeJavadoc(String text) {
    Matcher m = TOP_LEVEL.matcher(text);
    if (!m.find()) {
      return null;
    }
    String before = text.substring(0, m.start());
    int close = before.lastIndexOf("*/");
    // only annotations (picocli's span lines) may stand between the javadoc and the type
    String between = close < 0 ? "" : before.substring(close + 2).strip();
    if (close < 0 || !(between.isEmpty() || between.startsWith("@"))) {
      return null;
    }
    int open = before.lastIndexOf("/*", close);
    if (open < 0 || !before.startsWith("/**", open)) {
      return null;
    }
    String body = before.substring(open + 3, close);
    return body.lines()
        .map(l -> l.strip().replaceFirst("^\\*\\s?", ""))
        .collect(Collectors.joining(" "))
        .strip();
  }
}
