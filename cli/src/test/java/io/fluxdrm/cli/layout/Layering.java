package io.fluxdrm.cli.layout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The imports the architecture forbids (docs/architecture.md, "Modules and their edges"), as
 * ArchUnit rules over the compiled classes of every module.
 */
final class Layering {
  private Layering() {}

  /** Pure cores take events and return decisions: no sockets, no hub (ARCHITECTURE rule 2). */
  static final ArchRule PURE_CORES_NO_NET =
      noClasses()
          .that()
          .resideInAnyPackage(
              "io.fluxdrm.sched",
              "io.fluxdrm.jobmanager.core..",
              "io.fluxdrm.shell.core..",
              "io.fluxdrm.dvm.core..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.fluxdrm.rpc.net..")
          .as("pure cores import no io.fluxdrm.rpc.net");

  /**
   * The PMIx model and the DVM port know nothing Flux-side (D17, D240); pmix does not use rset
   * today, so it may not start to.
   */
  static final ArchRule PMIX_NOTHING_FLUX_SIDE =
      noClasses()
          .that()
          .resideInAPackage("io.fluxdrm.pmix..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.fluxdrm.rpc..",
              "io.fluxdrm.protocol..",
              "io.fluxdrm.sched..",
              "io.fluxdrm.jobmanager..",
              "io.fluxdrm.shell..",
              "io.fluxdrm.bridge..",
              "io.fluxdrm.rset..",
              "io.fluxdrm.jobspec..",
              "io.fluxdrm.schemas..",
              "io.fluxdrm.dvm..",
              "io.fluxdrm.cli..")
          .as("io.fluxdrm.pmix imports nothing Flux-side");

  /** The application is a leaf: nothing depends on it. */
  static final ArchRule NOTHING_IMPORTS_CLI =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.fluxdrm.cli..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.fluxdrm.cli..")
          .as("nothing outside io.fluxdrm.cli imports io.fluxdrm.cli");

  /** The job manager is Flux-side only: PMIx reaches it through the bridge, never the reverse. */
  static final ArchRule JOB_MANAGER_NO_BRIDGE_NOR_PMIX =
      noClasses()
          .that()
          .resideInAPackage("io.fluxdrm.jobmanager..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.fluxdrm.bridge..", "io.fluxdrm.pmix..")
          .as("io.fluxdrm.jobmanager imports no io.fluxdrm.bridge nor io.fluxdrm.pmix");

  /** Only the application binds slf4j (D241). */
  static final ArchRule LIBRARIES_NO_BINDING =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.fluxdrm.cli..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "org.slf4j.simple..", "ch.qos.logback..", "org.apache.logging.slf4j..")
          .as("library modules import no logging binding");

  static final List<ArchRule> ALL =
      List.of(
          PURE_CORES_NO_NET,
          PMIX_NOTHING_FLUX_SIDE,
          NOTHING_IMPORTS_CLI,
          JOB_MANAGER_NO_BRIDGE_NOR_PMIX,
          LIBRARIES_NO_BINDING);
}
