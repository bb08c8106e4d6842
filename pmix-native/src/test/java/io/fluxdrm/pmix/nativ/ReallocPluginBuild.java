package io.fluxdrm.pmix.nativ;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * flux-core's realloc jobtap plugin (flux-plugin/) for the ITs here: the file named by {@code
 * -Dfluxdrm.flux.plugin} ({@code .ci/run} builds it), or else built with {@code make} against the
 * flux-core at {@code prefix}.
 */
final class ReallocPluginBuild {
  private ReallocPluginBuild() {}

  static Path path(Path prefix, Path dir) throws Exception {
    String given = System.getProperty("fluxdrm.flux.plugin", "");
    if (!given.isBlank()) {
      Path p = Path.of(given).toAbsolutePath();
      Peer.need(Files.isRegularFile(p), "-Dfluxdrm.flux.plugin=" + given + ": no such file");
      return p;
    }
    Path root = Path.of(System.getProperty("fluxdrm.root", "..")).toAbsolutePath().normalize();
    Path src = root.resolve("flux-plugin");
    Peer.need(Files.isDirectory(src), src + " is missing");
    Path out = Files.createDirectories(dir.resolve("plugin"));
    Peer.run(
        List.of("make", "-s", "-C", src.toString(), "OUT=" + out, "FLUX_PREFIX=" + prefix), dir);
    return out.resolve("realloc.so");
  }
}
