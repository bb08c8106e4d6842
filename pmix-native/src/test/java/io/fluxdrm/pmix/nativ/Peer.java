package io.fluxdrm.pmix.nativ;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the tests need of the outside: libpmix's headers and library (system property {@code
 * fluxdrm.pmix.prefix}), gcc, PRRTE ({@code fluxdrm.prrte.prefix}), root and the fake ssh agent
 * ({@code fluxdrm.shared.tools}). A missing thing skips the test with an assumption naming it,
 * unless {@code fluxdrm.pmix.required=true} (CI, once the peer is built), where it fails the test.
 */
final class Peer {
  private Peer() {}

  /** This JVM's resident set, in kB ({@code VmRSS} of {@code /proc/self/status}). */
  static long rssKb() throws Exception {
    return rssKb("self");
  }

  /** A process's resident set, in kB ({@code VmRSS} of {@code /proc/PID/status}). */
  static long rssKb(String pid) throws Exception {
    for (String l : Files.readAllLines(Path.of("/proc", pid, "status"))) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException("no VmRSS");
  }

  static Path pmixPrefix() {
    return Libpmix.prefix();
  }

  static Path prrtePrefix() {
    String p = System.getProperty("fluxdrm.prrte.prefix", "");
    return Path.of(p.isBlank() ? "/opt/prrte" : p);
  }

  static boolean required() {
    return Boolean.getBoolean("fluxdrm.pmix.required");
  }

  /** Skips (or, when required, fails) with {@code why} unless {@code ok}. */
  static void need(boolean ok, String why) {
    if (ok) {
      return;
    }
    if (required()) {
      fail("fluxdrm.pmix.required is set, but " + why);
    }
    assumeTrue(false, "skipped: " + why);
  }

  static void needHeaders() {
    Path h = pmixPrefix().resolve("include").resolve("pmix.h");
    need(
        Files.isRegularFile(h),
        h + " is missing (build the peer: ../shared/tools/build-prrte-peer)");
    need(onPath("gcc"), "gcc is not on PATH (needed to compile the layout program)");
  }

  static void needLibrary() {
    String why = Libpmix.missing(pmixPrefix());
    need(why == null, why);
  }

