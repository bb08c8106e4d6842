package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/**
 * {@code fluxdrm bridge --pmix-scheduler} on a JDK or class path that cannot run it: a clear error
 * naming what is missing, before anything starts (D435); and the DVM job it submits.
 */
class PmixSchedulerOptionTest {

  @Test
  void onJdk17_theErrorNamesTheJdkNeeded() {
    assertThatThrownBy(() -> PmixSchedulerLink.provider(17, getClass().getClassLoader()))
        .isInstanceOf(CliError.class)
        .hasMessage(
            "--pmix-scheduler: needs a JDK 22 or later (this is JDK 17): run bin/fluxdrm with"
                + " JAVA_HOME set to one, e.g. a Temurin 25 JDK");
  }

  @Test
  void withoutTheNativeModule_theErrorSaysHowToBuildIt() {
    ClassLoader empty = new URLClassLoader(new URL[0], getClass().getClassLoader());
    // the cli's own class path never holds pmix-native (a JDK 22+ module)
    assertThatThrownBy(() -> PmixSchedulerLink.provider(25, empty))
        .isInstanceOf(CliError.class)
        .hasMessageStartingWith("--pmix-scheduler: the pmix-native module is not on the class path")
        .hasMessageContaining("mvn -B -Ppmix-native package");
  }

  @Test
  void theDvmJobHoldsTheHeadNodeAndRunsPrte() {
    ObjectNode js = PmixSchedulerLink.jobspec("head0");
    assertThat(js.at("/attributes/system/constraints/hostlist/0").asText()).isEqualTo("head0");
    assertThat(js.at("/tasks/0/command/0").asText()).isEqualTo("prte");
    assertThat(js.at("/resources/0/count").asInt()).isEqualTo(1);
  }

  @Test
  void usageErrors_exit2() {
    CliRun r =
        CliRun.run(
            "",
            "bridge",
            "--connect",
            "unix:/nonexistent",
            "--state-dir",
            "/tmp/x",
            "--pmix-scheduler");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--dvm-uri: missing");
    CliRun u =
        CliRun.run(
            "",
            "bridge",
            "--connect",
            "unix:/nonexistent",
            "--state-dir",
            "/tmp/x",
            "--dvm-uri",
            "file:dvm.uri");
    assertThat(u.status()).isEqualTo(2);
    assertThat(u.err()).contains("--dvm-uri: only with --pmix-scheduler");
  }
}
