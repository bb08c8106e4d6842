package io.fluxdrm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class ClassFilesTest {
  /**
   * Holds two key strings, a long and a double (two constant-pool entries each), and a look-alike.
   */
  static final class Holder {
    static long big(long x) {
      return x + (1L << 40);
    }

    static double half(double x) {
      return x * 0.123456789;
    }

    static String keys() {
      return "pmix.ssn.inst" + "|" + "pmix.spawn.alloc";
    }

    static String notAKey() {
      return "the pmix.alloc.id of a grant";
    }
  }

  private static InputStream classFile(Class<?> c) {
    String n = c.getName();
    return c.getResourceAsStream(n.substring(n.lastIndexOf('.') + 1) + ".class");
  }

  @Test
  void theKeysOfAClassFile() throws IOException {
    try (InputStream in = classFile(Holder.class)) {
      assertThat(ClassFiles.pmixKeys(in)).containsExactly("pmix.ssn.inst|pmix.spawn.alloc");
    }
    try (InputStream in = classFile(Holder.class)) {
      assertThat(ClassFiles.utf8Constants(in))
          .contains("the pmix.alloc.id of a grant", "notAKey", "half", "big");
    }
  }

  @Test
  void aClassWithoutAKey() throws IOException {
    try (InputStream in = classFile(StepTable.class)) {
      assertThat(ClassFiles.pmixKeys(in)).isEmpty();
    }
  }

  @Test
  void notAClassFile() {
    assertThatThrownBy(() -> ClassFiles.utf8Constants(new ByteArrayInputStream(new byte[8])))
        .isInstanceOf(IOException.class)
        .hasMessage("not a class file");
  }
}
