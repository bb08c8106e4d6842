package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.Info;
import java.util.List;
import java.util.Objects;

/**
 * A {@code pmix_app_t}: one application of a spawn.
 *
 * @param cmd the executable
 * @param argv its arguments (argv[0] first)
 * @param maxprocs how many processes, at least 1
 * @param infos the app-level infos
 */
public record App(String cmd, List<String> argv, int maxprocs, List<Info> infos) {
  /** Checks and copies. */
  public App {
    Objects.requireNonNull(cmd, "cmd");
    if (cmd.isEmpty()) {
      throw new IllegalArgumentException("cmd: empty (expected: an executable)");
    }
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    if (maxprocs < 1) {
      throw new IllegalArgumentException("maxprocs: " + maxprocs + " (expected: >= 1)");
    }
    infos = List.copyOf(Objects.requireNonNull(infos, "infos"));
  }
}
