package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.curve.CurveCertTest;
import io.fluxdrm.rpc.curve.Z85;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The clients file of {@code fluxdrm sched --curve-clients}: schema, key checks, credentials. */
class CurveClientsTest {
  static final String K1 = CurveCertTest.PUB;
  static final String K2 = Z85.encode(CurveCertTest.OTHER.publicKey());

  private static String expand(String s) {
    return s.replace("K1", K1).replace("K2", K2).replace('`', '"');
  }

  @Test
  void parse_ownerAndUser_credentialsAndNamesInOrder() {
    CurveClients c =
        CurveClients.parse(
            "clients.json",
            expand(
                """
                {"clients": [
                  {"key": "K1", "userid": 1000, "role": "owner", "name": "bridge@node0"},
                  {"key": "K2", "userid": 1234, "role": "user"}
                ]}
                """));
    assertThat(c.credentials())
        .containsExactly(
            Map.entry(K1, new Credentials(1000, Flags.ROLE_OWNER)),
            Map.entry(K2, new Credentials(1234, Flags.ROLE_USER)));
    assertThat(c.names()).containsExactly(Map.entry(K1, "bridge@node0"), Map.entry(K2, K2));
    assertThat(c.credentials().get(K1).isOwner()).isTrue();
    assertThat(c.credentials().get(K2).mayActFor(1000)).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not json          | {`clients`: [}                                                   | clients.json:1:14: not JSON (Unexpected close marker '}': expected ']')
          trailing garbage  | {`clients`: []} x                                                | clients.json:1:17: not JSON (Unrecognized token 'x': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false'))
          duplicate member  | {`clients`: [], `clients`: []}                                   | clients.json:1:26: not JSON (Duplicate field 'clients')
          empty             | ''                                                               | clients.json: empty (expected: {`clients`: [...]})
          not an object     | []                                                               | clients.json: /: an array (expected: an object)
          no clients        | {}                                                               | clients.json: /clients: missing (expected: present)
          empty list        | {`clients`: []}                                                  | clients.json: /clients: 0 items (expected: at least 1)
          no key            | {`clients`: [{`userid`: 1, `role`: `owner`}]}                    | clients.json: /clients/0/key: missing (expected: present)
          short key         | {`clients`: [{`key`: `abc`, `userid`: 1, `role`: `owner`}]}      | clients.json: /clients/0/key: "abc" (expected: a valid z85-key)
          key over 32 bits  | {`clients`: [{`key`: `#####56789012345678901234567890123456789`, `userid`: 1, `role`: `owner`}]} | clients.json: /clients/0/key: characters 0-4 "#####" exceed 32 bits
          same key twice    | {`clients`: [{`key`: `K1`, `userid`: 1, `role`: `owner`}, {`key`: `K2`, `userid`: 2, `role`: `user`}, {`key`: `K1`, `userid`: 3, `role`: `user`}]} | clients.json: /clients/2/key: the key of /clients/0 again (expected: each key once)
          bad role          | {`clients`: [{`key`: `K1`, `userid`: 1, `role`: `admin`}]}       | clients.json: /clients/0/role: "admin" (expected: one of ["owner","user"])
          negative uid      | {`clients`: [{`key`: `K1`, `userid`: -1, `role`: `user`}]}       | clients.json: /clients/0/userid: -1 (expected: >= 0)
          uid as text       | {`clients`: [{`key`: `K1`, `userid`: `1000`, `role`: `user`}]}   | clients.json: /clients/0/userid: a string (expected: an integer)
          unknown member    | {`clients`: [{`key`: `K1`, `userid`: 1, `role`: `user`, `uid`: 1}]} | clients.json: /clients/0/uid: unknown key (expected: not present)
          two faults        | {`clients`: [{`key`: `K1`, `userid`: -1, `role`: `x`}]}          | clients.json: /clients/0/role: "x" (expected: one of ["owner","user"]) (and 1 more)
          """)
  void parse_malformed_oneLocatedLine(String name, String text, String message) {
    assertThatThrownBy(() -> CurveClients.parse("clients.json", expand(text)))
        .isInstanceOf(CliError.class)
        .hasMessage(expand(message));
  }

  @Test
  void read_missingFile_saysSo(@TempDir Path dir) {
    Path f = dir.resolve("clients.json");
    assertThatThrownBy(() -> CurveClients.read(f))
        .hasMessage(f + ": no such file (expected: a CURVE clients file)");
  }

  @Test
  void read_file_namesTheFileInErrors(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("c.json"), "{\"clients\": [{}]}");
    assertThatThrownBy(() -> CurveClients.read(f))
        .hasMessage(f + ": /clients/0/key: missing (expected: present) (and 2 more)");
  }
}
