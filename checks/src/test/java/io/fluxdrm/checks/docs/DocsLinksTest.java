package io.fluxdrm.checks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of {@code README.md} and {@code docs/*.md} leads somewhere: to a file of the
 * repository and, for {@code file.md#anchor} or {@code #anchor}, to a heading of that document;
 * every document under {@code docs/} is linked from the README; and every test class the documents
 * name ({@code FooTest}, {@code BarIT}) exists.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  static List<String> brokenLinks(Path doc, String markdown) throws IOException {
    List<String> out = new ArrayList<>();
    for (DocMarkdown.Line l : DocMarkdown.lines(markdown)) {
      if (l.fenced()) {
        continue;
      }
      Matcher m = LINK.matcher(l.text());
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        String where = ROOT.relativize(doc).toString().replace('\\', '/') + ":" + l.number();
        if (!file.isEmpty() && !Files.exists(to)) {
          out.add(where + ": " + target + ": no such file");
        } else if (anchor != null
            && to.toString().endsWith(".md")
            && !DocMarkdown.anchors(file.isEmpty() ? markdown : Files.readString(to))
                .contains(anchor)) {
          out.add(where + ": " + target + ": no such heading");
        }
      }
    }
    return out;
  }

  @Test
  void docsAndReadme_everyRelativeLink_resolves() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path d : docs) {
      broken.addAll(brokenLinks(d, Files.readString(d)));
    }
    assertThat(broken).isEmpty();
  }

  /** The documents under docs/ (decisions aside) that {@code readme} does not link to. */
  static List<String> unlinkedDocs(String readme, List<String> docNames) {
    List<String> out = new ArrayList<>();
    for (String name : docNames) {
      if (!readme.contains("](docs/" + name + ")")) {
        out.add("docs/" + name + ": not linked from README.md");
      }
    }
    return out;
  }

  @Test
  void readme_linksEveryDocument() throws IOException {
    List<String> names;
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      names =
          s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md")).sorted().toList();
    }
    assertThat(names).contains("cli.md", "tutorial.md");
    assertThat(unlinkedDocs(Files.readString(ROOT.resolve("README.md")), names)).isEmpty();
  }

  @Test
  void unlinkedDocs_aDocumentTheReadmeOmits_reported() {
    assertThat(unlinkedDocs("see [cli](docs/cli.md)", List.of("cli.md", "new.md")))
        .containsExactly("docs/new.md: not linked from README.md");
  }

  private static final Pattern TEST_CLASS =
      Pattern.compile("\\b[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*(?:Test|IT)\\b");

  /** The test classes a document names that no module's {@code src/test/java} holds. */
  static List<String> unknownTestClasses(String doc, String markdown, java.util.Set<String> tests) {
    List<String> out = new ArrayList<>();
    for (DocMarkdown.Line l : DocMarkdown.lines(markdown)) {
      Matcher m = TEST_CLASS.matcher(l.text());
      while (m.find()) {
        if (!tests.contains(m.group())) {
          out.add(doc + ":" + l.number() + ": " + m.group() + ": no such test class");
        }
      }
    }
    return out;
  }

  @Test
  void docsAndReadme_everyNamedTestClass_exists() throws IOException {
    java.util.Set<String> tests = new java.util.TreeSet<>();
    try (Stream<Path> s = Files.walk(ROOT)) {
      s.map(p -> p.toString().replace('\\', '/'))
          .filter(p -> p.contains("/src/test/java/") && !p.contains("/target/"))
          .map(Path::of)
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".java"))
          .forEach(n -> tests.add(n.substring(0, n.length() - ".java".length())));
    }
    assertThat(tests).contains("DocsLinksTest", "DvmBridgeIT");
    List<String> unknown = new ArrayList<>();
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    for (Path d : docs) {
      String name = ROOT.relativize(d).toString().replace('\\', '/');
      unknown.addAll(unknownTestClasses(name, Files.readString(d), tests));
    }
    assertThat(unknown).isEmpty();
  }

  @Test
  void unknownTestClasses_aRenamedTest_reported() {
    assertThat(
            unknownTestClasses(
                "x.md",
                "`DvmBridgeIT` runs it; so did `OldBridgeIT`.",
                java.util.Set.of("DvmBridgeIT")))
        .containsExactly("x.md:1: OldBridgeIT: no such test class");
  }

  @Test
  void brokenLinks_aMissingFileAndAMissingHeading_reported() throws IOException {
    Path doc = ROOT.resolve("docs/x.md");
    String md =
        """
        # X

        ## A heading

        [ok](#a-heading), [ok](cli.md#fluxdrm-demo), [web](https://example.org/#nope),
        [gone](#no-heading), [gone](nosuch.md), [gone](cli.md#fluxdrm-frobnicate)
        """;
    assertThat(brokenLinks(doc, md))
        .containsExactly(
            "docs/x.md:6: #no-heading: no such heading",
            "docs/x.md:6: nosuch.md: no such file",
            "docs/x.md:6: cli.md#fluxdrm-frobnicate: no such heading");
  }
}
