package io.fluxdrm.cli;

import io.fluxdrm.rpc.fixture.FluxPeer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The flux-core jobtap plugin {@code realloc.so} (flux-plugin/), for the flux-live ITs: the file
 * named by {@code -Dfluxdrm.flux.plugin} ({@code .ci/run} builds it first), or else built here with
 * {@code make} against the peer's flux-core, once per JVM.
 */
final class ReallocPlugin {
  private static Path built;

  private ReallocPlugin() {}

  /** The plugin's path; builds it when no path was given. */
  static synchronized Path path() throws IOException, InterruptedException {
    String given = System.getProperty("fluxdrm.flux.plugin", "");
    if (!given.isBlank()) {
      Path p = Path.of(given).toAbsolutePath();
      if (!Files.isRegularFile(p)) {
        throw new AssertionError("-Dfluxdrm.flux.plugin=" + given + ": no such file");
      }
      return p;
    }
    if (built == null) {
      Path src = Path.of(System.getProperty("user.dir")).toAbsolutePath();
      while (src != null && !Files.isDirectory(src.resolve("flux-plugin"))) {
        src = src.getParent();
      }
      if (src == null) {
        throw new AssertionError("flux-plugin/ not found above " + System.getProperty("user.dir"));
      }
      Path out = src.resolve("flux-plugin").resolve("target");
      Path log = Files.createDirectories(out).resolve("make.log");
      Process make =
          new ProcessBuilder(
                  List.of(
                      "make",
                      "-C",
                      src.resolve("flux-plugin").toString(),
                      "OUT=" + out,
                      "FLUX_PREFIX=" + FluxPeer.prefix()))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!make.waitFor(120, TimeUnit.SECONDS) || make.exitValue() != 0) {
        make.destroyForcibly();
        throw new AssertionError(
            "make of flux-plugin failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
      }
      built = out.resolve("realloc.so");
    }
    return built;
  }

  /** {@code flux jobtap load} of the plugin into the instance's job manager. */
  static void load(FluxPeer peer) throws IOException, InterruptedException {
    peer.ok("jobtap", "load", path().toString());
  }

  /** {@code flux jobtap remove realloc.so} (jobtap names a plugin by its file name). */
  static void remove(FluxPeer peer) throws IOException {
    peer.ok("jobtap", "remove", "realloc.so");
  }
}
