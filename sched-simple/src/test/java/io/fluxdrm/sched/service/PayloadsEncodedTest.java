package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The SUCCESS answer written from its parts (issue 32) is, byte for byte, what the answer's tree
 * serializes to: the golden transcripts and flux-core's job manager see no difference.
 */
class PayloadsEncodedTest {
  @ParameterizedTest(name = "id {0}, clears pending {1}, hosts {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          7                    | false | node[0-3]
          2147483648           | true  | node[0-3]
          15166603264          | false | fake[60-63]
          -1                   | true  | n[0-3]
          -9223372036854775808 | false | h\u00e9[0-3]
          """)
  void allocSuccessEncoded_isTheTreesSerialization(long id, boolean clears, String hosts) {
    ResourceSet r =
        ResourceSet.of(IdSet.range(0, 3), IdSet.range(0, 1), IdSet.empty(), Hostlist.parse(hosts));
    Decision.AllocSuccess d = new Decision.AllocSuccess(id, r, clears);
    byte[] tree = Json.encode(Payloads.allocSuccess(d));
    byte[] parts = Payloads.allocSuccessEncoded(d, Json.compact(r.toJson()));
    assertThat(new String(parts, StandardCharsets.UTF_8))
        .isEqualTo(new String(tree, StandardCharsets.UTF_8));
    assertThat(parts).isEqualTo(tree);
  }
}
