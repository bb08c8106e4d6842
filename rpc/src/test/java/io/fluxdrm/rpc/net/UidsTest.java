package io.fluxdrm.rpc.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UidsTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          numeric name          | 65534      | 65534
          name in passwd        | alice      | 1001
          name not in passwd    | mallory    | -1
          number beyond u32     | 4294967296 | -1
          bad uid field         | broken     | -1
          """)
  void uidOf_principalName_resolvedOrEmpty(String name, String principal, long expected)
      throws Exception {
    Path passwd = tmp.resolve("passwd");
    Files.writeString(
        passwd,
        "root:x:0:0:root:/root:/bin/sh\nalice:x:1001:1001::/home/alice:/bin/sh\nbroken:x:zz:1::/:/bin/sh\n");
    OptionalInt uid = Uids.uidOf(principal, passwd);
    if (expected < 0) {
      assertThat(uid).isEmpty();
    } else {
      assertThat(uid).hasValue((int) expected);
    }
  }
}
