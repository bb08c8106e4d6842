package io.fluxdrm.checks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Code and docs cite public text (a Flux RFC section, the PMIx Standard, PRRTE's documented
 * behaviour) and the decision second, never a document outside the repository (decision D560): no
 * main source, test source or doc names the project's private source documents ({@code seed 0NN}),
 * a path into the private specification digests, or any other path climbing out of the repository
 * into the shared sources. The locations of the peer-building tools, the conformance corpus and the
 * peer tarballs ({@code ../shared/tools}, {@code conformance}, {@code peers}) are inputs the build
 * and the live tests are given, not citations, and stay allowed.
 */
class CitationsTest {
  private static final Path ROOT = Path.of("..");
  private static final Set<String> SKIPPED_DIRS = Set.of("target", ".git", "node_modules");
  private static final Set<String> TEXT =
      Set.of("java", "md", "json", "jsonl", "txt", "properties", "yaml", "yml", "xml");
  private static final Pattern CITATION =
      Pattern.compile(
          "(?i)\\bseeds? 0\\d\\d"
              + "|(?<![\\w.-])spec/(?:pmix|flux|README)"
              + "|shared/(?:seeds|spec)\\b"
              + "|\\.\\./shared/(?!tools\\b|conformance\\b|peers\\b)");

  /** The citations of private or out-of-repository documents in {@code text}, one per line. */
  static List<String> citations(String where, String text) {
    List<String> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (CITATION.matcher(lines[i]).find()) {
        out.add(where + ":" + (i + 1) + ": " + lines[i].strip());
      }
    }
    return out;
  }

  /** The files the rule covers: docs, READMEs and every module's {@code src} tree. */
  static boolean covered(Path rel) {
    String name = rel.getFileName().toString();
    int dot = name.lastIndexOf('.');
    if (dot < 0 || !TEXT.contains(name.substring(dot + 1))) {
      return false;
    }
    for (Path p : rel) {
      if (SKIPPED_DIRS.contains(p.toString())) {
        return false;
      }
    }
    String first = rel.getName(0).toString();
    return name.endsWith(".md") || first.equals("docs") || rel.toString().contains("src");
  }

  @Test
  void noSourceOrDoc_citesAPrivateDocumentOrAPathOutsideTheRepository() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> s = Files.walk(ROOT)) {
      for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
        Path rel = ROOT.relativize(p);
        if (!covered(rel) || p.getFileName().toString().equals("CitationsTest.java")) {
          continue;
        }
        String text;
        try {
          text = Files.readString(p, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
          continue;
        }
        found.addAll(citations(rel.toString().replace('\\', '/'), text));
      }
    }
    assertThat(found).isEmpty();
  }

  @Test
  void citations_catchSeedsDigestPathsAndSharedPaths_notTheToolsOrPublicReferences() {
    String bad =
        String.join(
            "\n",
            "// the realloc response (seed " + "004)",
            " * (Seed " + "000 \"Instantiation\")",
            "see spec" + "/pmix/03 §7.4",
            "`../shared/spec" + "/README.md`",
            "(../shared/" + "ARCHITECTURE.md)");
    assertThat(citations("X.java", bad))
        .containsExactly(
            "X.java:1: // the realloc response (seed 004)",
            "X.java:2: * (Seed 000 \"Instantiation\")",
            "X.java:3: see spec/pmix/03 §7.4",
            "X.java:4: `../shared/spec/README.md`",
            "X.java:5: (../shared/ARCHITECTURE.md)");
    String good =
        String.join(
            "\n",
            "RFC 51 §Realloc, D001",
            "PRRTE §7.4.4.2.1 \"Instantiation\"",
            "jobspec/src/test/resources/jobspecs/",
            "build the peer: ../shared/tools/build-prrte-peer",
            "-Dfluxdrm.conformance=../shared/conformance",
            "the seed 17 of a property test");
    assertThat(citations("Y.md", good)).isEmpty();
  }

  @Test
  void covered_isSourcesAndDocs_notBuildOutput() {
    assertThat(covered(Path.of("dvm/src/main/java/io/fluxdrm/dvm/core/DvmCore.java"))).isTrue();
    assertThat(covered(Path.of("docs/decisions/D001.md"))).isTrue();
    assertThat(covered(Path.of("README.md"))).isTrue();
    assertThat(covered(Path.of("dvm/target/classes/x.json"))).isFalse();
    assertThat(covered(Path.of("bench/flux-realloc.sh"))).isFalse();
  }
}
