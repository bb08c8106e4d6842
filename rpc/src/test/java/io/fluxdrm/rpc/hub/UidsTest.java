package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UidsTest {
  /** A user database of the given name:uid entries (getpwnam takes the first of a name). */
  private static Uids.Database db(String entries) {
    List<Uids.Entry> all =
        entries.isBlank()
            ? List.of()
            : java.util.Arrays.stream(entries.split(","))
                .map(e -> new Uids.Entry(e.split(":")[0], Integer.parseInt(e.split(":")[1])))
                .toList();
    return new Uids.Database(
        uid ->
            all.stream()
                .filter(e -> Integer.toUnsignedLong(e.uid()) == uid)
                .findFirst()
                .map(Optional::of)
                .orElse(Optional.empty()),
        name ->
            all.stream()
                .filter(e -> e.name().equals(name))
                .findFirst()
                .map(e -> OptionalInt.of(e.uid()))
                .orElse(OptionalInt.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          name in the database                     | alice:1001                | alice      | 1001
          name not in the database                 | alice:1001                | mallory    | -1
          uid without an entry (JDK gave a number) | alice:1001                | 65534      | 65534
          digit name of another uid                | 51234:61234,x:51234       | 51234      | 61234
          digit name, its number has no entry      | 51234:61234               | 51234      | -1
          digit name equal to its uid              | 4242:4242                 | 4242       | 4242
          digit name equal to a uid, another named | 4242:7,4242:4242          | 4242       | -1
          uid with another name, nobody named N    | bob:700                   | 700        | -1
          number beyond u32                        | alice:1001                | 4294967296 | -1
          empty name                               | alice:1001                | ''         | -1
          """)
  void uidOf_principalName_resolvedOrRefused(
      String what, String entries, String principal, long expected) {
    OptionalInt uid = Uids.uidOf(principal, db(entries));
    if (expected < 0) {
      assertThat(uid).isEmpty();
    } else {
      assertThat(uid).hasValue((int) expected);
    }
  }
}
