package io.fluxdrm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PMIx regex forms (D503), from vectors built here after the formats: the raw and compress
 * encodings of a {@code pmix_regex2_t}, the serialized {@code raw:} / {@code blob:} forms of a
 * {@code PMIX_REGEX}, zlib and LZ4 payloads, and every refusal. The same forms as the peer's
 * libpmix writes them are checked by pmix-native's {@code PmixRegexPeerTest}.
 */
class PmixRegexTest {

  private static final String LIST = "node01,node02,node03,login,n[5]x";

  // ------------------------------------------------------------------ builders (the formats)

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] cat(byte[]... parts) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      o.writeBytes(p);
    }
    return o.toByteArray();
  }

  private static byte[] le32(long v) {
    return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
  }

  private static byte[] zlib(byte[] in) {
    Deflater d = new Deflater();
    d.setInput(in);
    d.finish();
    byte[] buf = new byte[in.length + 64];
    int n = d.deflate(buf);
    d.end();
    return Arrays.copyOf(buf, n);
  }

  /** A compress payload: little-endian length of the list (no NUL), then the compressed list. */
  private static byte[] compressPayload(String list, byte[] compressed) {
    return cat(le32(utf8(list).length), compressed);
  }

  /** The serialized blob form of a compress payload. */
  private static byte[] blob(byte[] payload) {
    return cat(
        utf8("blob:"),
        new byte[1],
        utf8("component=zlib:"),
        new byte[1],
        utf8("size=" + payload.length + ":"),
        new byte[1],
        payload);
  }

  /** An LZ4 frame (no checksums, independent blocks, 64 KB blocks) around {@code blocks}. */
  private static byte[] lz4Frame(byte[]... blocks) {
    List<byte[]> parts = new ArrayList<>();
    parts.add(new byte[] {0x04, 0x22, 0x4D, 0x18, 0x60, 0x40, 0x00});
    for (byte[] b : blocks) {
      parts.add(b);
    }
    parts.add(le32(0));
    return cat(parts.toArray(new byte[0][]));
  }

  /** A compressed LZ4 block: size word, then its sequences. */
  private static byte[] lz4Block(byte[] sequences) {
    return cat(le32(sequences.length), sequences);
  }

  /** A stored (uncompressed) LZ4 block. */
  private static byte[] lz4Stored(byte[] data) {
    return cat(le32(data.length | 0x80000000L), data);
  }

  /**
   * "node01,node02,node03": literals "node01,", a match of 5 at offset 7 ("node0"), then literals
   * "2," and a match of 5 at offset 7, then the last literals "3".
   */
  private static final byte[] LZ4_SEQUENCES =
      cat(
          new byte[] {0x71},
          utf8("node01,"),
          new byte[] {7, 0, 0x21},
          utf8("2,"),
          new byte[] {7, 0, 0x10},
          utf8("3"));

  // ------------------------------------------------------------------ accepted forms

  @Test
  void regex2Raw_isTheListWithItsNul() {
    PmixRegex r = PmixRegex.regex2("raw", cat(utf8(LIST), new byte[1]));
    assertThat(r.text()).isEqualTo(LIST);
    assertThat(PmixRegex.raw(LIST)).isEqualTo(r);
  }

  @Test
  void regex2Compress_zlib_inflatesToTheList() {
    byte[] payload = compressPayload(LIST, zlib(utf8(LIST)));
    assertThat(PmixRegex.regex2("compress", payload).text()).isEqualTo(LIST);
  }

  @Test
  void regex2Compress_lz4_decodesSequencesWithOverlappingMatches() {
    String list = "node01,node02,node03";
    byte[] payload = compressPayload(list, lz4Frame(lz4Block(LZ4_SEQUENCES)));
    assertThat(PmixRegex.regex2("compress", payload).text()).isEqualTo(list);
    // a run: one literal and a match at offset 1 that overlaps what it writes
    byte[] run =
        compressPayload(
            "aaaaaaaaa,b",
            lz4Frame(
                lz4Block(cat(new byte[] {0x14}, utf8("a"), new byte[] {1, 0, 0x20}, utf8(",b")))));
    assertThat(PmixRegex.regex2("compress", run).text()).isEqualTo("aaaaaaaaa,b");
  }

  @Test
  void regex2Compress_lz4_storedBlocksContentSizeAndChecksumsSkipped() {
    String list = "n1,n2,n3";
    byte[] frame =
        cat(
            new byte[] {0x04, 0x22, 0x4D, 0x18, 0x7C, 0x70}, // block + content checksum, size
            le32(8),
            le32(0),
            new byte[] {0x11}, // header checksum
            lz4Stored(utf8("n1,n2")),
            le32(0xdeadbeefL), // block checksum
            lz4Stored(utf8(",n3")),
            le32(0xdeadbeefL),
            le32(0),
            le32(0xcafef00dL)); // content checksum
    assertThat(PmixRegex.regex2("compress", compressPayload(list, frame)).text()).isEqualTo(list);
  }

  @Test
  void legacyRaw_andBlob_andPlain() {
    assertThat(PmixRegex.legacy(cat(utf8("raw:" + LIST), new byte[1])).text()).isEqualTo(LIST);
    byte[] payload = compressPayload(LIST, zlib(utf8(LIST)));
    assertThat(PmixRegex.legacy(blob(payload)).text()).isEqualTo(LIST);
    byte[] lz4 = compressPayload("node01,node02,node03", lz4Frame(lz4Block(LZ4_SEQUENCES)));
    assertThat(PmixRegex.legacy(blob(lz4)).text()).isEqualTo("node01,node02,node03");
    // no tag: libpmix hands the list over as it is
    assertThat(PmixRegex.legacy(cat(utf8("n1,n2"), new byte[1])).text()).isEqualTo("n1,n2");
    assertThat(PmixRegex.legacy(utf8("blobby,n2")).text()).isEqualTo("blobby,n2");
  }

  @Test
  void hosts_areTheEntries_eachAHostName() {
    PmixRegex r = PmixRegex.raw("n01,n02,n03,login,n7");
    assertThat(r.hosts()).containsExactly("n01", "n02", "n03", "login", "n7");
    assertThat(r.entries()).containsExactly("n01", "n02", "n03", "login", "n7");
  }

  // ------------------------------------------------------------------ refused forms

  private static void refused(PmixRegex r, String message) {
    assertThatThrownBy(r::text)
        .isInstanceOf(PmixException.class)
        .hasMessageStartingWith("PMIx regex: " + message)
        .satisfies(
            e -> assertThat(((PmixException) e).status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM));
  }

  @Test
  void unknownEncoding_refusedNamingIt() {
    refused(
        PmixRegex.regex2("pmix", utf8("pmix[n[1:1-2]]")),
        "encoding \"pmix\" is not supported (expected: raw or compress)");
  }

  @Test
  void nativeFormOfOldPmix_refusedNamingIt() {
    refused(
        PmixRegex.legacy(cat(utf8("pmix[n[1:1-3]]"), new byte[1])),
        "form pmix[...] (the native regex of PMIx 3 and 4) is not supported");
  }

  @Test
  void zstdPayload_refusedNamingIt() {
    byte[] p = cat(le32(5), new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0, 0});
    refused(PmixRegex.regex2("compress", p), "encoding compress: a zstd payload is not supported");
  }

  @Test
  void compressedBomb_refusedByTheLimitBeforeInflating() {
    byte[] p = cat(le32(PmixRegex.MAX_TEXT_BYTES + 1L), zlib(new byte[10]));
    refused(
        PmixRegex.regex2("compress", p),
        "encoding compress: the list would have 1048577 bytes (expected: at most 1048576)");
  }

  @Test
  void zlibLengthThatLies_refused() {
    byte[] longer = cat(le32(3), zlib(utf8("n1,n2")));
    refused(
        PmixRegex.regex2("compress", longer),
        "encoding compress, zlib: the stream does not end after the 3 bytes it declares");
    byte[] shorter = cat(le32(9), zlib(utf8("n1,n2")));
    refused(
        PmixRegex.regex2("compress", shorter),
        "encoding compress, zlib: inflates to 5 bytes, not the 9 it declares");
  }

  @Test
  void lz4Malformed_refused() {
    byte[] before = lz4Frame(lz4Block(new byte[] {0x10, 'a', 5, 0, 0x00}));
    refused(
        PmixRegex.regex2("compress", cat(le32(6), before)),
        "encoding compress, LZ4 frame: match offset 5 points before the start");
    byte[] cut = Arrays.copyOf(lz4Frame(lz4Block(LZ4_SEQUENCES)), 20);
    refused(PmixRegex.regex2("compress", cat(le32(20), cut)), "encoding compress, LZ4 frame:");
    byte[] dict = {0x04, 0x22, 0x4D, 0x18, 0x61, 0x40, 0, 0, 0, 0, 0, 0};
    refused(
        PmixRegex.regex2("compress", cat(le32(1), dict)),
        "encoding compress, LZ4 frame: a frame that needs a dictionary is not supported");
  }

  @Test
  void payloadOfNoKnownCompressor_refused() {
    refused(
        PmixRegex.regex2("compress", cat(le32(2), utf8("n1"))),
        "encoding compress: the payload is neither a zlib stream nor an LZ4 frame");
    refused(PmixRegex.regex2("compress", new byte[3]), "encoding compress: 3 bytes");
  }

  @Test
  void rawWithoutNul_refused() {
    refused(PmixRegex.regex2("raw", utf8("n1,n2")), "encoding raw: the list does not end");
    refused(PmixRegex.legacy(utf8("raw:n1")), "form raw: the list does not end with its NUL");
  }

  @Test
  void blobFramingBroken_refused() {
    byte[] payload = compressPayload(LIST, zlib(utf8(LIST)));
    byte[] good = blob(payload);
    byte[] shortPayload = Arrays.copyOf(good, good.length - 1);
    refused(
        PmixRegex.legacy(shortPayload),
        "form blob: size " + payload.length + " but " + (payload.length - 1) + " payload bytes");
    byte[] noLabel = cat(utf8("blob:"), new byte[1], utf8("component=lz4:"), new byte[1]);
    refused(PmixRegex.legacy(noLabel), "form blob: no \"component=zlib:\" label");
    byte[] badSize =
        cat(
            utf8("blob:"),
            new byte[1],
            utf8("component=zlib:"),
            new byte[1],
            utf8("size=x:"),
            new byte[1]);
    refused(PmixRegex.legacy(badSize), "form blob: the size field is not decimal digits");
  }

  @Test
  void notText_refused() {
    refused(
        PmixRegex.regex2("raw", new byte[] {'n', (byte) 0xC3, 0}),
        "encoding raw: the list is not UTF-8 text");
    refused(PmixRegex.regex2("raw", new byte[] {'n', 0, '2', 0}), "encoding raw: a NUL inside");
  }

  @ParameterizedTest
  @ValueSource(strings = {"n1,n2:2", "n[1-2]", "n1,,n2", ""})
  void hosts_entryThatIsNoHostName_refused(String list) {
    assertThatThrownBy(() -> PmixRegex.raw(list).hosts())
        .isInstanceOf(PmixException.class)
        .hasMessageContaining("is not a host name");
  }

  @Test
  void hosts_beyondTheLimit_refused() {
    StringBuilder b = new StringBuilder("n0");
    for (int i = 1; i <= PmixRegex.MAX_HOSTS; i++) {
      b.append(",n").append(i);
    }
    assertThatThrownBy(() -> PmixRegex.raw(b.toString()).hosts())
        .hasMessage("PMIx regex: names 65537 hosts (expected: at most 65536)");
  }

  @Test
  void regex2_tagMissingOrOverlong_refused() {
    assertThatThrownBy(() -> PmixRegex.regex2("", new byte[1]))
        .isInstanceOf(PmixException.class)
        .hasMessageContaining("encoding tag \"\"");
    assertThatThrownBy(() -> PmixRegex.regex2("x".repeat(65), new byte[1]))
        .isInstanceOf(PmixException.class);
  }

  @Test
  void infoStringValue_expandsTheRegexAndNamesTheKeyWhenItCannot() {
    Info ok =
        new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, PmixRegex.raw("a,b"));
    assertThat(ok.stringValue()).isEqualTo("a,b");
    Info bad =
        new Info(
            PmixKey.PMIX_ALLOC_NODE_LIST,
            PmixDataType.PMIX_REGEX2,
            PmixRegex.regex2("zzz", new byte[1]));
    assertThatThrownBy(bad::stringValue)
        .hasMessage(
            "pmix.alloc.nlist: PMIx regex: encoding \"zzz\" is not supported (expected: raw or"
                + " compress)");
  }

  @Test
  void info_regexValueMustMatchItsType() {
    assertThatThrownBy(
            () ->
                new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX, PmixRegex.raw("a")))
        .isInstanceOf(PmixException.class);
    assertThatThrownBy(
            () -> new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, "n[1-2]"))
        .isInstanceOf(PmixException.class);
  }
}
