package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, finding 1: an {@link Error} escaping a reactor handler (as an OutOfMemoryError did)
 * ends the process with status 70 and one line on stderr, rather than leaving it up serving
 * nothing. Run in a child JVM whose main thread waits for ever.
 */
@Timeout(120)
class ReactorFatalIT {
  @Test
  void errorInHandler_processExits70WithOneLine() throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                HubChild.class.getName(),
                "fatal")
            .start();
    try (BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err =
            new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("ready");
      // the child's main thread never returns: only the fatal policy can end it
      boolean exited = p.waitFor(60, TimeUnit.SECONDS);
      assertThat(exited).as("the child exited after the reactor's fatal error").isTrue();
      assertThat(p.exitValue()).as("EX_SOFTWARE").isEqualTo(70);
      assertThat(err.lines().toList())
          .anySatisfy(
              l ->
                  assertThat(l)
                      .isEqualTo(
                          "fluxdrm: reactor hub-child stopped: AssertionError: injected fatal"
                              + " error"));
    } finally {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
