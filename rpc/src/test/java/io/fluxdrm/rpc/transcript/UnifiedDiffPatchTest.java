package io.fluxdrm.rpc.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

/**
 * Whatever two texts are compared, the diff is one {@code patch} applies: applied hunk by hunk as
 * patch does, with every context and removed line checked against the old text, it gives the new.
 */
class UnifiedDiffPatchTest {
  private static final Pattern HUNK =
      Pattern.compile("@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");

  @Property(tries = 300)
  void diff_anyTwoTexts_patchTurnsOldIntoNew(
      @ForAll @Size(max = 30) List<@StringLength(max = 1) @Chars({'a', 'b', 'c'}) String> a,
      @ForAll @Size(max = 30) List<@StringLength(max = 1) @Chars({'a', 'b', 'c'}) String> b) {
    String diff = UnifiedDiff.diff(a, b, "old", "new");
    if (a.equals(b)) {
      assertThat(diff).isEmpty();
      return;
    }
    assertThat(apply(a, diff)).isEqualTo(b);
  }

  /** Applies a unified diff strictly: headers, hunk counts and every old line must agree. */
  private static List<String> apply(List<String> old, String diff) {
    List<String> lines = List.of(diff.split("\n", -1));
    assertThat(lines.get(0)).isEqualTo("--- old");
    assertThat(lines.get(1)).isEqualTo("+++ new");
    assertThat(lines.get(lines.size() - 1)).isEmpty();
    List<String> out = new ArrayList<>();
    int next = 0;
    int k = 2;
    while (k < lines.size() - 1) {
      Matcher m = HUNK.matcher(lines.get(k));
      assertThat(m.matches()).as("hunk header %s", lines.get(k)).isTrue();
      int oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
      int newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
      int oldStart = Integer.parseInt(m.group(1)) - (oldCount == 0 ? 0 : 1);
      assertThat(oldStart).isGreaterThanOrEqualTo(next);
      out.addAll(old.subList(next, oldStart));
      next = oldStart;
      int seenOld = 0;
      int seenNew = 0;
      for (k++; k < lines.size() - 1 && !lines.get(k).startsWith("@@"); k++) {
        String l = lines.get(k);
        char op = l.charAt(0);
        String text = l.substring(1);
        if (op != '+') {
          assertThat(old.get(next)).isEqualTo(text);
          next++;
          seenOld++;
        }
        if (op != '-') {
          out.add(text);
          seenNew++;
        }
      }
      assertThat(seenOld).isEqualTo(oldCount);
      assertThat(seenNew).isEqualTo(newCount);
    }
    out.addAll(old.subList(next, old.size()));
    return out;
  }
}