  static boolean onPath(String cmd) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, cmd))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Compiles a C file of the test resources against libpmix.
   *
   * @param resource its name next to this class
   * @param dir where the binary goes
   * @param link whether to link libpmix
   * @return the binary
   */
  static Path compile(String resource, Path dir, boolean link) throws Exception {
    Path src = dir.resolve(resource);
    try (InputStream in = Peer.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("test resource " + resource + " is missing");
      }
      Files.copy(in, src);
    }
    Path bin = dir.resolve(resource.replace(".c", ""));
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(
            "gcc", "-o", bin.toString(), src.toString(), "-I" + pmixPrefix().resolve("include")));
    if (link) {
      cmd.addAll(
          List.of(
              "-L" + pmixPrefix().resolve("lib"),
              "-Wl,-rpath," + pmixPrefix().resolve("lib"),
              "-lpmix"));
    }
    String out = run(cmd, dir);
    if (!Files.isExecutable(bin)) {
      throw new IOException("gcc " + resource + " failed: " + out);
    }
    return bin;
  }

  /** Runs a short command and returns its standard output (errors merged in on failure). */
  static String run(List<String> cmd, Path dir) throws Exception {
    Ran r = runFor(new ProcessBuilder(cmd).directory(dir.toFile()), Duration.ofSeconds(120));
    if (r.timedOut()) {
      throw new IOException(cmd + ": did not end in 120 s");
    }
    if (r.exit() != 0) {
      throw new IOException(cmd + ": exit " + r.exit() + ": " + r.out());
    }
    return r.out();
  }

  /**
   * What a bounded command did.
   *
   * @param exit its exit status, -1 when it was killed at its limit
   * @param out its standard output and error, merged
   * @param timedOut whether it was killed at its limit
   */
  record Ran(int exit, String out, boolean timedOut) {}

  /**
   * Runs a command for at most {@code limit}: its output (stderr merged) goes to a file, so a child
   * that keeps the pipe open cannot block the reading; at the limit the command and everything it
   * started are killed. No PRRTE command a test runs may hang the build (stop 21's CI: a {@code
   * pterm} after a lost daemon).
   *
   * @param pb the command, its directory set
   * @param limit how long it may run
   * @return what it did
   */
  static Ran runFor(ProcessBuilder pb, Duration limit) throws IOException, InterruptedException {
    Path out = Files.createTempFile("fluxdrm-cmd", ".out");
    try {
      pb.redirectErrorStream(true).redirectOutput(out.toFile());
      Process p = pb.start();
      boolean ended = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        killTree(p.toHandle());
      }
      return new Ran(
          ended ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8), !ended);
    } finally {
      Files.deleteIfExists(out);
    }
  }

  /**
   * Kills a process and everything it started, children first, and waits up to 10 s for them.
   *
   * @param root the process
   */
  static void killTree(ProcessHandle root) {
    List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
    all.add(root);
    all.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("pid " + h.pid() + " did not end after SIGKILL: " + e);
      }
    }
  }

  /**
   * PRRTE, the fake ssh agent and root, after libpmix ({@link #needLibrary}): what a test that
   * starts {@code prte} over fake nodes needs.
   *
   * @param dir a directory to run {@code id -u} in
   * @return the fake ssh agent ({@code fluxdrm.shared.tools}/fakessh)
   */
  static Path needPrrte(Path dir) throws Exception {
    needLibrary();
    Path prte = prrtePrefix().resolve("bin/prte");
    need(
        Files.isExecutable(prte),
        prte + " is missing (build the peer: ../shared/tools/build-prrte-peer)");
    Path fakessh =
        Path.of(System.getProperty("fluxdrm.shared.tools", "../../shared/tools"))
            .resolve("fakessh");
    need(Files.isExecutable(fakessh), fakessh + " is missing (../shared/tools/fakessh)");
    need(
        "0".equals(run(List.of("id", "-u"), dir).strip()),
        "not root (fakessh puts each node in a UTS namespace of its own)");
    return fakessh;
  }

  /** The environment a process running PRRTE's or libpmix's commands needs, as root. */
  /**
   * {@code bin/fluxdrm ARGS} of the checkout at {@code root}, run in {@code dir} on this JDK with
   * the peer's libpmix, its JVM options the launcher's lean ones and {@code extraOpts}.
   */
  static ProcessBuilder fluxdrm(Path root, Path dir, String extraOpts, String... args) {
    List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/fluxdrm").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    prrteEnv(pb);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment()
        .put(
            "FLUXDRM_JAVA_OPTS",
            "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -D"
                + Libpmix.PREFIX_PROPERTY
                + "="
                + pmixPrefix()
                + (extraOpts.isEmpty() ? "" : " " + extraOpts));
    return pb;
  }

  /**
   * {@code prte} of the peer in elastic mode over {@code agent} (fakessh), with the hosts of {@code
   * hostfile}, reporting its URI to {@code uri}; with {@code scheduler}, PRRTE forwards its
   * allocation requests to a PMIx scheduler ({@code ras_pmix_system_scheduler 1}).
   */
  static ProcessBuilder prte(Path dir, Path agent, Path hostfile, Path uri, boolean scheduler) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                prrtePrefix().resolve("bin/prte").toString(),
                "--prtemca",
                "plm_ssh_agent",
                agent.toString()));
    if (scheduler) {
      cmd.addAll(List.of("--prtemca", "ras_pmix_system_scheduler", "1"));
    }
    cmd.addAll(
        List.of(
            "--prtemca",
            "prte_elastic_mode",
            "1",
            "--hostfile",
            hostfile.toString(),
            "--report-uri",
            uri.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    prrteEnv(pb);
    return pb;
  }

  static void prrteEnv(ProcessBuilder pb) {
    java.util.Map<String, String> env = pb.environment();
    Path prrte = prrtePrefix();
    env.put(
        "PATH",
        prrte.resolve("bin")
            + ":"
            + pmixPrefix().resolve("bin")
            + ":"
            + env.getOrDefault("PATH", ""));
    env.put("LD_LIBRARY_PATH", pmixPrefix().resolve("lib") + ":" + prrte.resolve("lib"));
    env.put("PRTE_ALLOW_RUN_AS_ROOT", "1");
    env.put("PRTE_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
  }

  /**
   * Echoes {@code prte}'s output on stderr (prefixed {@code prte: }) and waits until it prints
   * {@code DVM ready}.
   *
   * @param prte the started {@code prte}, its stderr redirected to its stdout
   * @param wait how long it may take
   */
  static void awaitDvmReady(Process prte, java.time.Duration wait) throws Exception {
    java.util.concurrent.CompletableFuture<Void> ready =
        new java.util.concurrent.CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try (java.io.BufferedReader out =
                  new java.io.BufferedReader(
                      new java.io.InputStreamReader(
                          prte.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                  System.err.println("prte: " + line);
                  if (line.contains("DVM ready")) {
                    ready.complete(null);
                  }
                }
              } catch (Exception e) {
                ready.completeExceptionally(e);
              }
              ready.completeExceptionally(new IllegalStateException("prte ended"));
            },
            "prte-output");
    t.setDaemon(true);
    t.start();
    ready.get(wait.toSeconds(), TimeUnit.SECONDS);
  }
}
