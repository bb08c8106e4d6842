package io.fluxdrm.rpc.curve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The certificate reader and writer: ZPL subset, key checks, permissions. */
public class CurveCertTest {
  /** A fixed key pair: the secret key is bytes 1..32. */
  public static final CurveKeyPair PAIR = CurveKeyPair.fromSecret(bytes(1));

  /** Another pair, whose public key is not {@link #PAIR}'s. */
  public static final CurveKeyPair OTHER = CurveKeyPair.fromSecret(bytes(101));

  public static final String PUB = Z85.encode(PAIR.publicKey());
  static final String SEC = Z85.encode(PAIR.secretKey());

  private static byte[] bytes(int first) {
    byte[] b = new byte[32];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (first + i);
    }
    return b;
  }

  /** A secret certificate as CZMQ and flux keygen lay it out; the keys sit on lines 11 and 12. */
  static final String GOOD =
      """
      #   ****  Generated on 2026-11-29 10:00:00 by CZMQ  ****
      #   ZeroMQ CURVE **Secret** Certificate
      #   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.

      metadata
          name = "cluster"
          keygen.hostname = "node0"
          keygen.time = "2026-11-29T10:00:00"
          keygen.userid = "1000"
      curve
          public-key = "PUB"
          secret-key = "SEC"
      """;

  private static String good() {
    return GOOD.replace("PUB", PUB).replace("SEC", SEC);
  }

  @Test
  void parse_fluxKeygenLayout_keysAndMetadataInOrder() {
    CurveCert c = CurveCert.parse("curve.cert", good());
    assertThat(c.publicKey()).isEqualTo(PUB);
    assertThat(c.secretKey()).isEqualTo(SEC);
    assertThat(c.isSecret()).isTrue();
    assertThat(c.metadata())
        .containsExactly(
            Map.entry("name", "cluster"),
            Map.entry("keygen.hostname", "node0"),
            Map.entry("keygen.time", "2026-11-29T10:00:00"),
            Map.entry("keygen.userid", "1000"));
    assertThat(c.toString()).doesNotContain(SEC);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          public certificate  | curve\\n    public-key = "PUB"\\n
          single quotes       | curve\\n    public-key = 'PUB'\\n    secret-key = 'SEC'\\n
          bare values         | metadata\\n    name = node0\\n    keygen.userid = 1000 # bare\\ncurve\\n    public-key = "PUB"\\n
          comments after      | curve # keys\\n    public-key = "PUB" # mine\\n    secret-key = "SEC"\\n
          indented comments   | curve\\n        # deeper comment\\n\\t# tab comment\\n    public-key = "PUB"\\n
          crlf line ends      | curve\\r\\n    public-key = "PUB"\\r\\n    secret-key = "SEC"\\r\\n
          cr line ends        | curve\\r    public-key = "PUB"\\r    secret-key = "SEC"
          blank lines         | \\n\\nmetadata\\n\\ncurve\\n\\n    public-key = "PUB"\\n   \\n
          tab around equals   | curve\\n    public-key\\t=\\t"PUB"\\n
          curve first         | curve\\n    public-key = "PUB"\\nmetadata\\n    name = "x"\\n
          """)
  void parse_zplVariants_accepted(String name, String text) {
    CurveCert c = CurveCert.parse("curve.cert", expand(text));
    assertThat(c.publicKey()).isEqualTo(PUB);
    assertThat(c.secretKey()).isIn(SEC, null);
  }

  private static String expand(String text) {
    return text.replace("\\n", "\n")
        .replace("\\r", "\r")
        .replace("\\t", "\t")
        .replace("PUB", PUB)
        .replace("SEC", SEC)
        .replace("OTH", Z85.encode(OTHER.publicKey()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          duplicate name    | curve\\n    public-key = "0123456789012345678901234567890123456789"\\n    public-key = "x"\\n | curve.cert:3: "public-key" again (expected: each name once; first at line 2)
          39 characters     | curve\\n    public-key = "012345678901234567890123456789012345678"\\n | curve.cert:2: public-key: 39 characters (expected: 40 Z85 characters)
          41 characters     | curve\\n    secret-key = "01234567890123456789012345678901234567890"\\n    public-key = "PUB"\\n | curve.cert:2: secret-key: 41 characters (expected: 40 Z85 characters)
          not z85           | curve\\n    public-key = "012~456789012345678901234567890123456789"\\n | curve.cert:2: public-key: character 3 is '~' (expected: one of the 85 Z85 characters)
          over 32 bits      | curve\\n    public-key = "#####56789012345678901234567890123456789"\\n | curve.cert:2: public-key: characters 0-4 "#####" exceed 32 bits
          wrong pair        | curve\\n    public-key = "OTH"\\n    secret-key = "SEC"\\n | curve.cert:2: public-key: not the public key of the secret-key on line 3 (expected: the pair as generated)
          no curve          | metadata\\n    name = "x"\\n | curve.cert: no curve section (expected: curve with public-key)
          empty file        | '' | curve.cert: no curve section (expected: curve with public-key)
          no public key     | metadata\\ncurve\\n    secret-key = "SEC"\\n | curve.cert:2: curve: no public-key (expected: public-key = "40 Z85 characters")
          unknown key       | curve\\n    public-key = "PUB"\\n    private-key = "SEC"\\n | curve.cert:3: curve: "private-key": unknown key (expected: public-key or secret-key)
          unknown section   | certificate\\n    public-key = "PUB"\\n | curve.cert:1: "certificate": unknown section (expected: metadata or curve)
          section value     | curve = "yes"\\n    public-key = "PUB"\\n | curve.cert:1: curve: has a value (expected: a section, its entries indented below)
          entry no value    | metadata\\n    name\\ncurve\\n    public-key = "PUB"\\n | curve.cert:2: metadata: "name" has no value (expected: name = "value")
          nested entry      | curve\\n    public-key = "PUB"\\n        comment = "x"\\n | curve.cert:3: curve: "comment" is indented under "public-key" (expected: one level of entries)
          tab indent        | curve\\n\\tpublic-key = "PUB"\\n | curve.cert:2: tab in the indentation (expected: 4 spaces per level)
          two spaces        | curve\\n  public-key = "PUB"\\n | curve.cert:2: indented by 2 spaces (expected: a multiple of 4, one level each)
          too deep          | curve\\n        public-key = "PUB"\\n | curve.cert:2: indented 2 levels under "curve" (expected: at most 1)
          deep at start     | # keys\\n    public-key = "PUB"\\n | curve.cert:2: indented before any section (expected: the first entry at the left margin)
          open quote        | curve\\n    public-key = "PUB\\n | curve.cert:2: public-key: value has no closing " (expected: "value")
          text after value  | curve\\n    public-key = "PUB" x\\n | curve.cert:2: public-key: "x" after the value (expected: nothing, or a # comment)
          no value          | curve\\n    public-key =\\n | curve.cert:2: public-key: no value after '=' (expected: name = "value")
          bad name          | curve\\n    public key = "PUB"\\n | curve.cert:2: public: 'k' after the name (expected: letters, digits and $-_@.&+/, then " = value")
          bad first char    | curve\\n    [public-key] = "PUB"\\n | curve.cert:2: '[' starts a name (expected: letters, digits and $-_@.&+/)
          non ascii         | metadata\\n    name = "nœud"\\n | curve.cert:2: character 14 is U+0153 (expected: printable ASCII, as ZPL is)
          """)
  void parse_malformed_locatedError(String name, String text, String message) {
    assertThatThrownBy(() -> CurveCert.parse("curve.cert", expand(text)))
        .isInstanceOf(CurveFileException.class)
        .hasMessage(message);
  }

  @Test
  void withSecretText_generated_parsesBackToTheSameKeys() throws NoSuchAlgorithmException {
    long seed = new Random().nextLong();
    System.out.println("CurveCertTest seed " + seed);
    SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
    random.setSeed(seed);
    for (int i = 0; i < 20; i++) {
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put("name", "host" + i);
      meta.put("keygen.time", "2026-11-29T10:00:0" + (i % 10));
      CurveKeyPair k = CurveKeyPair.generate(random);
      String pub = Z85.encode(k.publicKey());
      String sec = Z85.encode(k.secretKey());
      int round = i;
      CurveCert.withSecretText(
          k,
          meta,
          (p, text) -> {
            CurveCert back =
                CurveCert.parse("c" + round, new String(text, StandardCharsets.US_ASCII));
            assertThat(p).isEqualTo(pub);
            assertThat(back)
                .as("seed %d round %d", seed, round)
                .isEqualTo(new CurveCert(pub, sec, meta));
            assertThat(back.secretText()).isEqualTo(new String(text, StandardCharsets.US_ASCII));
          });
    }
  }

  /** Issue 12, finding 13 (D331): what keygen held of the secret key is zeros once written. */
  @Test
  void withSecretText_afterUseOrFailure_textAndKeyPairWiped() {
    for (boolean fail : new boolean[] {false, true}) {
      CurveKeyPair k = CurveKeyPair.fromSecret(bytes(1));
      byte[][] seen = new byte[1][];
      Runnable call =
          () ->
              CurveCert.withSecretText(
                  k,
                  Map.of("name", "n"),
                  (p, text) -> {
                    seen[0] = text;
                    assertThat(new String(text, StandardCharsets.US_ASCII))
                        .contains("secret-key = \"" + SEC + "\"");
                    if (fail) {
                      throw new CurveFileException("disk full");
                    }
                  });
      if (fail) {
        assertThatThrownBy(call::run)
            .isInstanceOf(CurveFileException.class)
            .hasMessage("disk full");
      } else {
        call.run();
      }
      assertThat(seen[0]).as("fail=%s", fail).hasSizeGreaterThan(100).containsOnly(0);
      assertThat(k.isDestroyed()).as("fail=%s", fail).isTrue();
      assertThatThrownBy(k::secretKey).isInstanceOf(IllegalStateException.class);
      assertThat(k.publicKey()).isEqualTo(PAIR.publicKey());
    }
  }

  @Test
  void readSecret_privateFile_read(@TempDir Path dir) throws Exception {
    Path f = write(dir.resolve("curve.cert"), good(), "rw-------");
    assertThat(CurveCert.readSecret(f).publicKey()).isEqualTo(PUB);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--------"));
    assertThat(CurveCert.readSecret(f).secretKey()).isEqualTo(SEC);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "rw-r--r--, 0644",
    "rw-r-----, 0640",
    "rw-----w-, 0602",
    "rw----r--, 0604",
    "rwx--x---, 0710"
  })
  void read_secretReadableByOthers_refused(String perms, String mode, @TempDir Path dir)
      throws Exception {
    Path f = write(dir.resolve("curve.cert"), good(), perms);
    String want =
        f
            + ": mode "
            + mode
            + " lets group or others at the secret key (expected: 0600 or stricter; chmod 600 "
            + f
            + ")";
    assertThatThrownBy(() -> CurveCert.readSecret(f)).hasMessage(want);
    assertThatThrownBy(() -> CurveCert.read(f)).hasMessage(want);
  }

  @Test
  void read_publicCertificateReadableByAll_read(@TempDir Path dir) throws Exception {
    Path f =
        write(dir.resolve("server.cert"), "curve\n    public-key = \"" + PUB + "\"\n", "rw-r--r--");
    assertThat(CurveCert.read(f).publicKey()).isEqualTo(PUB);
    assertThatThrownBy(() -> CurveCert.readSecret(f))
        .hasMessage(
            f
                + ": curve: no secret-key (expected: a secret certificate, as 'fluxdrm keygen'"
                + " writes)");
  }

  @Test
  void read_missingFile_saysSo(@TempDir Path dir) {
    Path f = dir.resolve("none.cert");
    assertThatThrownBy(() -> CurveCert.readSecret(f))
        .hasMessage(f + ": no such file (expected: a CURVE certificate)");
  }

  @Test
  void read_hugeFile_refusedBeforeReading(@TempDir Path dir) throws Exception {
    Path f = write(dir.resolve("big.cert"), "#".repeat(CurveCert.MAX_BYTES + 1), "rw-------");
    assertThatThrownBy(() -> CurveCert.readSecret(f))
        .hasMessage(f + ": 65537 bytes (expected: a certificate of at most 65536)");
  }

  @Test
  void read_badContent_namesTheFile(@TempDir Path dir) throws Exception {
    Path f = write(dir.resolve("bad.cert"), "curve\n    public-key = \"x\"\n", "rw-------");
    assertThatThrownBy(() -> CurveCert.read(f))
        .hasMessage(f + ":2: public-key: 1 characters (expected: 40 Z85 characters)");
  }

  private static Path write(Path f, String text, String perms) throws Exception {
    Files.writeString(f, text, StandardCharsets.ISO_8859_1);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
    return f;
  }
}
