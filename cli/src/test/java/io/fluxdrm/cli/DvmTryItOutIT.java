package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.dvm.wire.SchedulerEndpoint;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PRRTE §7.4.4.5 "Trying it out" with real processes: {@code fluxdrm dvm} as a process on its hub,
 * driven by {@code fluxdrm sessionctrl} as processes; the sleeps' states read in /proc.
 */
class DvmTryItOutIT {
  private static final Duration SLOW = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Process dvm;
  private String host;

  @BeforeEach
  void startDvm() throws Exception {
    host = DvmCommand.shortHostname();
    dvm =
        fluxdrm(
            "dvm",
            "dvm",
            "--hosts",
            host,
            "--slots",
            "4",
            "--listen",
            "unix:" + hub(),
            "--check-invariants");
    Path out = dir.resolve("dvm.out");
    long deadline = System.nanoTime() + SLOW.toNanos();
    while (!Files.readString(out).contains("listening on")) {
      assertThat(dvm.isAlive()).as("dvm alive; stderr: %s", stderrOf("dvm")).isTrue();
      assertThat(System.nanoTime() - deadline).as("dvm ready within %s", SLOW).isNegative();
      Thread.sleep(20); // polling with a deadline
    }
  }

  @AfterEach
  void stopDvm() throws Exception {
    List<ProcessHandle> children = dvm.descendants().toList();
    dvm.destroy();
    assertThat(dvm.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
    // the DVM kills its procs when it stops: none outlives it
    for (ProcessHandle c : children) {
      c.onExit().get(SLOW.toSeconds(), TimeUnit.SECONDS);
    }
    // issue 13's invariants held after every event the DVM handled (--check-invariants)
    assertThat(stderrOf("dvm")).doesNotContain("invariant broken");
  }

  private Path hub() {
    return dir.resolve("hub");
  }

  private String stderrOf(String name) throws IOException {
    return Files.readString(dir.resolve(name + ".err"), StandardCharsets.UTF_8);
  }

  private Process fluxdrm(String name, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile())
            .start();
    p.getOutputStream().close();
    return p;
  }

  /** One command as a process: its exit status and JSON answer. */
  record Answer(int status, JsonNode json, String stderr) {
    String infoString(String key) {
      for (JsonNode i : json.get("infos")) {
        if (i.get("key").asText().equals(key)) {
          return i.get("value").asText();
        }
      }
      throw new AssertionError("no " + key + " in " + json);
    }
  }

  private int runs;

  private Answer sessionctrl(String... args) throws Exception {
    return command("sessionctrl", args);
  }

