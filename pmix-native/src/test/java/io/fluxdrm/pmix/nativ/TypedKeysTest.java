package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.nativ.keysfixture.GrantNodes;
import io.fluxdrm.testkit.ClassFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The checks module's rule that PMIx allocation and session-control keys are read and written in
 * {@code io.fluxdrm.pmix.request} alone (D548), applied to this module's main classes, which the
 * checks module does not see (this module is built with a JDK 22+ only). The binding's table of the
 * C headers' keys is exempt, as the key catalog and codec of {@code io.fluxdrm.pmix} are (D579).
 */
class TypedKeysTest {
  /** {@link Layouts#expected()} compares the keys of the catalog with the installed headers'. */
  static final Set<String> EXEMPT = Set.of(Layouts.class.getName());

  @Test
  void noMainClassButTheHeaderTableHoldsAKey() {
    Path main = root(Layouts.class);
    assertThat(violations(main, "io/fluxdrm/pmix/nativ")).isEmpty();
    // the exemption is not stale: the table holds keys
    assertThat(holders(main, "io/fluxdrm/pmix/nativ")).containsOnlyKeys(EXEMPT);
  }

  @Test
  void aClassThatReadsAKeyItselfIsCaught() {
    assertThat(violations(root(GrantNodes.class), "io/fluxdrm/pmix/nativ/keysfixture"))
        .isEqualTo(Map.of(GrantNodes.class.getName(), List.of("pmix.alloc.nlist")));
  }

  /** The classes under {@code dir} of {@code root} that hold a key and are not exempt. */
  static Map<String, List<String>> violations(Path root, String dir) {
    Map<String, List<String>> out = holders(root, dir);
    out.keySet().removeAll(EXEMPT);
    return out;
  }

  /**
   * The classes under {@code dir} of {@code root} that hold a key, a nested class counted as its
   * outermost class, with their keys.
   */
  static Map<String, List<String>> holders(Path root, String dir) {
    Map<String, List<String>> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root.resolve(dir))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
        int inner = name.indexOf('$');
        String outer = inner < 0 ? name : name.substring(0, inner);
        List<String> keys;
        try (InputStream in = Files.newInputStream(f)) {
          keys = ClassFiles.pmixKeys(in);
        }
        if (!keys.isEmpty()) {
          out.computeIfAbsent(outer, k -> new ArrayList<>()).addAll(keys);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static Path root(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
