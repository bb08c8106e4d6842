package io.fluxdrm.showcase.demo;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What {@code fluxdrm demo --prrte} prints around {@link PrrteStory} (D463): the header line {@code
 * PRRTE at PREFIX, fluxdrm as its PMIx scheduler}, the timeline (or one JSON object per step), the
 * progress line, the closing line, and each difference on stderr, as the reference demo does.
 */
public final class PrrteDemo {
  private PrrteDemo() {}

  /** The default of {@code --prrte-prefix}, as its help says it. */
  public static final String PRRTE_DEFAULT =
      "the system property "
          + PrrteStory.PRRTE_PREFIX_PROPERTY
          + ", else "
          + PrrteStory.DEFAULT_PRRTE_PREFIX;

  /** The default of {@code --pmix-prefix}, as its help says it. */
  public static final String PMIX_DEFAULT =
      "the system property "
          + PrrteStory.PMIX_PREFIX_PROPERTY
          + ", else "
          + PrrteStory.DEFAULT_PMIX_PREFIX;

  /**
   * The story's configuration from the command line's options.
   *
   * @param prrtePrefix {@code --prrte-prefix}, or {@code null} for {@link #PRRTE_DEFAULT}
   * @param pmixPrefix {@code --pmix-prefix}, or {@code null} for {@link #PMIX_DEFAULT}
   * @param sshAgent {@code --ssh-agent}, or {@code null}
   * @param stateDir {@code --state-dir}, or {@code null}
   * @param mainClass the command line's main class
   * @return the configuration
   */
  public static PrrteStory.Config config(
      Path prrtePrefix, Path pmixPrefix, Path sshAgent, Path stateDir, String mainClass) {
    return new PrrteStory.Config(
        prefix(prrtePrefix, PrrteStory.PRRTE_PREFIX_PROPERTY, PrrteStory.DEFAULT_PRRTE_PREFIX),
        prefix(pmixPrefix, PrrteStory.PMIX_PREFIX_PROPERTY, PrrteStory.DEFAULT_PMIX_PREFIX),
        Optional.ofNullable(sshAgent),
        stateDir,
        mainClass);
  }

  private static Path prefix(Path option, String property, String fallback) {
    if (option != null) {
      return option;
    }
    String p = System.getProperty(property, "");
    return Path.of(p.isBlank() ? fallback : p);
  }

  /**
   * Checks what the story needs ({@link PrrteStory#missing}), plays it and prints it.
   *
   * @param config what it needs
   * @param json one JSON object per step, without header and closing line
   * @param progress whether to show the progress line on {@code err}
   * @param out the timeline
   * @param err what is missing, the progress line, the differences and where the logs are
   * @return 0 when every step gave its expected answer, else 1
   */
  public static int play(
      PrrteStory.Config config, boolean json, boolean progress, PrintWriter out, PrintWriter err) {
    Optional<String> missing =
        PrrteStory.missing(Runtime.version().feature(), PrrteDemo.class.getClassLoader(), config);
    String head = null;
    if (missing.isEmpty()) {
      try {
        head = PrrteStory.shortHostname();
      } catch (IllegalStateException e) {
        missing = Optional.of("--prrte: " + e.getMessage());
      }
    }
    if (missing.isPresent()) {
      err.println("fluxdrm demo: " + missing.get());
      err.flush();
      return 1;
    }
    if (!json) {
      out.printf(
          "fluxdrm demo: PRRTE at %s, fluxdrm as its PMIx scheduler (pool %s, %d cores each)%n",
          config.prrtePrefix(), PrrteStory.pool(head).nodelist(), PrrteStory.SLOTS);
      out.flush();
    }
    Demo.Result result = PrrteStory.run(config, sink(json, progress, out, err));
    if (progress) {
      err.print("\r" + " ".repeat(48) + "\r");
      err.flush();
    }
    if (config.dir() != null) {
      err.println(
          "fluxdrm demo: --prrte writes no transcript and no picture; the processes' logs are in "
              + config.dir());
    }
    if (result.ok() && !json && !result.steps().isEmpty()) {
      Step last = result.steps().get(result.steps().size() - 1);
      out.printf(
          "fluxdrm demo: %d steps as the story expects in %d ms%n",
          result.steps().size(), last.elapsedMs());
    }
    out.flush();
    for (String d : result.differences()) {
      err.println("fluxdrm demo: " + d);
    }
    err.flush();
    return result.ok() ? 0 : 1;
  }

  private static Consumer<Step> sink(
      boolean json, boolean progress, PrintWriter out, PrintWriter err) {
    int[] done = {0};
    return s -> {
      out.println(json ? s.toJson().toString() : s.toLine());
      out.flush();
      if (progress) {
        done[0]++;
        err.printf(
            "\rfluxdrm demo: [%d/%d] %-14s%s",
            done[0], PrrteStory.STEPS.size(), s.name(), s.ok() ? "" : " (differs)");
        err.flush();
      }
    };
  }
}
