package io.fluxdrm.checks.layout;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every module's main classes keep the layering of docs/architecture.md, and each rule is shown to
 * catch a violation: the fixtures under {@code io.fluxdrm.*.layoutfixture} (test classes of this
 * module, never part of the main import) each break exactly one rule.
 */
class LayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // rpc's test-jar (fixtures) is on the classpath as a jar once packaged: not main code
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("io.fluxdrm");

  @Test
  void theMainClassesOfEveryModuleAreImported() {
    assertThat(MAIN.containPackage("io.fluxdrm.sched")).isTrue();
    assertThat(MAIN.containPackage("io.fluxdrm.pmix")).isTrue();
    assertThat(MAIN.containPackage("io.fluxdrm.jobmanager")).isTrue();
    assertThat(MAIN.containPackage("io.fluxdrm.bridge.translate")).isTrue();
    assertThat(MAIN.containPackage("io.fluxdrm.cli")).isTrue();
    assertThat(MAIN.containPackage("io.fluxdrm.showcase.demo")).isTrue();
    for (String p :
        new String[] {"client", "service", "reactor", "transport", "hub", "zmtp", "curve"}) {
      assertThat(MAIN.containPackage("io.fluxdrm.rpc." + p)).as(p).isTrue();
    }
    assertThat(MAIN.containPackage("io.fluxdrm.rpc.net")).isFalse();
    assertThat(MAIN.stream().anyMatch(c -> c.getPackageName().contains("layoutfixture"))).isFalse();
    assertThat(MAIN.stream().anyMatch(c -> c.getSimpleName().endsWith("Test"))).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void mainClassesKeepTheRule(String name, ArchRule rule) {
    rule.check(MAIN);
  }

  static Stream<Arguments> rules() {
    return Layering.ALL.stream().map(r -> Arguments.of(r.getDescription(), r));
  }

  @ParameterizedTest(name = "{0} is caught")
  @MethodSource("violations")
  void eachRuleCatchesItsFixture(String name, ArchRule rule, Class<?> fixture) {
    JavaClasses fixtures = new ClassFileImporter().importClasses(fixture);
    EvaluationResult result = rule.evaluate(fixtures);
    assertThat(result.hasViolation()).as(name).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(line -> line.contains(fixture.getName()));
  }

  static Stream<Arguments> violations() {
    return Stream.of(
        Arguments.of(
            "a core on the hub",
            Layering.PURE_CORES_NO_NET,
            io.fluxdrm.shell.core.layoutfixture.CoreOnTheNet.class),
        Arguments.of(
            "pmix on rpc",
            Layering.PMIX_NOTHING_FLUX_SIDE,
            io.fluxdrm.pmix.layoutfixture.PmixOnRpc.class),
        Arguments.of(
            "a command picking its own connector",
            Layering.CONNECT_THROUGH_ENDPOINTS,
            io.fluxdrm.bridge.layoutfixture.BridgeConnectsItself.class),
        Arguments.of(
            "a library on the cli",
            Layering.NOTHING_IMPORTS_CLI,
            io.fluxdrm.bridge.layoutfixture.BridgeOnCli.class),
        Arguments.of(
            "demo code in cli",
            Layering.NO_DEMO_IN_CLI,
            io.fluxdrm.cli.demo.layoutfixture.DemoInCli.class),
        Arguments.of(
            "a library on the showcase",
            Layering.ONLY_CLI_IMPORTS_SHOWCASE,
            io.fluxdrm.bridge.layoutfixture.BridgeOnShowcase.class),
        Arguments.of(
            "the job manager on pmix",
            Layering.JOB_MANAGER_NO_BRIDGE_NOR_PMIX,
            io.fluxdrm.jobmanager.layoutfixture.JobManagerOnPmix.class),
        Arguments.of(
            "a library on slf4j-simple",
            Layering.LIBRARIES_NO_BINDING,
            io.fluxdrm.rset.layoutfixture.RsetOnBinding.class),
        Arguments.of(
            "zmtp on the hub",
            Layering.RPC_WIRE_PURE,
            io.fluxdrm.rpc.zmtp.layoutfixture.ZmtpOnTheHub.class),
        Arguments.of(
            "the reactor on the client",
            Layering.RPC_REACTOR_BOTTOM,
            io.fluxdrm.rpc.reactor.layoutfixture.ReactorOnTheClient.class),
        Arguments.of(
            "the service API on the client",
            Layering.RPC_SERVICE_NO_CLIENT,
            io.fluxdrm.rpc.service.layoutfixture.ServiceOnTheClient.class),
        Arguments.of(
            "the client on the hub",
            Layering.RPC_CLIENT_NO_HUB,
            io.fluxdrm.rpc.client.layoutfixture.ClientOnTheHub.class),
        Arguments.of(
            "a transport on the hub",
            Layering.RPC_TRANSPORT_NO_ROLE,
            io.fluxdrm.rpc.transport.layoutfixture.TransportOnTheHub.class),
        Arguments.of(
            "an allocation key read outside the typed package",
            TypedPmixKeys.KEYS_IN_THE_TYPED_PACKAGE,
            io.fluxdrm.bridge.layoutfixture.BridgeReadsNodeCount.class));
  }
}
