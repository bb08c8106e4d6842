package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm sched} and {@code fluxdrm replay} refusing bad command lines, in process: a usage
 * error exits 2, a file that will not do 1 (docs/cli.md, "Exit status").
 */
@Timeout(30)
class SchedCommandTest {

  @Test
  void sched_emptyResourcesFile_saysItIsEmpty_namingTheFile(@TempDir Path d) throws Exception {
    Path empty = d.resolve("empty.json");
    Files.writeString(empty, "");
    CliRun r = CliRun.run("", "sched", "--listen", "unix:x", "--resources", empty.toString());
    assertThat(r.err().strip())
        .isEqualTo(
            "fluxdrm sched: --resources: "
                + empty
                + ": R: the document is empty (expected: an RFC 20 R object)");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no listen            | sched --hosts n0 --cores 0 | 2 | fluxdrm sched: --listen: missing (expected: unix:DIR or tcp://HOST:PORT, or --flux-uri)
          bad listen           | sched --listen foo:bar --hosts n0 --cores 0 | 2 | fluxdrm sched: --listen: "foo:bar" (expected: unix:DIR or tcp://HOST:PORT)
          no pool              | sched --listen unix:x | 2 | fluxdrm sched: pool: missing (expected: --resources R.json, or --hosts HOSTLIST with --cores IDSET)
          hosts without cores  | sched --listen unix:x --hosts n[0-1] | 2 | fluxdrm sched: pool: missing (expected: --resources R.json, or --hosts HOSTLIST with --cores IDSET)
          two pools            | sched --listen unix:x --hosts n0 --resources r.json | 2 | fluxdrm sched: --resources: not with --hosts (expected: one way to give the pool)
          bad cores            | sched --listen unix:x --hosts n0 --cores 3-1 | 2 | fluxdrm sched: --cores: idset "3-1": "3-1" is a reversed range (expected: lo < hi)
          queue depth zero     | sched --listen unix:x --hosts n0 --cores 0 --queue-depth 0 | 2 | fluxdrm sched: queue-depth: 0 (expected: 1 to 2147483647 or unlimited)
          queue depth word     | sched --listen unix:x --hosts n0 --cores 0 --queue-depth lots | 2 | fluxdrm sched: queue-depth: "lots" is not a number (expected: N >= 1, limited=N or unlimited)
          attached and listen  | sched --flux-uri local:///nowhere --listen unix:x | 2 | fluxdrm sched: --listen: not with --flux-uri (expected: the broker gives resources and state)
          attached and state   | sched --flux-uri local:///nowhere --state-dir d | 2 | fluxdrm sched: --state-dir: not with --flux-uri (expected: the broker gives resources and state)
          missing R file       | sched --listen unix:x --resources does-not-exist.json | 1 | fluxdrm sched: --resources: does-not-exist.json: cannot read (no such file)
          negative depth       | sched --listen unix:x --hosts n0 --cores 0 --queue-depth -5 | 2 | fluxdrm sched: queue-depth: -5 (expected: 1 to 2147483647 or unlimited)
          alloc mode word      | sched --listen unix:x --hosts n0 --cores 0 --alloc-mode tightest | 2 | fluxdrm sched: alloc-mode: "tightest" (expected: worst-fit, best-fit or first-fit)
          alloc mode spelling  | sched --flux-uri local:///nowhere --alloc-mode BEST_FIT | 2 | fluxdrm sched: alloc-mode: "BEST_FIT" (expected: worst-fit, best-fit or first-fit)
          alloc mode accepted  | sched --hosts n0 --cores 0 --alloc-mode best-fit | 2 | fluxdrm sched: --listen: missing (expected: unix:DIR or tcp://HOST:PORT, or --flux-uri)
          """)
  void sched_badCommandLine_oneLineExitByTheRule(String name, String args, int status, String err) {
    CliRun r = CliRun.run("", CliRun.words(args));
    assertThat(r.err().strip()).isEqualTo(status == 2 ? CliRun.usageLine(err) : err);
    assertThat(r.status()).isEqualTo(status);
    assertThat(r.out()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          cert without clients | POOL --listen tcp://127.0.0.1:0 --curve-cert DIR/server.cert | 2 | fluxdrm sched: --curve-cert: without --curve-clients (expected: both, or neither for a loopback listener)
          clients without cert | POOL --listen tcp://127.0.0.1:0 --curve-clients DIR/clients.json | 2 | fluxdrm sched: --curve-clients: without --curve-cert (expected: both, or neither for a loopback listener)
          curve on unix        | POOL --listen unix:DIR/hub --curve-cert DIR/server.cert --curve-clients DIR/clients.json | 2 | fluxdrm sched: --curve-cert: not with --listen unix:DIR/hub (expected: --listen tcp://HOST:PORT)
          cert open to all     | POOL --listen tcp://0.0.0.0:0 --curve-cert DIR/open.cert --curve-clients DIR/clients.json | 1 | fluxdrm sched: DIR/open.cert: mode 0644 lets group or others at the secret key (expected: 0600 or stricter; chmod 600 DIR/open.cert)
          public cert          | POOL --listen tcp://0.0.0.0:0 --curve-cert DIR/server.pub --curve-clients DIR/clients.json | 1 | fluxdrm sched: DIR/server.pub: curve: no secret-key (expected: a secret certificate, as 'fluxdrm keygen' writes)
          bad cert             | POOL --listen tcp://0.0.0.0:0 --curve-cert DIR/bad.cert --curve-clients DIR/clients.json | 1 | fluxdrm sched: DIR/bad.cert:2: public-key: 3 characters (expected: 40 Z85 characters)
          no cert file         | POOL --listen tcp://0.0.0.0:0 --curve-cert DIR/none --curve-clients DIR/clients.json | 1 | fluxdrm sched: DIR/none: no such file (expected: a CURVE certificate)
          bad clients          | POOL --listen tcp://0.0.0.0:0 --curve-cert DIR/server.cert --curve-clients DIR/bad-clients.json | 1 | fluxdrm sched: DIR/bad-clients.json: /clients/1/role: "admin" (expected: one of ["owner","user"])
          no clients file      | POOL --listen tcp://0.0.0.0:0 --curve-cert DIR/server.cert --curve-clients DIR/none.json | 1 | fluxdrm sched: DIR/none.json: no such file (expected: a CURVE clients file)
          attached and curve   | --flux-uri local:///nowhere --curve-cert DIR/server.cert | 2 | fluxdrm sched: --curve-cert: not with --flux-uri (expected: the broker gives resources and state)
          role word            | POOL --listen tcp://127.0.0.1:0 --tcp-loopback-role admin | 2 | fluxdrm sched: --tcp-loopback-role: "admin" (expected: guest or owner)
          role on unix         | POOL --listen unix:DIR/hub --tcp-loopback-role owner | 2 | fluxdrm sched: --tcp-loopback-role: not with --listen unix:DIR/hub (expected: --listen tcp://HOST:PORT; a Unix-socket hub knows each peer's uid)
          role with curve      | POOL --listen tcp://127.0.0.1:0 --curve-cert DIR/server.cert --curve-clients DIR/clients.json --tcp-loopback-role owner | 2 | fluxdrm sched: --tcp-loopback-role: not with --curve-cert (expected: the clients file gives each key its role)
          attached and role    | --flux-uri local:///nowhere --tcp-loopback-role guest | 2 | fluxdrm sched: --tcp-loopback-role: not with --flux-uri (expected: the broker gives resources and state)
          """)
  void sched_badCurveOptions_oneLineBeforeListening(
      String name, String args, int status, String err, @TempDir Path dir) throws Exception {
    CurveFiles.write(dir);
    CliRun r =
        CliRun.run(
            "",
            CliRun.words(
                ("sched " + args)
                    .replace("POOL", "--hosts n0 --cores 0")
                    .replace("DIR", dir.toString())));
    String line = err.replace("DIR", dir.toString());
    assertThat(r.err().strip()).isEqualTo(status == 2 ? CliRun.usageLine(line) : line);
    assertThat(r.status()).isEqualTo(status);
    assertThat(r.out()).isEmpty();
  }

  private static Path transcript() throws Exception {
    return Path.of(SchedCommandTest.class.getResource("sched-rfc51.jsonl").toURI());
  }

  @Test
  void replay_goldenTranscript_sameExit0() throws Exception {
    CliRun r = CliRun.run("", "replay", transcript().toString(), "--service", "sched");
    assertThat(r.err()).isEmpty();
    // the sched service's own answers in sched-rfc51.jsonl: 2 sched.alloc, 6 sched.realloc
    assertThat(r.out())
        .isEqualTo(
            "replay: 8 of 8 responses matched (transcript " + transcript() + ", service sched)\n");
    assertThat(r.status()).isZero();
  }

  @Test
  void replay_changedResponse_diffExit1(@TempDir Path dir) throws Exception {
    Path changed = dir.resolve("changed.jsonl");
    Files.writeString(
        changed, Files.readString(transcript()).replace("\"alloc_id\":6", "\"alloc_id\":60"));
    CliRun r = CliRun.run("", "replay", changed.toString(), "--service", "sched");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).startsWith("--- recorded\n+++ replayed\n");
    assertThat(r.out()).contains("-{\"topic\":\"sched.realloc\"").contains("\"alloc_id\":60");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          unknown service | nosuch | fluxdrm replay: --service: "nosuch" (expected: one of demo, demo-bridge, demo-dvm, dvm, job-manager, pmix, sched, shell)
          """)
  void replay_unknownService_usageExit2(String name, String service, String err) throws Exception {
    CliRun r = CliRun.run("", "replay", transcript().toString(), "--service", service);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo(CliRun.usageLine(err));
  }

  @Test
  void replay_missingFile_errorExit1AsPlot(@TempDir Path dir) {
    CliRun r = CliRun.run("", "replay", dir.resolve("none.jsonl").toString(), "--service", "sched");
    r.assertOneLineError("fluxdrm replay: " + dir.resolve("none.jsonl"), 1);
  }
}
