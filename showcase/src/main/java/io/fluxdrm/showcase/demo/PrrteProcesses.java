package io.fluxdrm.showcase.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The processes of {@link PrrteStory}: {@code fluxdrm} commands on this JVM's class path and
 * PRRTE's commands, each with PRRTE's and libpmix's directories on its paths, run in the story's
 * directory with their merged output in {@code DIR/NAME.log}; waits on their lines or their end,
 * each bounded; and the reaping at the end, also when the story failed: {@code pterm}, then SIGTERM
 * to the rest, the last started first, and SIGKILL to each process tree (PRRTE's daemons included)
 * that does not stop in time.
 */
final class PrrteProcesses {

  /** A process of the story, its merged output in {@code DIR/NAME.log}. */
  record Child(String name, Process process, Path log) {}

  private final Path dir;
  private final Path prrtePrefix;
  private final Path pmixPrefix;
  private final String mainClass;
  private final List<Child> children = new ArrayList<>();
  private final Set<ProcessHandle> daemons = ConcurrentHashMap.newKeySet();

  PrrteProcesses(Path dir, Path prrtePrefix, Path pmixPrefix, String mainClass) {
    this.dir = dir;
    this.prrtePrefix = prrtePrefix;
    this.pmixPrefix = pmixPrefix;
    this.mainClass = mainClass;
  }

  /** PRRTE's command {@code cmd}. */
  String bin(String cmd) {
    return prrtePrefix.resolve("bin").resolve(cmd).toString();
  }

  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Waits.Stopped("interrupted");
    }
  }

  /** {@code fluxdrm ARGS} on this JVM's class path, its log lines time-stamped. */
  Child spawnFluxdrm(String name, List<String> args) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED",
                "-D" + PrrteStory.PMIX_PREFIX_PROPERTY + "=" + pmixPrefix,
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
    cmd.addAll(args);
    return spawn(name, cmd);
  }

  private ProcessBuilder builder(List<String> cmd) {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Map<String, String> env = pb.environment();
    Path prrte = prrtePrefix;
    Path pmix = pmixPrefix;
    env.put(
        "PATH",
        prrte.resolve("bin") + ":" + pmix.resolve("bin") + ":" + env.getOrDefault("PATH", ""));
    String ld = env.getOrDefault("LD_LIBRARY_PATH", "");
    env.put(
        "LD_LIBRARY_PATH",
        pmix.resolve("lib") + ":" + prrte.resolve("lib") + (ld.isEmpty() ? "" : ":" + ld));
    env.put("PRTE_ALLOW_RUN_AS_ROOT", "1");
    env.put("PRTE_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    return pb;
  }

  Child spawn(String name, List<String> cmd) {
    Path log = dir.resolve(name + ".log");
    try {
      Process p = builder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      p.getOutputStream().close();
      Child c = new Child(name, p, log);
      synchronized (children) {
        children.add(c);
      }
      return c;
    } catch (IOException e) {
      throw new Waits.Stopped("cannot start " + name + ": " + e.getMessage());
    }
  }

  /** The first line of {@code c}'s output matching {@code regex}, waiting for it. */
  String await(Child c, String regex) {
    Pattern p = Pattern.compile(regex);
    long deadline = System.nanoTime() + PrrteStory.WAIT.toNanos();
    while (true) {
      String text = read(c.log());
      for (String l : text.split("\n", -1)) {
        if (p.matcher(l).find()) {
          return l;
        }
      }
      if (!c.process().isAlive()) {
        throw new Waits.Stopped(
            c.name()
                + " exited with status "
                + c.process().exitValue()
                + ": "
                + last(read(c.log())));
      }
      if (System.nanoTime() > deadline) {
        throw new Waits.Stopped(
            c.name()
                + ": no line matching \""
                + regex
                + "\" within "
                + PrrteStory.WAIT.toSeconds()
                + " s");
      }
      pause(20);
    }
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }

  static String last(String text) {
    String t = text.strip();
    int nl = t.lastIndexOf('\n');
    return nl < 0 ? t : t.substring(nl + 1);
  }

  /**
   * What a bounded command did.
   *
   * @param exit its exit status, -1 when it was killed at its limit
   * @param out its output, stderr merged
   */
  record Ran(int exit, String out) {}

  /**
   * Runs a short PRRTE command for at most {@link PrrteStory#WAIT}, killing it and its children
   * then.
   */
  Ran run(List<String> cmd) {
    Path out = dir.resolve("cmd.out");
    try {
      Process p = builder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      p.getOutputStream().close();
      boolean ended = p.waitFor(PrrteStory.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        killTree(p.toHandle());
      }
      String text = read(out);
      Files.deleteIfExists(out);
      return new Ran(ended ? p.exitValue() : -1, text);
    } catch (IOException e) {
      throw new Waits.Stopped("cannot run " + cmd.get(0) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Waits.Stopped("interrupted");
    }
  }

  /**
   * PRRTE's daemons are children of {@code prte} (through the ssh agent): remembered for reaping.
   */
  void rememberDaemons(Child prte) {
    if (prte != null) {
      prte.process().toHandle().descendants().forEach(daemons::add);
    }
  }

  /** The exit status of {@code c}, waited for up to {@code grace}; -1 when it is still running. */
  static int exitOf(Child c, Duration grace) {
    try {
      return c.process().waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)
          ? c.process().exitValue()
          : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Kills a process and everything it started, children first, waiting up to 10 s. */
  private static void killTree(ProcessHandle root) {
    List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
    all.add(root);
    all.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // reported by the caller's outcome; nothing more can be done here
      }
    }
  }

  /**
   * Stops every process still running: the DVM ({@code pterm}, then its process tree), then the
   * others with SIGTERM, the last started first (SIGKILL to the tree after {@link
   * PrrteStory#STOP_GRACE}), then any daemon of the DVM left.
   *
   * @param prte the DVM's process, or {@code null} when it was not started
   * @param uriFile where {@code prte --report-uri} writes
   */
  void reap(Child prte, Path uriFile) {
    if (prte != null && prte.process().isAlive()) {
      rememberDaemons(prte);
      if (Files.exists(uriFile)) {
        try {
          run(List.of(bin("pterm"), "--dvm-uri", "file:" + uriFile));
        } catch (RuntimeException e) {
          // killed below
        }
      }
      if (exitOf(prte, PrrteStory.STOP_GRACE) < 0) {
        killTree(prte.process().toHandle());
      }
    }
    List<Child> all;
    synchronized (children) {
      all = new ArrayList<>(children);
    }
    for (int i = all.size() - 1; i >= 0; i--) {
      Child c = all.get(i);
      if (c.process().isAlive()) {
        c.process().toHandle().destroy();
        if (exitOf(c, PrrteStory.STOP_GRACE) < 0) {
          killTree(c.process().toHandle());
        }
      }
    }
    for (ProcessHandle d : daemons) {
      if (d.isAlive()) {
        killTree(d);
      }
    }
  }
}
