package io.fluxdrm.dvm.exec;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applications die with their DVM, however it dies (SIGKILL included): each proc is started through
 * {@code setsid /bin/sh -c SCRIPT}, which takes a new session and process group (the proc's pid is
 * its id), moves its standard input, a pipe whose only writer is the DVM, to a watcher, and {@code
 * exec}s the application in place (same pid, its exit status) with standard input from {@code
 * /dev/null}. The watcher (forked twice, so that it is no child of the application) blocks reading
 * the pipe: at end of file, which the kernel gives when the DVM's end closes (the DVM exited, was
 * killed, or closed the executor), it sends SIGKILL to the whole process group, the application and
 * whatever it started. The JDK closes that end itself once it has reaped the proc, so what a proc
 * leaves in its group dies with it, as a Flux job's cgroup is emptied at its end; the watcher, a
 * member of the group, keeps its id from being reused meanwhile. JDK 17 has no prctl
 * (PR_SET_PDEATHSIG), and a reaper or shutdown hook in the DVM dies with it on SIGKILL; a pipe's
 * end of file needs nothing of the DVM but its death (decision D498).
 *
 * <p>Only {@code /bin/sh} and util-linux's {@code setsid} are used. Without {@code setsid} there is
 * no lifeline (a watcher could only kill a pid, which may be reused once the proc is reaped): procs
 * are started as before, and a warning says once that they outlive a DVM killed with SIGKILL.
 *
 * <p>The executable is resolved here, as {@link ProcessBuilder} would ({@code PATH} of this
 * process), so that a missing or non-executable program is still a launch failure, not a proc that
 * exits 127.
 */
final class Lifeline {
  private static final Logger LOG = LoggerFactory.getLogger(Lifeline.class);

  /** {@code $0} of the wrapper, shown by {@code ps} for the watcher. */
  static final String NAME = "fluxdrm-lifeline";

  /**
   * The wrapper: the pipe to fd 3, /dev/null to fd 0; the watcher, forked twice, reads fd 3 to its
   * end and kills the group {@code -$$} (this shell's pid, which the application keeps); the
   * application is exec'd with fd 3 closed.
   */
  static final String SCRIPT =
      "exec 3<&0 0</dev/null\n"
          + "( ( while read -r _ <&3; do :; done; kill -s KILL -- -$$ ) >/dev/null 2>&1 & )\n"
          + "exec \"$@\" 3<&-\n";

  private static final String SH = "/bin/sh";

  private final Optional<String> setsid;

  private Lifeline(Optional<String> setsid) {
    this.setsid = setsid;
  }

  /** The lifeline of this machine: with {@code setsid} and {@code /bin/sh}, else none (warned). */
  static Lifeline here() {
    Optional<String> s = onPath("setsid");
    if (s.isEmpty() || !Files.isExecutable(Path.of(SH))) {
      LOG.warn(
          "{} not found: applications are started without a lifeline, and outlive a DVM killed"
              + " with SIGKILL (expected: util-linux's setsid on PATH)",
          s.isEmpty() ? "setsid" : SH);
      return new Lifeline(Optional.empty());
    }
    return new Lifeline(s);
  }

  /** Whether procs are started on a lifeline. */
  boolean active() {
    return setsid.isPresent();
  }

  /**
   * The process that runs {@code argv}, on a lifeline if there is one; its pid and exit status are
   * the application's.
   *
   * @throws IOException when {@code argv[0]} names no executable file
   */
  ProcessBuilder builder(List<String> argv) throws IOException {
    if (setsid.isEmpty()) {
      return new ProcessBuilder(argv)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(setsid.get());
    cmd.add(SH);
    cmd.add("-c");
    cmd.add(SCRIPT);
    cmd.add(NAME);
    cmd.add(executable(argv.get(0)));
    cmd.addAll(argv.subList(1, argv.size()));
    // standard input is the lifeline's pipe, its only writer this process
    return new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.PIPE);
  }

  /** Closes the DVM's end of a proc's lifeline: the watcher kills the proc's process group. */
  static void cut(Process p) {
    try {
      p.getOutputStream().close();
    } catch (IOException e) {
      // closed already: the watcher has its end of file
    }
  }

  /** The file {@code name} runs: itself when it has a slash, else the first match on PATH. */
  static String executable(String name) throws IOException {
    if (name.isEmpty()) {
      throw new IOException("cannot run \"\": an empty program name");
    }
    if (name.contains("/")) {
      Path p = Path.of(name);
      if (!Files.exists(p)) {
        throw new IOException("cannot run \"" + name + "\": no such file");
      }
      if (Files.isDirectory(p) || !Files.isExecutable(p)) {
        throw new IOException("cannot run \"" + name + "\": not an executable file");
      }
      return name;
    }
    return onPath(name)
        .orElseThrow(
            () ->
                new IOException("cannot run \"" + name + "\": no executable of that name on PATH"));
  }

  private static Optional<String> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null || path.isEmpty()) {
      path = "/usr/local/bin:/usr/bin:/bin";
    }
    for (String dir : path.split(File.pathSeparator, -1)) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p.toString());
      }
    }
    return Optional.empty();
  }
}
