package io.fluxdrm.rpc.transcript;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A line diff in unified format (three lines of context), for golden comparisons. The edit script
 * and the hunks are java-diff-utils'; the output is what GNU {@code diff -u} writes without the
 * time stamps (a one-line range is written {@code N}, not {@code N,1}), so {@code patch} applies it
 * (decision D272).
 */
public final class UnifiedDiff {
  private static final int CONTEXT = 3;

  /** A hunk range of one line, which java-diff-utils writes {@code N,1} and diff -u {@code N}. */
  private static final Pattern ONE_LINE = Pattern.compile("(?<=[-+]\\d{1,10}),1(?= )");

  private UnifiedDiff() {}

  /** Returns the unified diff of two texts as lines, or "" when they are equal. */
  public static String diff(List<String> a, List<String> b, String nameA, String nameB) {
    if (a.equals(b)) {
      return "";
    }
    List<String> lines =
        UnifiedDiffUtils.generateUnifiedDiff(nameA, nameB, a, DiffUtils.diff(a, b), CONTEXT);
    StringBuilder sb = new StringBuilder();
    for (String line : lines) {
      if (line.startsWith("@@ ")) {
        line = ONE_LINE.matcher(line).replaceAll("");
      }
      sb.append(line).append('\n');
    }
    return sb.toString();
  }
}
