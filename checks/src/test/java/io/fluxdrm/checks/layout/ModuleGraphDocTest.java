package io.fluxdrm.checks.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module graph of {@code docs/architecture.md} is the one the poms build: every module of the
 * reactor and of its profiles ({@code pmix-native}), and each module's compile-scope edges to the
 * other fluxdrm modules.
 */
class ModuleGraphDocTest {
  private static final Path ROOT = Path.of("..");
  private static final String PREFIX = "fluxdrm-";

  @Test
  void docsGraphMatchesThePoms() throws Exception {
    assertThat(documented(Files.readString(ROOT.resolve("docs/architecture.md"))))
        .isEqualTo(built());
  }

  @Test
  void aMissingEdgeIsReported() throws Exception {
    Map<String, Set<String>> built = built();
    String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
    String broken =
        doc.replace("job-manager    -> protocol, rpc, rset", "job-manager    -> rpc, rset");
    assertThat(broken).isNotEqualTo(doc);
    assertThat(documented(broken)).isNotEqualTo(built);
  }

  /** The compile-scope edges between fluxdrm modules, read from the reactor's poms. */
  static Map<String, Set<String>> built() throws Exception {
    Map<String, Set<String>> graph = new TreeMap<>();
    Element parent = parse(ROOT.resolve("pom.xml"));
    List<Element> modules = new java.util.ArrayList<>(children(child(parent, "modules"), "module"));
    Element profiles = child(parent, "profiles");
    if (profiles != null) {
      for (Element profile : children(profiles, "profile")) {
        Element more = child(profile, "modules");
        if (more != null) {
          modules.addAll(children(more, "module"));
        }
      }
    }
    for (Element m : modules) {
      String name = m.getTextContent().trim();
      Element pom = parse(ROOT.resolve(name).resolve("pom.xml"));
      Set<String> deps = new TreeSet<>();
      Element section = child(pom, "dependencies");
      if (section != null) {
        for (Element d : children(section, "dependency")) {
          String group = text(d, "groupId");
          String artifact = text(d, "artifactId");
          String scope = text(d, "scope");
          String type = text(d, "type");
          if ("io.fluxdrm".equals(group)
              && artifact.startsWith(PREFIX)
              && (scope == null || scope.equals("compile"))
              && (type == null || type.equals("jar"))) {
            deps.add(artifact.substring(PREFIX.length()));
          }
        }
      }
      graph.put(name, deps);
    }
    return graph;
  }

  /** The graph of the {@code ```graph} block: one line per module, {@code name -> a, b}. */
  static Map<String, Set<String>> documented(String markdown) {
    Matcher block = Pattern.compile("```graph\\n(.*?)```", Pattern.DOTALL).matcher(markdown);
    assertThat(block.find()).as("docs/architecture.md has a ```graph block").isTrue();
    Map<String, Set<String>> graph = new TreeMap<>();
    for (String line : block.group(1).split("\\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] parts = line.split("->", -1);
      assertThat(parts).as("graph line %s", line).hasSize(2);
      Set<String> deps =
          Arrays.stream(parts[1].split(","))
              .map(String::trim)
              .filter(s -> !s.isEmpty())
              .collect(Collectors.toCollection(TreeSet::new));
      graph.put(parts[0].trim(), deps);
    }
    return graph;
  }

  private static Element parse(Path pom) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document d = f.newDocumentBuilder().parse(pom.toFile());
    return d.getDocumentElement();
  }

  private static Element child(Element e, String name) {
    List<Element> c = children(e, name);
    return c.isEmpty() ? null : c.get(0);
  }

  private static List<Element> children(Element e, String name) {
    NodeList nodes = e.getChildNodes();
    return java.util.stream.IntStream.range(0, nodes.getLength())
        .mapToObj(nodes::item)
        .filter(n -> n.getNodeType() == Node.ELEMENT_NODE && n.getNodeName().equals(name))
        .map(Element.class::cast)
        .toList();
  }

  private static String text(Element e, String name) {
    Element c = child(e, name);
    return c == null ? null : c.getTextContent().trim();
  }
}
