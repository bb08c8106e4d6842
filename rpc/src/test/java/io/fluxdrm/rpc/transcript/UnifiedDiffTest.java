package io.fluxdrm.rpc.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnifiedDiffTest {
  private static List<String> lines(String s) {
    return s.isEmpty() ? List.of() : Arrays.asList(s.split(","));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          equal            | a,b,c           | a,b,c           | ''
          one changed      | a,b,c           | a,x,c           | @@ -1,3 +1,3 @@\\n a\\n-b\\n+x\\n c\\n
          appended         | a               | a,b             | @@ -1 +1,2 @@\\n a\\n+b\\n
          removed all      | a,b             | ''              | @@ -1,2 +0,0 @@\\n-a\\n-b\\n
          far apart        | 1,2,3,4,5,6,7,8,9,10,11,12 | 1,X,3,4,5,6,7,8,9,10,Y,12 | @@ -1,5 +1,5 @@\\n 1\\n-2\\n+X\\n 3\\n 4\\n 5\\n@@ -8,5 +8,5 @@\\n 8\\n 9\\n 10\\n-11\\n+Y\\n 12\\n
          close together   | 1,2,3,4,5,6,7,8,9 | 1,X,3,4,5,6,7,Y,9 | @@ -1,9 +1,9 @@\\n 1\\n-2\\n+X\\n 3\\n 4\\n 5\\n 6\\n 7\\n-8\\n+Y\\n 9\\n
          two hunks        | 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 | X,2,3,4,5,6,7,8,9,10,11,12,13,14,15,Y | @@ -1,4 +1,4 @@\\n-1\\n+X\\n 2\\n 3\\n 4\\n@@ -13,4 +13,4 @@\\n 13\\n 14\\n 15\\n-16\\n+Y\\n
          """)
  void diff_table_unifiedFormat(String name, String a, String b, String hunks) {
    String d = UnifiedDiff.diff(lines(a), lines(b), "a", "b");
    String expected = hunks.isEmpty() ? "" : "--- a\n+++ b\n" + hunks.replace("\\n", "\n");
    assertThat(d).isEqualTo(expected);
  }
}