  private Answer command(String command, String... args) throws Exception {
    String name = command + "-" + (++runs);
    List<String> a = new ArrayList<>(List.of(command, args[0]));
    a.add("--connect");
    a.add("unix:" + hub());
    a.add("--json");
    a.addAll(List.of(args).subList(1, args.length));
    Process p = fluxdrm(name, a.toArray(String[]::new));
    assertThat(p.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).as(name + " exits").isTrue();
    String out = Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8);
    String err = stderrOf(name);
    assertThat(out).as("%s stdout (stderr: %s)", name, err).isNotBlank();
    return new Answer(p.exitValue(), JSON.readTree(out), err);
  }

  /** The state letter of /proc/PID/stat, or "gone". */
  static String state(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.UTF_8);
      return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch (IOException e) {
      return "gone";
    }
  }

  /**
   * Whether {@code p} runs sleep (/bin is a link to /usr/bin on many systems: the kernel reports
   * the resolved path).
   */
  private boolean isSleep(ProcessHandle p) {
    return p.info().command().orElse("").endsWith("/sleep");
  }

  /** The DVM's procs of job {@code nspace}: its children whose environment names the job. */
  private List<ProcessHandle> procsOf(String nspace) {
    return dvm.children()
        .filter(
            c -> {
              try {
                byte[] env = Files.readAllBytes(Path.of("/proc/" + c.pid() + "/environ"));
                return new String(env, StandardCharsets.UTF_8)
                    .contains("\0PMIX_NAMESPACE=" + nspace + "\0");
              } catch (IOException e) {
                return false;
              }
            })
        .toList();
  }

  @Test
  void tryingItOut_instantiatePauseResumeSignalTerminate_realProcesses() throws Exception {
    Answer inst =
        sessionctrl("instantiate", "42", "--hosts", host, "--np", "2", "--", "/bin/sleep", "300");
    assertThat(inst.status()).as(inst.stderr()).isZero();
    assertThat(inst.json().get("status").asText()).isEqualTo("PMIX_SUCCESS");
    assertThat(inst.infoString(PmixKey.PMIX_SESSION_ID)).isEqualTo("42");
    assertThat(inst.infoString(PmixKey.PMIX_ALLOC_ID)).isEqualTo("42");
    String ns = inst.infoString(PmixKey.PMIX_NSPACE);
    // a successful return means the job is running (PRRTE §7.4.4.2.1 "Instantiation"): both
    // procs are started, each through its lifeline (setsid, then sh, then exec of the program,
    // D498), a chain still under way for a moment on a loaded machine, while which a proc's
    // /proc environ may read empty
    Wait.until(SLOW, () -> procsOf(ns).stream().filter(this::isSleep).count() == 2);
    List<ProcessHandle> procs = procsOf(ns);
    assertThat(procs).hasSize(2).allMatch(this::isSleep);

    assertThat(sessionctrl("pause", "42").status()).isZero();
    for (ProcessHandle p : procs) {
      Wait.until(SLOW, () -> state(p.pid()).equals("T"));
    }
    assertThat(sessionctrl("resume", "42").status()).isZero();
    for (ProcessHandle p : procs) {
      Wait.until(SLOW, () -> !state(p.pid()).equals("T"));
    }
    assertThat(sessionctrl("signal", "42", "15").status()).isZero();
    for (ProcessHandle p : procs) {
      p.onExit().get(SLOW.toSeconds(), TimeUnit.SECONDS);
    }
    // the app retired, so the session was reclaimed: terminate finds nothing (as C6's pause)
    Answer term = sessionctrl("terminate", "42");
    assertThat(term.json().get("status").asText()).isEqualTo("PMIX_ERR_NOT_FOUND");
    assertThat(term.status()).isEqualTo(1);
    assertThat(term.stderr())
        .contains("fluxdrm sessionctrl terminate: session 42: PMIX_ERR_NOT_FOUND")
        .doesNotContain("Exception");
    assertThat(dvm.children().filter(c -> c.info().command().orElse("").endsWith("/sleep")))
        .isEmpty();
  }

  @Test
  void badInput_unknownIdBadSignalBadTime_clearMessageNoStackTrace() throws Exception {
    Answer unknown = sessionctrl("pause", "9999");
    assertThat(unknown.status()).isEqualTo(1);
    assertThat(unknown.json().get("status").asText()).isEqualTo("PMIX_ERR_NOT_FOUND");
    Answer zero = sessionctrl("signal", "42", "0");
    assertThat(zero.json().get("status").asText()).isEqualTo("PMIX_ERR_BAD_PARAM");
    for (Answer a : List.of(unknown, zero)) {
      assertThat(a.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
    }
    String name = "bad-time";
    Process p =
        fluxdrm(
            name,
            "sessionctrl",
            "instantiate",
            "43",
            "--connect",
            "unix:" + hub(),
            "--hosts",
            host,
            "--time",
            "1::2");
    assertThat(p.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("a usage error (docs/cli.md, \"Exit status\")").isEqualTo(2);
    assertThat(stderrOf(name))
        .startsWith("fluxdrm sessionctrl instantiate: --time: pmix.alloc.time \"1::2\"")
        .doesNotContain("Exception");
  }

  /**
   * A scheduler in this JVM: forwarded session controls are carried out by calling down as the
   * scheduler (so the sessions are scheduler-instantiated), and COMPLETE notices are kept.
   */
  static final class Scheduler implements SchedulerUpcalls {
    final LinkedBlockingQueue<List<Info>> completes = new LinkedBlockingQueue<>();
    volatile HubDvmPort down;

    /** Allocation requests are not this scheduler's: refused. */
    @Override
    public CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      return SchedulerUpcalls.refusing(PmixStatus.PMIX_ERR_NOT_SUPPORTED)
          .allocate(requester, directive, infos);
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      if (directives.stream().anyMatch(i -> i.key().equals(PmixKey.PMIX_SESSION_COMPLETE))) {
        completes.add(directives);
        return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
      }
      List<Info> own =
          directives.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList();
      return down.sessionControl(sessionId, own);
    }
  }

  @Test
  void tryingItOut_schedulerAttached_completeCarriesExitStatuses() throws Exception {
    Reactor r = Reactor.start("it-sched");
    try {
      FluxHandle h =
          FluxHandle.connectWhenUp(r, "local://" + hub().resolve("local"), Duration.ofSeconds(30));
      Scheduler s = new Scheduler();
      SchedulerEndpoint ep = SchedulerEndpoint.start(h, s, SLOW).get(60, TimeUnit.SECONDS);
      s.down = ep.port();
      ep.attached().get(60, TimeUnit.SECONDS);

      Answer inst = sessionctrl("instantiate", "42", "--hosts", host, "--", "/bin/sleep", "300");
      assertThat(inst.status()).as(inst.stderr()).isZero();
      String ns = inst.infoString(PmixKey.PMIX_NSPACE);
      List<ProcessHandle> procs = procsOf(ns);
      assertThat(procs).hasSize(1);
      assertThat(sessionctrl("pause", "42").status()).isZero();
      Wait.until(SLOW, () -> state(procs.get(0).pid()).equals("T"));
      assertThat(sessionctrl("resume", "42").status()).isZero();
      assertThat(sessionctrl("signal", "42", "15").status()).isZero();

      List<Info> complete = s.completes.poll(60, TimeUnit.SECONDS);
      assertThat(complete).as("PMIX_SESSION_COMPLETE").isNotNull();
      // teardown first, then the notice: the proc is already gone (PRRTE §7.4.4.2.8 "Completion")
      assertThat(procs.get(0).isAlive()).isFalse();
      assertThat(complete).anySatisfy(i -> assertThat(i.key()).isEqualTo(PmixKey.PMIX_SESSION_ID));
      Info job =
          complete.stream()
              .filter(i -> i.key().equals(PmixKey.PMIX_JOB_INFO_ARRAY))
              .findFirst()
              .orElseThrow();
      assertThat(job.infosValue())
          .extracting(Info::key)
          .containsExactly(PmixKey.PMIX_NSPACE, PmixKey.PMIX_JOB_TERM_STATUS);
      assertThat(job.infosValue().get(0).stringValue()).isEqualTo(ns);
      assertThat(job.infosValue().get(1).value()).isEqualTo(143);

      // terminate of a second session: SIGTERM, reclaim, one more COMPLETE, exactly once
      Answer second = sessionctrl("instantiate", "43", "--hosts", host, "--", "/bin/sleep", "300");
      String ns2 = second.infoString(PmixKey.PMIX_NSPACE);
      assertThat(sessionctrl("terminate", "43").status()).isZero();
      List<Info> c2 = s.completes.poll(60, TimeUnit.SECONDS);
      assertThat(c2).isNotNull();
      assertThat(procsOf(ns2)).isEmpty();
      assertThat(s.completes.poll(1, TimeUnit.SECONDS)).as("exactly one COMPLETE each").isNull();
      h.close();
    } finally {
      r.close();
    }
  }

  @Test
  void alloc_reservationFollowsTheCommandThatMadeIt_goneOnceItExits_b20() throws Exception {
    Answer made = command("alloc", "new", "--hosts", "extra1:2", "--req-id", "r1");
    assertThat(made.status()).as(made.stderr()).isZero();
    String allocId = made.infoString(PmixKey.PMIX_ALLOC_ID);
    assertThat(made.infoString(PmixKey.PMIX_ALLOC_REQ_ID)).isEqualTo("r1");
    // an allocation reservation follows its requester (inheritance DEFAULT, PRRTE §7.4.4 Session
    // Control
    // "Separation", B20): the command has exited, so its nodes went back to the pool
    Answer release = command("alloc", "release", "--alloc-id", allocId);
    assertThat(release.status()).isEqualTo(1);
    assertThat(release.json().get("status").asText()).isEqualTo("PMIX_ERR_NOT_FOUND");
    assertThat(release.stderr()).contains("PMIX_ALLOC_ID " + allocId + " names nothing");
  }
}
