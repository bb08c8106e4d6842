package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.dvm.PmixToolProvider;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.showcase.demo.PrrteStory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm demo --prrte} without PRRTE (D463): on this build's JDK 17, or without the
 * pmix-native jar, one line naming what is missing and exit 1, never a stack trace; options it does
 * not take, and its own options without it, exit 2 with a usage line before anything runs; and the
 * order of {@link PrrteStory#missing}: JDK, pmix-native, PRRTE's commands, libpmix, the ssh agent.
 */
class DemoPrrteCommandTest {
  @TempDir Path dir;

  /**
   * A provider that {@link PrrteStory#missing} finds through a service file in a test loader. Its
   * checks only ask whether a provider is there and never connect, so a call to {@link #connect}
   * fails the test.
   */
  public static final class FakeProvider implements PmixToolProvider {
    /** For {@link java.util.ServiceLoader}. */
    public FakeProvider() {}

    @Override
    public DvmPort connect(String dvmUri, Duration timeout, Executor executor) {
      throw new AssertionError("PrrteStory.missing() connected to " + dvmUri + ": it must not");
    }
  }

  @Test
  void withoutPmixNative_exits1WithOneLineNamingWhatIsMissing() {
    CliRun r = CliRun.run("", "demo", "--prrte", "--ssh-agent", "/bin/true");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).startsWith("fluxdrm demo: --prrte: ").doesNotContain("Exception");
    if (Runtime.version().feature() < PrrteStory.MIN_JDK) {
      assertThat(r.err())
          .contains("needs a JDK 22 or later (this is JDK " + Runtime.version().feature() + ")");
    } else {
      assertThat(r.err()).contains("the pmix-native module is not on the class path");
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          --processes                    | --processes: not with --prrte
          --crash                        | --crash: not with --prrte
          --seed 3                       | --seed: not with --prrte
          --nodes 8                      | --nodes: not with --prrte
          --transcript x.jsonl           | --transcript: not with --prrte
          --picture x.svg                | --picture: not with --prrte
          """)
  void optionsPrrteDoesNotTake_exit2(String option, String message) {
    String[] args = ("demo --prrte " + option).split(" ");
    CliRun r = CliRun.run("", args);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("fluxdrm demo: " + message);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.out()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"--ssh-agent,/bin/true", "--prrte-prefix,/opt/prrte", "--pmix-prefix,/opt/pmix"})
  void prrteOptionsWithoutPrrte_exit2(String option, String value) {
    CliRun r = CliRun.run("", "demo", option, value);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(CliRun.usageLine("fluxdrm demo: " + option + ": only with --prrte"));
  }

  @Test
  void missing_inOrder_jdkPmixNativePrrteLibpmixAgent() throws Exception {
    Path prrte = dir.resolve("prrte");
    Path pmix = dir.resolve("pmix");
    PrrteStory.Config c =
        new PrrteStory.Config(prrte, pmix, Optional.of(dir.resolve("agent")), null, "Main");
    ClassLoader none = new URLClassLoader(new URL[0], null);
    assertThat(PrrteStory.missing(17, none, c))
        .hasValueSatisfying(
            m -> assertThat(m).contains("needs a JDK 22 or later (this is JDK 17)"));
    assertThat(PrrteStory.missing(25, none, c))
        .hasValueSatisfying(
            m -> assertThat(m).contains("the pmix-native module is not on the class path"));

    Path services = dir.resolve("loader/META-INF/services");
    Files.createDirectories(services);
    Files.writeString(
        services.resolve(PmixToolProvider.class.getName()), FakeProvider.class.getName() + "\n");
    ClassLoader found =
        new URLClassLoader(
            new URL[] {dir.resolve("loader").toUri().toURL()}, getClass().getClassLoader());
    assertThat(PrrteStory.missing(25, found, c))
        .hasValue(
            "--prrte: "
                + prrte.resolve("bin/prte")
                + " is missing (--prrte-prefix names PRRTE's installation; build the peer:"
                + " ../shared/tools/build-prrte-peer)");
    Files.createDirectories(prrte.resolve("bin"));
    for (String cmd : new String[] {"prte", "prun", "pterm"}) {
      Path p = prrte.resolve("bin").resolve(cmd);
      Files.writeString(p, "#!/bin/sh\n");
      p.toFile().setExecutable(true);
    }
    assertThat(PrrteStory.missing(25, found, c))
        .hasValueSatisfying(m -> assertThat(m).contains(pmix + "/lib/libpmix.so is missing"));
    Files.createDirectories(pmix.resolve("lib"));
    Files.writeString(pmix.resolve("lib/libpmix.so"), "");
    assertThat(PrrteStory.missing(25, found, c))
        .hasValueSatisfying(
            m -> assertThat(m).startsWith("--ssh-agent: " + dir.resolve("agent") + " is not"));
    Files.writeString(dir.resolve("agent"), "#!/bin/sh\n");
    dir.resolve("agent").toFile().setExecutable(true);
    assertThat(PrrteStory.missing(25, found, c)).isEmpty();
  }
}
