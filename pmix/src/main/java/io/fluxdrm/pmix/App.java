package io.fluxdrm.pmix;

import java.util.List;

/**
 * A {@code pmix_app_t} (data type {@link PmixDataType#PMIX_APP}): one application of a spawn, or
 * one element of the data array {@link PmixKey#PMIX_SESSION_APP} carries (PRRTE §7.4.4 Session
 * Control, "Instantiation").
 *
 * @param cmd the executable, not empty
 * @param argv its arguments (argv[0] first)
 * @param maxprocs how many processes, at least 1
 * @param infos the app-level infos
 */
public record App(String cmd, List<String> argv, int maxprocs, List<Info> infos) {
  /** Checks and copies; a bad field raises {@link PmixException} naming it. */
  public App {
    if (cmd == null) {
      throw new PmixException("app: cmd is missing (expected: an executable)");
    }
    if (cmd.isEmpty()) {
      throw new PmixException("app: cmd is empty (expected: an executable)");
    }
    if (argv == null) {
      throw new PmixException("app: argv is missing (expected: a list of strings)");
    }
    for (String a : argv) {
      if (a == null) {
        throw new PmixException("app: argv holds a null (expected: strings)");
      }
    }
    argv = List.copyOf(argv);
    if (maxprocs < 1) {
      throw new PmixException("app: maxprocs " + maxprocs + " (expected: >= 1)");
    }
    if (infos == null) {
      throw new PmixException("app: infos is missing (expected: a list of info entries)");
    }
    infos = List.copyOf(infos);
  }
}
