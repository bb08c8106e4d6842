package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The ZeroMQ hub's liveness settings (D152, D173). */
class ZmqLivenessTest {
  @ParameterizedTest
  @CsvSource({
    "1000, 5000, true",
    "1, 1, true",
    "0, 0, false",
    "0, 7000, false",
  })
  void liveness_validDurations_accepted(long intervalMs, long timeoutMs, boolean enabled) {
    var l =
        new ZmqHubSettings.Liveness(Duration.ofMillis(intervalMs), Duration.ofMillis(timeoutMs));
    assertThat(l.enabled()).isEqualTo(enabled);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-1 | 1000 | liveness: negative duration (expected: zero or more)",
        "1000 | -1 | liveness: negative duration (expected: zero or more)",
        "2000 | 1000 | liveness: timeout 1000 ms is shorter than the interval 2000 ms"
            + " (expected: at least the interval)",
        "1000 | 6553600 | liveness: timeout above 6553.5 s (expected: a ZMTP heartbeat time to"
            + " live)",
      })
  void liveness_badDurations_rejectedWithReason(long intervalMs, long timeoutMs, String why) {
    assertThatThrownBy(
            () ->
                new ZmqHubSettings.Liveness(
                    Duration.ofMillis(intervalMs), Duration.ofMillis(timeoutMs)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(why);
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void options_factories_defaultLivenessAndWithLivenessReplacesIt(boolean curve) {
    var o =
        curve
            ? ZmqHubSettings.Options.curve(new ZmqHubSettings.Curve("p", "s", java.util.Map.of()))
            : ZmqHubSettings.Options.loopback(Credentials.user(1));
    assertThat(o.liveness()).isEqualTo(ZmqHubSettings.Liveness.DEFAULT);
    assertThat(o.withLiveness(ZmqHubSettings.Liveness.OFF).liveness())
        .isEqualTo(ZmqHubSettings.Liveness.OFF);
    assertThat(o.withLimits(10, 20).liveness()).isEqualTo(ZmqHubSettings.Liveness.DEFAULT);
  }
}
