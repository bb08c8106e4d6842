package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binding's hand-written layouts, constants and keys ({@link Layouts#expected()}) are those of
 * the installed headers: a C program compiled now against {@code fluxdrm.pmix.prefix}'s headers
 * prints them, and every line must match (D432).
 */
class LayoutTest {

  @Test
  void everySizeOffsetConstantAndKeyMatchesTheInstalledHeaders(@TempDir Path dir) throws Exception {
    Peer.needHeaders();
    Path bin = Peer.compile("pmix-layout.c", dir, false);
    Map<String, String> printed = new LinkedHashMap<>();
    for (String line : Peer.run(List.of(bin.toString()), dir).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      int sp = line.indexOf(' ');
      assertThat(sp).as("line %s: name and value", line).isPositive();
      printed.put(line.substring(0, sp), line.substring(sp + 1));
    }
    Map<String, String> expected = Layouts.expected();
    assertThat(printed.keySet())
        .as("the program prints what the binding lays out")
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    for (Map.Entry<String, String> e : expected.entrySet()) {
      assertThat(printed.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void theLayoutsAreConsistentAmongThemselves() {
    // pmix_info_t embeds pmix_value_t; the module's slots are pointers
    assertThat(Layouts.INFO_VALUE + Layouts.VALUE.byteSize()).isEqualTo(Layouts.INFO.byteSize());
    assertThat(Layouts.SLOT_SESSION_CONTROL).isLessThan(Layouts.SERVER_MODULE_SLOTS);
    assertThat(Layouts.SLOT_ALLOCATE).isLessThan(Layouts.SLOT_SESSION_CONTROL);
  }
}
