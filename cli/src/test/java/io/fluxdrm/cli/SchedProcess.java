package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code fluxdrm sched ...} run by the real {@link Main} in a child JVM for the process-level ITs:
 * stdout and stderr go to files in the test's temporary directory; {@link #close()} kills the
 * process if a test left it running, so no child outlives its test.
 */
final class SchedProcess implements AutoCloseable {
  /** Generous bound for a JVM to start or stop on a loaded two-core machine. */
  static final Duration SLOW = Duration.ofSeconds(60);

  private final Process process;
  private final Path out;
  private final Path err;

  private SchedProcess(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /** Starts {@code fluxdrm sched ARGS}; {@code name} names its output files in {@code dir}. */
  static SchedProcess start(Path dir, String name, String... args) throws IOException {
    return start(dir, name, List.of(), args);
  }

  /** As {@link #start(Path, String, String...)} with JVM options such as {@code -Xmx256m}. */
  static SchedProcess start(Path dir, String name, List<String> jvmArgs, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(sigintRestored());
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.add("sched");
    cmd.addAll(List.of(args));
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    p.getOutputStream().close();
    return new SchedProcess(p, out, err);
  }

  /**
   * A prefix that gives the child the default SIGINT action when this JVM ignores SIGINT, or
   * nothing. A job started in the background by a non-interactive shell (`mvn verify &` in a
   * script) ignores SIGINT, an exec'd child inherits that, and the JVM then installs no handler for
   * it on purpose, as {@code nohup}-style runs expect: the interrupt test would test the parent's
   * shell, not {@code fluxdrm sched}. Perl is essential on Debian-like systems; where it is missing
   * the test fails with this reason instead of timing out.
   */
  private static List<String> sigintRestored() throws IOException {
    if (!sigintIgnoredHere()) {
      return List.of();
    }
    Path perl = Path.of("/usr/bin/perl");
    assertThat(Files.isExecutable(perl))
        .as("this test JVM ignores SIGINT (inherited); /usr/bin/perl is needed to restore it")
        .isTrue();
    return List.of(perl.toString(), "-e", "$SIG{INT}='DEFAULT'; exec {$ARGV[0]} @ARGV or die $!");
  }

  /** Whether bit SIGINT (2) is set in {@code SigIgn} of {@code /proc/self/status}. */
  static boolean sigintIgnoredHere() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
        return (mask & (1L << (2 - 1))) != 0;
      }
    }
    return false;
  }

  /** The process's stderr so far (its logs and errors). */
  String stderr() {
    try {
      return Files.readString(err, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + err, e);
    }
  }

  /** The process's stdout so far. */
  String stdout() {
    try {
      return Files.readString(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + out, e);
    }
  }

  /**
   * Waits until a line of stderr matches {@code regex} and returns the match's first group (or the
   * whole match); fails if the process exits first or nothing matches within {@link #SLOW}.
   */
  String awaitLog(String regex) throws InterruptedException {
    Pattern p = Pattern.compile(regex);
    long deadline = System.nanoTime() + SLOW.toNanos();
    while (true) {
      Matcher m = p.matcher(stderr());
      if (m.find()) {
        return m.groupCount() > 0 ? m.group(1) : m.group();
      }
      assertThat(process.isAlive())
          .as("process alive while waiting for /%s/; stderr:%n%s", regex, stderr())
          .isTrue();
      assertThat(System.nanoTime() - deadline)
          .as("/%s/ within %s; stderr:%n%s", regex, SLOW, stderr())
          .isNegative();
      Thread.sleep(20); // polling with a deadline
    }
  }

  /** Waits for the process to exit on its own and returns its exit status. */
  int awaitExit() throws InterruptedException {
    assertThat(process.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS))
        .as("exits within %s; stderr:%n%s", SLOW, stderr())
        .isTrue();
    return process.exitValue();
  }

  /** Sends SIGTERM and returns the exit status. */
  int terminate() throws InterruptedException {
    process.destroy();
    return awaitExit();
  }

  /** Sends SIGINT (as Ctrl-C does) with the system's {@code kill} and returns the exit status. */
  int interrupt() throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start();
    assertThat(kill.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -INT").isZero();
    return awaitExit();
  }

  /** The child's process id. */
  long pid() {
    return process.pid();
  }

  /** Kills the process with SIGKILL and waits for it; returns its exit status (137). */
  int kill() throws InterruptedException {
    process.destroyForcibly();
    assertThat(process.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS)).isTrue();
    return process.exitValue();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the process if it still runs and prints its stderr, so a failed test shows the log. */
  @Override
  public void close() {
    System.err.println("--- stderr of fluxdrm sched (" + err.getFileName() + ") ---");
    System.err.print(stderr());
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(SLOW.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
