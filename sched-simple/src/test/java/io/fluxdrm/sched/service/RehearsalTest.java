package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.sched.SchedulerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The rehearsal of {@code fluxdrm sched --rehearse} (D570): a whole private run, then nothing. */
class RehearsalTest {

  private static List<Path> rehearsalDirs() throws IOException {
    try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return s.filter(p -> p.getFileName().toString().startsWith("fluxdrm-rehearsal"))
          .collect(Collectors.toList());
    }
  }

  @Test
  void run_grantsAndFreesEveryJob_andLeavesNoThreadNorDirectory() throws Exception {
    List<Path> before = rehearsalDirs();
    Rehearsal.Result r = Rehearsal.run(SchedulerOptions.defaults(), 200, Duration.ofSeconds(60));
    assertThat(r.jobs()).isEqualTo(200);
    assertThat(r.elapsed()).isPositive();
    assertThat(rehearsalDirs()).as("its socket directory is removed").isEqualTo(before);
    assertThat(Thread.getAllStackTraces().keySet())
        .as("its reactor is closed")
        .noneMatch(t -> t.getName().equals("fluxdrm-sched-rehearsal") && t.isAlive());
  }

  @Test
  void run_aCountOutOfRange_isRefusedBeforeAnythingStarts() {
    assertThatThrownBy(() -> Rehearsal.run(SchedulerOptions.defaults(), 0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rehearsal: 0 jobs (expected: 1 to 100000)");
    assertThatThrownBy(
            () -> Rehearsal.run(SchedulerOptions.defaults(), 100_001, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
