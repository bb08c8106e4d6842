package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code bin/fluxdrm} run as a real process on the jar that {@code mvn package} built: stdin,
 * stdout, stderr and exit status as a user sees them.
 */
@Timeout(120)
class FluxdrmLauncherIT {

  /** The repository root: the parent of this module's directory. */
  static final Path ROOT =
      Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize().getParent();

  static final Path LAUNCHER = ROOT.resolve("bin/fluxdrm");

  record Run(int status, String out, String err) {}

  /** Runs {@code launcher} with args, feeding stdin, with this JVM's java first on PATH. */
  static Run run(Path launcher, String stdin, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("sh", launcher.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
    pb.environment().merge("PATH", javaBin, (old, add) -> add + File.pathSeparator + old);
    Process p = pb.start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
    try (var in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ends", cmd).isTrue();
    return new Run(p.exitValue(), out.join(), err.join());
  }

  static String drain(InputStream s) {
    try (s) {
      return new String(s.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  record Case(String name, String args, String stdin, int status, String out, String err) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> commands() {
    return Stream.of(
        new Case(
            "hostlist_expand_hostsPrinted",
            "hostlist -e node[0-3],foo7",
            "",
            0,
            "node0 node1 node2 node3 foo7\n",
            ""),
        new Case("hostlist_stdinDefault_read", "hostlist -c", "n[1-4]\nm[0-9]\n", 0, "14\n", ""),
        new Case(
            "decode_notR_exit1OneLine",
            "R decode",
            "{}\n",
            1,
            "",
            "fluxdrm R decode: failed to decode R on stdin (document 1): /version: is missing"
                + " (expected: 1)\n"),
        new Case(
            "hostlist_badHostlist_exit1OneLine",
            "hostlist n[",
            "",
            1,
            "",
            "fluxdrm hostlist: Invalid jobid or hostlist n[: hostlist \"n[\": \"n[\" has an unclosed"
                + " '[' (expected: balanced brackets)\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void launcher_command_outputAndStatus(Case c) throws Exception {
    Run r = run(LAUNCHER, c.stdin(), CliRun.words(c.args()));
    assertThat(r.out()).as("stdout of %s", c).isEqualTo(c.out());
    assertThat(r.err()).as("stderr of %s", c).isEqualTo(c.err());
    assertThat(r.status()).as("status of %s", c).isEqualTo(c.status());
  }

  @Test
  void launcher_encodePipedToDecode_summaryOfEncoded() throws Exception {
    Run enc = run(LAUNCHER, "", "R", "encode", "-r", "0-3", "-c", "0-7", "-H", "node[0-3]");
    assertThat(enc.status()).isZero();
    assertThat(CliRun.json(enc.out()))
        .isEqualTo(
            CliRun.json(
                "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\":"
                    + " {\"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0,"
                    + " \"nodelist\": [\"node[0-3]\"]}}"));
    Run dec = run(LAUNCHER, enc.out() + enc.out(), "R", "decode", "-s", "-n", "-c", "core");
    assertThat(dec).isEqualTo(new Run(0, "rank[0-3]/core[0-7]\nnode[0-3]\n64\n", ""));
  }

  @Test
  void launcher_help_listsCommands() throws Exception {
    Run r = run(LAUNCHER, "", "--help");
    assertThat(r.status()).isZero();
    assertThat(r.out())
        .contains("Usage: fluxdrm")
        .contains("  R ")
        .contains("  hostlist ")
        .contains("  keygen ");
  }

  @Test
  void launcher_rHelp_listsSubcommands() throws Exception {
    Run r = run(LAUNCHER, "", "R", "--help");
    assertThat(r.status()).isZero();
    for (String sub :
        List.of(
            "encode",
            "decode",
            "append",
            "diff",
            "intersect",
            "remap",
            "rerank",
            "verify",
            "set-property")) {
      assertThat(r.out()).contains("  " + sub + " ");
    }
  }

  @Test
  void launcher_jarMissing_saysHowToBuild(@TempDir Path tmp) throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path copy = Files.copy(LAUNCHER, bin.resolve("fluxdrm"));
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
    Run r = run(copy, "", "hostlist", "a");
    Path root = tmp.toRealPath();
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "fluxdrm: "
                + root.resolve("cli/target/fluxdrm.jar")
                + " is missing; build it first with: (cd "
                + root
                + " && mvn -B -q package -DskipTests)\n");
  }
}
