package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JUnit entry of {@link HubSoak}, tagged {@code soak}: the default build excludes the tag;
 * {@code mvn -B -Psoak -pl cli -am verify} runs only it, for {@code -Dsoak.seconds} (600).
 */
@Tag("soak")
class HubSoakIT {
  @Test
  void hubSoak_wellBehavedClientsServedUnderEveryAttack(@TempDir Path dir) throws Exception {
    long seconds = Long.parseLong(System.getProperty("fluxdrm.soak.seconds", "600"));
    HubSoak.Result r = new HubSoak(Duration.ofSeconds(seconds), dir).run();
    System.out.println("hub soak summary: " + r.json());
    assertThat(r.problems()).as("criteria that did not hold; summary %s", r.json()).isEmpty();
  }
}
