package io.fluxdrm.checks.layout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The imports the architecture forbids (docs/architecture.md, "Modules and their edges"), as
 * ArchUnit rules over the compiled classes of every module.
 */
final class Layering {
  private Layering() {}

  /**
   * The packages of rpc that move messages (issue 11, scope 3): a pure core may use the message
   * model, errno and job ids of {@code io.fluxdrm.rpc} itself, none of these.
   */
  private static final String[] RPC_NET = {
    "io.fluxdrm.rpc.client..",
    "io.fluxdrm.rpc.service..",
    "io.fluxdrm.rpc.reactor..",
    "io.fluxdrm.rpc.transport..",
    "io.fluxdrm.rpc.hub..",
    "io.fluxdrm.rpc.zmtp..",
    "io.fluxdrm.rpc.curve.."
  };

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
          .resideInAnyPackage(RPC_NET)
          .as("pure cores import no rpc client, service, reactor, transport, hub, zmtp nor curve");

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

  /**
   * The command line is the commands only (issue 31, scope 2): the demo, its timeline and plot and
   * the replay providers are the {@code showcase} module's, never a package of {@code cli}.
   */
  static final ArchRule NO_DEMO_IN_CLI =
      noClasses()
          .should()
          .resideInAnyPackage(
              "io.fluxdrm.cli.demo..",
              "io.fluxdrm.cli.plot..",
              "io.fluxdrm.cli.timeline..",
              "io.fluxdrm.cli.replay..")
          .as("io.fluxdrm.cli has no demo, plot, timeline nor replay package");

  /** The showcase sits beside the commands: only the command line may import it. */
  static final ArchRule ONLY_CLI_IMPORTS_SHOWCASE =
      noClasses()
          .that()
          .resideOutsideOfPackages("io.fluxdrm.cli..", "io.fluxdrm.showcase..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.fluxdrm.showcase..")
          .as("only io.fluxdrm.cli imports io.fluxdrm.showcase");

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

  /** ZMTP and CurveZMQ are pure codecs (docs/rpc.md): no loop, no socket owner, no role. */
  static final ArchRule RPC_WIRE_PURE =
      noClasses()
          .that()
          .resideInAnyPackage("io.fluxdrm.rpc.zmtp..", "io.fluxdrm.rpc.curve..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.fluxdrm.rpc.client..",
              "io.fluxdrm.rpc.service..",
              "io.fluxdrm.rpc.reactor..",
              "io.fluxdrm.rpc.transport..",
              "io.fluxdrm.rpc.hub..",
              "io.fluxdrm.rpc.transcript..")
          .as("rpc.zmtp and rpc.curve import no rpc client, service, reactor, transport nor hub");

  /** The event loop is the bottom of the rpc packages: it knows no Flux role. */
  static final ArchRule RPC_REACTOR_BOTTOM =
      noClasses()
          .that()
          .resideInAPackage("io.fluxdrm.rpc.reactor..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.fluxdrm.rpc.client..",
              "io.fluxdrm.rpc.service..",
              "io.fluxdrm.rpc.transport..",
              "io.fluxdrm.rpc.hub..",
              "io.fluxdrm.rpc.zmtp..",
              "io.fluxdrm.rpc.curve..")
          .as("rpc.reactor imports no other rpc role");

  /** The service API is handed its loop and a way out by the handle; it knows no handle. */
  static final ArchRule RPC_SERVICE_NO_CLIENT =
      noClasses()
          .that()
          .resideInAPackage("io.fluxdrm.rpc.service..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.fluxdrm.rpc.client..", "io.fluxdrm.rpc.transport..", "io.fluxdrm.rpc.hub..")
          .as("rpc.service imports no rpc client, transport nor hub");

  /** A handle talks to a hub or a broker alike, through a connector: it knows no hub. */
  static final ArchRule RPC_CLIENT_NO_HUB =
      noClasses()
          .that()
          .resideInAPackage("io.fluxdrm.rpc.client..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.fluxdrm.rpc.hub..")
          .as("rpc.client imports no rpc.hub");

  /** Transports carry bytes for whoever drives them: no hub, no handle, no service. */
  static final ArchRule RPC_TRANSPORT_NO_ROLE =
      noClasses()
          .that()
          .resideInAPackage("io.fluxdrm.rpc.transport..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.fluxdrm.rpc.hub..", "io.fluxdrm.rpc.client..", "io.fluxdrm.rpc.service..")
          .as("rpc.transport imports no rpc hub, client nor service");

  /**
   * One place picks a connector by URI scheme (D534): code outside {@code rpc} opens handles
   * through {@code rpc.endpoint.Connectors}, never through {@code FluxHandle}'s connector methods,
   * so no command or demo parses a scheme to choose one.
   */
  static final ArchRule CONNECT_THROUGH_ENDPOINTS =
      noClasses()
          .that()
          .resideOutsideOfPackage("io.fluxdrm.rpc..")
          .should()
          .callMethodWhere(
              com.tngtech.archunit.base.DescribedPredicate.describe(
                  "a connector method of FluxHandle",
                  call ->
                      call.getTargetOwner().getFullName().equals("io.fluxdrm.rpc.client.FluxHandle")
                          && call.getName().startsWith("connect")))
          .as("only rpc calls FluxHandle.connect*; others use rpc.endpoint.Connectors");

  static final List<ArchRule> ALL =
      List.of(
          PURE_CORES_NO_NET,
          PMIX_NOTHING_FLUX_SIDE,
          NOTHING_IMPORTS_CLI,
          NO_DEMO_IN_CLI,
          ONLY_CLI_IMPORTS_SHOWCASE,
          JOB_MANAGER_NO_BRIDGE_NOR_PMIX,
          LIBRARIES_NO_BINDING,
          RPC_WIRE_PURE,
          RPC_REACTOR_BOTTOM,
          RPC_SERVICE_NO_CLIENT,
          RPC_CLIENT_NO_HUB,
          RPC_TRANSPORT_NO_ROLE,
          CONNECT_THROUGH_ENDPOINTS,
          TypedPmixKeys.KEYS_IN_THE_TYPED_PACKAGE);
}
