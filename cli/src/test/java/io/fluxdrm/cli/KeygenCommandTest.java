package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.curve.Z85;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm keygen}: the certificate file, its mode, stdout, and every refusal, in process.
 */
@Timeout(30)
class KeygenCommandTest {

  @Test
  void keygen_newPath_writesPrivateCertificateAndPrintsItsPublicKey(@TempDir Path dir)
      throws Exception {
    Path cert = dir.resolve("curve.cert");
    CliRun r = CliRun.run("", "keygen", "--name", "cluster-a", cert.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    List<String> out = CliRun.lines(r.out());
    assertThat(out).hasSize(1);
    assertThat(Z85.decodeKey(out.get(0))).hasSize(32);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cert)))
        .isEqualTo("rw-------");
    CurveCert c = CurveCert.readSecret(cert);
    assertThat(c.publicKey()).isEqualTo(out.get(0));
    assertThat(c.metadata())
        .containsKeys(
            "name", "keygen.hostname", "keygen.time", "keygen.userid", "keygen.fluxdrm-version")
        .containsEntry("name", "cluster-a")
        .containsEntry("keygen.userid", Integer.toString(Daemon.uid()));
    assertThat(c.metadata().get("keygen.time"))
        .matches("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}");
    String text = Files.readString(cert);
    assertThat(text)
        .startsWith("#   ZeroMQ CURVE **Secret** Certificate\n")
        .contains("\nmetadata\n    name = \"cluster-a\"\n")
        .contains("\ncurve\n    public-key = \"" + c.publicKey() + "\"\n")
        .endsWith("    secret-key = \"" + c.secretKey() + "\"\n");
  }

  @Test
  void keygen_nameWithSpacesAndPunctuation_keptAsGiven(@TempDir Path dir) {
    Path cert = dir.resolve("c");
    String name = "cluster A (test) #1: x.y-z/[0]";
    assertThat(CliRun.run("", "keygen", "--name", name, cert.toString()).status()).isZero();
    assertThat(CurveCert.readSecret(cert).metadata().get("name")).isEqualTo(name);
  }

  @Test
  void keygen_noName_namedAfterTheHost(@TempDir Path dir) {
    Path cert = dir.resolve("c");
    assertThat(CliRun.run("", "keygen", cert.toString()).status()).isZero();
    CurveCert c = CurveCert.readSecret(cert);
    assertThat(c.metadata().get("name"))
        .isEqualTo(c.metadata().get("keygen.hostname"))
        .isNotEmpty();
  }

  @Test
  void keygen_twice_differentKeys(@TempDir Path dir) {
    CliRun a = CliRun.run("", "keygen", dir.resolve("a").toString());
    CliRun b = CliRun.run("", "keygen", dir.resolve("b").toString());
    assertThat(a.out()).isNotEqualTo(b.out());
  }

  @Test
  void keygen_existingPath_refusedAndLeftAlone(@TempDir Path dir) throws Exception {
    Path cert = Files.writeString(dir.resolve("curve.cert"), "keep me");
    CliRun r = CliRun.run("", "keygen", cert.toString());
    r.assertOneLineError(
        "fluxdrm keygen: " + cert + ": exists (expected: a new file, or --force to replace it)");
    assertThat(r.out()).isEmpty();
    assertThat(Files.readString(cert)).isEqualTo("keep me");
  }

  @Test
  void keygen_forceOverReadableFile_replacedWithPrivateNewKey(@TempDir Path dir) throws Exception {
    Path cert = dir.resolve("curve.cert");
    CliRun first = CliRun.run("", "keygen", cert.toString());
    Files.setPosixFilePermissions(cert, PosixFilePermissions.fromString("rw-r--r--"));
    CliRun again = CliRun.run("", "keygen", "--force", cert.toString());
    assertThat(again.status()).isZero();
    assertThat(again.out()).isNotEqualTo(first.out());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cert)))
        .isEqualTo("rw-------");
    assertThat(CurveCert.readSecret(cert).publicKey()).isEqualTo(again.out().strip());
    try (var files = Files.list(dir)) {
      assertThat(files).as("no temporary file left").containsExactly(cert);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          quote in name    | 2 | keygen --name a"b DIR/c      | fluxdrm keygen: --name: "a"b" contains '"' (expected: 1 to 200 letters, digits, spaces or .-:+=^!/*?&<>()[]{}@%$#, which flux-core's certificate reader accepts)
          underscore       | 2 | keygen --name a_b DIR/c      | fluxdrm keygen: --name: "a_b" contains '_' (expected: 1 to 200 letters, digits, spaces or .-:+=^!/*?&<>()[]{}@%$#, which flux-core's certificate reader accepts)
          empty name       | 2 | keygen --name= DIR/c         | fluxdrm keygen: --name: "" is empty (expected: 1 to 200 letters, digits, spaces or .-:+=^!/*?&<>()[]{}@%$#, which flux-core's certificate reader accepts)
          long name        | 2 | keygen --name=NAME201 DIR/c  | fluxdrm keygen: --name: "NAME201" has 201 characters (expected: 1 to 200 letters, digits, spaces or .-:+=^!/*?&<>()[]{}@%$#, which flux-core's certificate reader accepts)
          no path          | 2 | keygen                       | fluxdrm keygen: Missing required parameter: 'PATH' (see 'fluxdrm keygen --help')
          two paths        | 2 | keygen DIR/a DIR/b           | fluxdrm keygen: Unmatched argument at index 2: 'DIR/b' (see 'fluxdrm keygen --help')
          missing dir      | 1 | keygen DIR/none/c            | fluxdrm keygen: DIR/none/c: cannot write (DIR/none/c)
          force on a dir   | 1 | keygen --force DIR           | fluxdrm keygen: DIR: is a directory (expected: a certificate file)
          """)
  void keygen_badCommandLine_oneLineExitByTheRule(
      String name, int status, String args, String err, @TempDir Path dir) throws Exception {
    String long201 = "n".repeat(201);
    CliRun r =
        CliRun.run(
            "", CliRun.words(args.replace("DIR", dir.toString()).replace("NAME201", long201)));
    r.assertOneLineError(err.replace("DIR", dir.toString()).replace("NAME201", long201), status);
    assertThat(r.out()).isEmpty();
    try (var files = Files.list(dir)) {
      assertThat(files).as("nothing written").isEmpty();
    }
  }

  @Test
  void metadata_fixedClock_fluxKeygenFieldsInOrder() {
    Clock clock = Clock.fixed(Instant.parse("2026-11-29T10:11:12.345Z"), ZoneOffset.UTC);
    assertThat(KeygenCommand.metadata("n", "h", clock))
        .containsExactly(
            java.util.Map.entry("name", "n"),
            java.util.Map.entry("keygen.hostname", "h"),
            java.util.Map.entry("keygen.time", "2026-11-29T10:11:12"),
            java.util.Map.entry("keygen.userid", Integer.toString(Daemon.uid())),
            java.util.Map.entry("keygen.fluxdrm-version", "development"));
  }
}
