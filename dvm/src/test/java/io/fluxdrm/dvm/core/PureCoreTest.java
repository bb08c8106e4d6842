package io.fluxdrm.dvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core is pure (issue 13; ARCHITECTURE rule 2): no class of {@code io.fluxdrm.dvm.core} refers
 * to a clock, a thread, a lock, a socket, a file or the hub. Checked on the compiled classes'
 * constant pools, where every class and method a class uses is named.
 */
class PureCoreTest {
  static final List<String> FORBIDDEN =
      List.of(
          "java/lang/Thread",
          "java/util/concurrent",
          "java/time/Clock",
          "java/time/Instant",
          "java/time/LocalDateTime",
          "currentTimeMillis",
          "nanoTime",
          "java/net/",
          "java/nio/file",
          "java/io/File",
          "io/fluxdrm/rpc/net",
          "org/slf4j");

  @Test
  void noCoreClassUsesAClockAThreadASocketOrAFile() throws IOException, URISyntaxException {
    Path dir =
        Path.of(DvmCore.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve("io/fluxdrm/dvm/core");
    List<String> problems = new ArrayList<>();
    int classes = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        classes++;
        String pool = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        for (String bad : FORBIDDEN) {
          if (pool.contains(bad)) {
            problems.add(f.getFileName() + " refers to " + bad);
          }
        }
      }
    }
    assertThat(classes).isGreaterThan(15);
    assertThat(problems).isEmpty();
  }

  @Test
  void theCheckSeesAForbiddenReference() throws IOException, URISyntaxException {
    Path self =
        Path.of(PureCoreTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve("io/fluxdrm/dvm/core/PureCoreTest.class");
    String pool = new String(Files.readAllBytes(self), StandardCharsets.ISO_8859_1);
    assertThat(pool).contains("java/nio/file");
  }
}
