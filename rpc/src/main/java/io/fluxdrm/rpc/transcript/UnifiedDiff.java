package io.fluxdrm.rpc.transcript;

import java.util.ArrayList;
import java.util.List;

/** A line diff in unified format (three lines of context), for golden comparisons. */
public final class UnifiedDiff {
  private static final int CONTEXT = 3;
  private static final long MAX_CELLS = 16_000_000L;

  private UnifiedDiff() {}

  private record Edit(char op, String line, int a, int b) {}

  /** Returns the unified diff of two texts as lines, or "" when they are equal. */
  public static String diff(List<String> a, List<String> b, String nameA, String nameB) {
    List<Edit> edits = edits(a, b);
    if (edits.stream().allMatch(e -> e.op == ' ')) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append("--- ").append(nameA).append('\n');
    sb.append("+++ ").append(nameB).append('\n');
    int i = 0;
    while (i < edits.size()) {
      if (edits.get(i).op == ' ') {
        i++;
        continue;
      }
      int start = Math.max(0, i - CONTEXT);
      int end = i;
      int lastChange = i;
      while (end < edits.size()) {
        if (edits.get(end).op != ' ') {
          lastChange = end;
        } else if (end - lastChange > 2 * CONTEXT) {
          break;
        }
        end++;
      }
      end = Math.min(edits.size(), lastChange + CONTEXT + 1);
      int aStart = -1;
      int bStart = -1;
      int aCount = 0;
      int bCount = 0;
      for (int k = start; k < end; k++) {
        Edit e = edits.get(k);
        if (e.op != '+') {
          if (aStart < 0) {
            aStart = e.a;
          }
          aCount++;
        }
        if (e.op != '-') {
          if (bStart < 0) {
            bStart = e.b;
          }
          bCount++;
        }
      }
      sb.append("@@ -")
          .append(range(aStart < 0 ? edits.get(start).a : aStart, aCount))
          .append(" +")
          .append(range(bStart < 0 ? edits.get(start).b : bStart, bCount))
          .append(" @@\n");
      for (int k = start; k < end; k++) {
        Edit e = edits.get(k);
        sb.append(e.op).append(e.line).append('\n');
      }
      i = end;
    }
    return sb.toString();
  }

  private static String range(int start0, int count) {
    int start = count == 0 ? start0 : start0 + 1;
    return count == 1 ? String.valueOf(start) : start + "," + count;
  }

  private static List<Edit> edits(List<String> a, List<String> b) {
    int pre = 0;
    while (pre < a.size() && pre < b.size() && a.get(pre).equals(b.get(pre))) {
      pre++;
    }
    int suf = 0;
    while (suf < a.size() - pre
        && suf < b.size() - pre
        && a.get(a.size() - 1 - suf).equals(b.get(b.size() - 1 - suf))) {
      suf++;
    }
    List<Edit> out = new ArrayList<>();
    for (int i = 0; i < pre; i++) {
      out.add(new Edit(' ', a.get(i), i, i));
    }
    int n = a.size() - pre - suf;
    int m = b.size() - pre - suf;
    if ((long) n * m > MAX_CELLS) {
      for (int i = 0; i < n; i++) {
        out.add(new Edit('-', a.get(pre + i), pre + i, pre));
      }
      for (int j = 0; j < m; j++) {
        out.add(new Edit('+', b.get(pre + j), pre + n, pre + j));
      }
    } else {
      int[][] lcs = new int[n + 1][m + 1];
      for (int i = n - 1; i >= 0; i--) {
        for (int j = m - 1; j >= 0; j--) {
          lcs[i][j] =
              a.get(pre + i).equals(b.get(pre + j))
                  ? lcs[i + 1][j + 1] + 1
                  : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
        }
      }
      int i = 0;
      int j = 0;
      while (i < n || j < m) {
        if (i < n && j < m && a.get(pre + i).equals(b.get(pre + j))) {
          out.add(new Edit(' ', a.get(pre + i), pre + i, pre + j));
          i++;
          j++;
        } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
          out.add(new Edit('-', a.get(pre + i), pre + i, pre + j));
          i++;
        } else {
          out.add(new Edit('+', b.get(pre + j), pre + i, pre + j));
          j++;
        }
      }
    }
    for (int k = 0; k < suf; k++) {
      int ia = a.size() - suf + k;
      int ib = b.size() - suf + k;
      out.add(new Edit(' ', a.get(ia), ia, ib));
    }
    return out;
  }
}
