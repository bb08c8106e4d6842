package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code fluxdrm bridge} refusing bad command lines, in process, before connecting anywhere. */
@Timeout(30)
class BridgeCommandTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no connect        | bridge --state-dir s                                | fluxdrm bridge: --connect: missing (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          unknown scheme    | bridge --connect foo:bar --state-dir s              | fluxdrm bridge: --connect: "foo:bar" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          empty unix        | bridge --connect unix: --state-dir s                | fluxdrm bridge: --connect: "unix:" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          empty local       | bridge --connect local:// --state-dir s             | fluxdrm bridge: --connect: "local://" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          tcp off loopback  | bridge --connect tcp://10.1.2.3:5000 --state-dir s  | fluxdrm bridge: --connect: "tcp://10.1.2.3:5000" (expected: tcp://HOST:PORT on loopback, or --curve-cert with --curve-server-key for any host)
          tcp without port  | bridge --connect tcp://127.0.0.1 --state-dir s      | fluxdrm bridge: --connect: "tcp://127.0.0.1" (expected: tcp://HOST:PORT on loopback, or --curve-cert with --curve-server-key for any host)
          no state dir      | bridge --connect tcp://127.0.0.1:5000               | fluxdrm bridge: --state-dir: missing (expected: a directory for the jobs' eventlogs)
          unknown option    | bridge --connect tcp://127.0.0.1:5000 --nosuch      | fluxdrm bridge: Unknown option: '--nosuch' (see 'fluxdrm bridge --help')
          dvm bad scheme    | bridge --connect tcp://127.0.0.1:5000 --state-dir s --dvm foo:bar | fluxdrm bridge: --dvm: "foo:bar" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)
          dvm empty unix    | bridge --connect tcp://127.0.0.1:5000 --state-dir s --dvm unix: | fluxdrm bridge: --dvm: "unix:" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)
          dvm off loopback  | bridge --connect tcp://127.0.0.1:5000 --state-dir s --dvm tcp://10.1.2.3:5000 | fluxdrm bridge: --dvm: "tcp://10.1.2.3:5000" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)
          option no value   | bridge --connect                                    | fluxdrm bridge: Missing required parameter for option '--connect' (ENDPOINT) (see 'fluxdrm bridge --help')
          """)
  void bridge_badCommandLine_oneLineExit2(String name, String args, String err) {
    CliRun r = CliRun.run("", CliRun.words(args));
    assertThat(r.err().strip()).isEqualTo(CliRun.usageLine(err));
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
  }

  @Test
  void bridge_stateDirIsAFile_oneLineExit1(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");
    CliRun r =
        CliRun.run(
            "", "bridge", "--connect", "tcp://127.0.0.1:5000", "--state-dir", file.toString());
    assertThat(r.err().strip())
        .isEqualTo(
            "fluxdrm bridge: --state-dir: "
                + file
                + ": not a directory (expected: a directory for eventlogs)");
    assertThat(r.status()).as("a file named on the command line, not a usage error").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          cert without key    | 2 | --connect tcp://10.1.2.3:5000 --curve-cert DIR/client.cert | fluxdrm bridge: --curve-cert: without --curve-server-key (expected: both, or neither for loopback)
          key without cert    | 2 | --connect tcp://10.1.2.3:5000 --curve-server-key SERVER    | fluxdrm bridge: --curve-server-key: without --curve-cert (expected: both, or neither for loopback)
          curve on unix       | 2 | --connect unix:x --curve-cert DIR/client.cert --curve-server-key SERVER | fluxdrm bridge: --curve-cert: not with --connect unix:x (expected: --connect tcp://HOST:PORT)
          curve no port       | 2 | --connect tcp://node0 --curve-cert DIR/client.cert --curve-server-key SERVER | fluxdrm bridge: --connect: "tcp://node0" (expected: tcp://HOST:PORT)
          short server key    | 2 | --connect tcp://node0:5000 --curve-cert DIR/client.cert --curve-server-key abc | fluxdrm bridge: --curve-server-key: "abc": no such file, and 3 characters (expected: a certificate file, or a key of 40 Z85 characters)
          server key not z85  | 2 | --connect tcp://node0:5000 --curve-cert DIR/client.cert --curve-server-key 0123456789~123456789012345678901234567890 | fluxdrm bridge: --curve-server-key: "0123456789~123456789012345678901234567890": no such file, and 41 characters (expected: a certificate file, or a key of 40 Z85 characters)
          server key bad char | 2 | --connect tcp://node0:5000 --curve-cert DIR/client.cert --curve-server-key 0123456789~12345678901234567890123456789 | fluxdrm bridge: --curve-server-key: character 10 is '~' (expected: one of the 85 Z85 characters)
          cert open to all    | 1 | --connect tcp://node0:5000 --curve-cert DIR/open.cert --curve-server-key SERVER | fluxdrm bridge: DIR/open.cert: mode 0644 lets group or others at the secret key (expected: 0600 or stricter; chmod 600 DIR/open.cert)
          public cert         | 1 | --connect tcp://node0:5000 --curve-cert DIR/server.pub --curve-server-key SERVER | fluxdrm bridge: DIR/server.pub: curve: no secret-key (expected: a secret certificate, as 'fluxdrm keygen' writes)
          no cert file        | 1 | --connect tcp://node0:5000 --curve-cert DIR/none --curve-server-key SERVER | fluxdrm bridge: DIR/none: no such file (expected: a CURVE certificate)
          bad server cert     | 1 | --connect tcp://node0:5000 --curve-cert DIR/client.cert --curve-server-key DIR/bad.cert | fluxdrm bridge: DIR/bad.cert:2: public-key: 3 characters (expected: 40 Z85 characters)
          """)
  void bridge_badCurveOptions_oneLineNoConnection(
      String name, int status, String args, String err, @TempDir Path dir) throws Exception {
    CurveFiles.write(dir);
    String state = dir.resolve("state").toString();
    CliRun r =
        CliRun.run(
            "",
            CliRun.words(
                ("bridge --state-dir " + state + " " + args)
                    .replace("DIR", dir.toString())
                    .replace("SERVER", CurveFiles.SERVER_KEY)));
    String line = err.replace("DIR", dir.toString());
    assertThat(r.err().strip()).isEqualTo(status == 2 ? CliRun.usageLine(line) : line);
    assertThat(r.status()).isEqualTo(status);
    assertThat(r.out()).isEmpty();
    assertThat(dir.resolve("state")).as("no state created").doesNotExist();
  }

  @Test
  void serverKey_z85OrCertificate_thePublicKey(@TempDir Path dir) throws Exception {
    CurveFiles.write(dir);
    assertThat(BridgeCommand.serverKey(CurveFiles.SERVER_KEY)).isEqualTo(CurveFiles.SERVER_KEY);
    assertThat(BridgeCommand.serverKey(dir.resolve("server.pub").toString()))
        .isEqualTo(CurveFiles.SERVER_KEY);
    assertThat(BridgeCommand.serverKey(dir.resolve("server.cert").toString()))
        .isEqualTo(CurveFiles.SERVER_KEY);
  }
}
