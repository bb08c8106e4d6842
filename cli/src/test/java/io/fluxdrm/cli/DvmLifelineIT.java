package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.fixture.Wait;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29, finding 10: a DVM killed with SIGKILL orphaned its applications (a {@code /bin/sleep}
 * re-parented to init). {@code fluxdrm dvm} runs as a process, a session's app is launched through
 * it, the DVM is sent SIGKILL, and the app and the child it started must then disappear (decision
 * D498: each proc runs on a lifeline, a pipe only the DVM holds).
 */
class DvmLifelineIT {
  private static final Duration SLOW = Duration.ofSeconds(60);
  private static final Pattern PIDS =
      Pattern.compile("job (\\S+): launched 1 proc\\(s\\), pids \\[(\\d+)\\]");

  @TempDir Path dir;
  private Process dvm;
  private final List<Long> started = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    if (dvm != null && dvm.isAlive()) {
      dvm.destroyForcibly();
      dvm.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS);
    }
    // whatever a failed run left behind: only the processes this test saw started
    for (long pid : started) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private Process startDvm(String host) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of("dvm", "--hosts", host, "--slots", "2", "--listen", "unix:" + hub()));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve("dvm.out").toFile())
            .redirectError(dir.resolve("dvm.err").toFile())
            .start();
    p.getOutputStream().close();
    Wait.until(
        SLOW,
        () -> {
          assertThat(p.isAlive()).as("dvm alive; stderr: %s", read("dvm.err")).isTrue();
          return read("dvm.out").contains("listening on");
        });
    return p;
  }

  private Path hub() {
    return dir.resolve("hub");
  }

  private String read(String name) {
    try {
      Path p = dir.resolve(name);
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** A process's start time (field 22 of /proc/PID/stat), or empty once it is gone or a zombie. */
  static Optional<String> startTime(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.UTF_8);
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // f[0] is field 3, the state: a zombie has ended (its parent, init here, reaps it)
      return f[0].equals("Z") || f[0].equals("X") ? Optional.empty() : Optional.of(f[19]);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The children of {@code pid}, from /proc (none once it is gone). */
  private static List<Long> childrenOf(long pid) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      List<Long> out = new ArrayList<>();
      for (Path t : tasks.toList()) {
        String c = Files.readString(t.resolve("children"), StandardCharsets.UTF_8).strip();
        if (!c.isEmpty()) {
          for (String s : c.split(" ")) {
            out.add(Long.parseLong(s));
          }
        }
      }
      return out;
    } catch (IOException e) {
      return List.of();
    }
  }

  @Test
  void dvmKilledWithSigkill_itsApplicationAndTheAppsChildDisappear() throws Exception {
    String host = DvmCommand.shortHostname();
    dvm = startDvm(host);
    // the app is a shell that starts a sleep of its own and waits: both must go
    CliRun inst =
        CliRun.run(
            "",
            "sessionctrl",
            "instantiate",
            "42",
            "--hosts",
            host,
            "--connect",
            "unix:" + hub(),
            "--",
            "/bin/sh",
            "-c",
            "/bin/sleep 300 & wait");
    assertThat(inst.status()).as(inst.err()).isZero();
    Matcher m = PIDS.matcher("");
    Wait.until(SLOW, () -> m.reset(read("dvm.err")).find());
    long app = Long.parseLong(m.group(2));
    started.add(app);
    assertThat(ProcessHandle.of(app).flatMap(h -> h.parent()).map(ProcessHandle::pid))
        .as("the app is the DVM's child")
        .contains(dvm.pid());
    List<Long> kids = new ArrayList<>();
    Wait.until(
        SLOW,
        () -> {
          kids.clear();
          kids.addAll(childrenOf(app));
          return !kids.isEmpty();
        });
    started.addAll(kids);
    List<Long> watched = new ArrayList<>(kids);
    watched.add(app);
    List<String> starts = new ArrayList<>();
    for (long pid : watched) {
      starts.add(startTime(pid).orElseThrow(() -> new AssertionError(pid + " already gone")));
    }

    dvm.destroyForcibly(); // SIGKILL: no shutdown hook, no close
    assertThat(dvm.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(dvm.exitValue()).isEqualTo(128 + 9);

    for (int i = 0; i < watched.size(); i++) {
      long pid = watched.get(i);
      String start = starts.get(i);
      // gone: no process of that pid and start time (a new one may reuse the pid)
      Wait.until(SLOW, () -> !startTime(pid).equals(Optional.of(start)));
    }
  }
}
