package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.showcase.demo.ProcessWorld;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JUnit entry of {@link ChaosSoak} (issue 29 scope 6, D500): in the normal verify path with a
 * few kills ({@code -Dfluxdrm.chaos.kills}, {@value #CI_KILLS} by default), seeded from {@code
 * -Dfluxdrm.chaos.seed} ({@value #CI_SEED} by default, so the build is repeatable; {@code random}
 * for a new one: seed 3612832424903197799 lost a job at a scheduler restart, an open finding of
 * issue 29); the seed is the first line printed, so a failure is run again with {@code
 * -Dfluxdrm.chaos.seed=SEED}. The long run is {@code -Dfluxdrm.chaos.kills=200}
 * (docs/operations.md, "Chaos soak").
 */
@Timeout(7200)
class ChaosSoakIT {
  static final int CI_KILLS = 4;
  static final long CI_SEED = 1;

  @Test
  void chaosSoak_sigkillAtRandomPoints_nothingLost(@TempDir Path dir) {
    String s = System.getProperty("fluxdrm.chaos.seed", "").strip();
    long seed =
        s.isEmpty()
            ? CI_SEED
            : s.equals("random") ? ThreadLocalRandom.current().nextLong() : Long.parseLong(s);
    String k = System.getProperty("fluxdrm.chaos.kills", "");
    int kills = k.isBlank() ? CI_KILLS : Integer.parseInt(k.strip());
    System.out.println("chaos soak: seed " + seed + ", " + kills + " kill(s)");
    // -Dfluxdrm.chaos.dir=DIR keeps the processes' logs there (an empty directory) for a look
    String keep = System.getProperty("fluxdrm.chaos.dir", "");
    Path where = keep.isBlank() ? dir : Path.of(keep);
    ChaosSoak.Result r =
        new ChaosSoak(seed, kills, where, ProcessWorld.Launcher.thisJvm(Main.class.getName()))
            .run();
    System.out.println("chaos soak: " + r.summary());
    r.examples()
        .forEach((what, msg) -> System.out.println("chaos soak: " + what + ": e.g. " + msg));
    assertThat(r.problems()).as("what was lost or broken; %s", r.summary()).isEmpty();
    assertThat(r.kills()).as("kills made").isEqualTo(kills);
  }
}
