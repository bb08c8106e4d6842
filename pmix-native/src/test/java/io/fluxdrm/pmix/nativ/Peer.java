package io.fluxdrm.pmix.nativ;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(cmd + ": did not end in 120 s");
    }
    String s = new String(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException(cmd + ": exit " + p.exitValue() + ": " + s);
    }
    return s;
  }
}
