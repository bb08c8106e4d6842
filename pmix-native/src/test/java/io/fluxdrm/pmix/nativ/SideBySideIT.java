package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.dvm.sidebyside.ReferenceWorld;
import io.fluxdrm.dvm.sidebyside.SideBySide;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, scope 4: every scenario of sections B, C and D of docs/scenarios.md the suite can run,
 * against the reference DVM (in process) and against PRRTE (one DVM per group, this JVM its
 * scheduler in the group that has one, the tool a process of its own), through the same port. The
 * table goes to {@code target/side-by-side.md}; with {@code -Dfluxdrm.sidebyside.write=true} also
 * into docs/dvm.md between its markers, otherwise the test fails when docs/dvm.md's table is not
 * the one produced. With {@code -Dfluxdrm.sidebyside.only=B21,B22} only those scenarios run, and
 * the table is printed, not checked.
 */
class SideBySideIT {
  @TempDir static Path dir;

  @Test
  void bothDvms_sameScenarios_tableInDocsDvmMd() throws Exception {
    Path prrte = Peer.prrtePrefix();
    Path fakessh = Peer.needPrrte(dir);

    Map<String, String> reference = SideBySide.run(ReferenceWorld::new);
    Map<String, String> real =
        SideBySide.run(
            g -> {
              try {
                return new PrrteWorld(g, dir.resolve(g.name().toLowerCase()), prrte, fakessh);
              } catch (Exception e) {
                throw new IllegalStateException("PRRTE world " + g + ": " + e, e);
              }
            });
    String table = SideBySide.markdown(SideBySide.rows(reference, Optional.of(real)));
    Path target = Path.of("target", "side-by-side.md");
    Files.createDirectories(target.getParent());
    Files.writeString(target, table, StandardCharsets.UTF_8);
    System.err.println(table);

    assertThat(SideBySide.variesButAgrees(reference, real))
        .as("rows that say PRRTE's outcome varies and differs (D465), yet it was the reference's")
        .isEmpty();
    if (!SideBySide.only().isEmpty()) {
      // a partial run (fluxdrm.sidebyside.only) is for writing a scenario: it checks no document
      return;
    }
    Path doc = Path.of(System.getProperty("fluxdrm.docs.dir", "../docs")).resolve("dvm.md");
    String text = SideBySide.read(doc);
    if (Boolean.getBoolean("fluxdrm.sidebyside.write")) {
      Files.writeString(doc, SideBySide.replace(text, table), StandardCharsets.UTF_8);
    } else {
      assertThat(SideBySide.between(text))
          .as("docs/dvm.md's side-by-side table (rewrite it: -Dfluxdrm.sidebyside.write=true)")
          .isEqualTo(table);
    }
  }
}
