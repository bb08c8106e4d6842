package io.fluxdrm.pmix;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A PMIx regex value as libpmix carries it, immutable: the value of a {@link
 * PmixDataType#PMIX_REGEX2} entry (a {@code pmix_regex2_t}: an encoding tag and that many bytes) or
 * of a deprecated {@link PmixDataType#PMIX_REGEX} entry (a byte object holding the serialized
 * {@code char*} form that {@code PMIx_generate_regex} returns). {@link #text()} expands it to the
 * delimited list that was encoded, as {@code PMIx_parse_regex2} would (decision D503).
 *
 * <p>Forms read: encoding {@code raw} (the list itself, NUL-terminated) and {@code compress} (a
 * 4-byte little-endian length, then a zlib stream or an LZ4 frame); the serialized forms {@code
 * "raw:"}{@code <list>} and {@code "blob:"\0"component=zlib:"\0"size="<n>":"\0<compress payload>};
 * and a serialized value without a tag, which is the plain list (libpmix falls back to it). Refused
 * with a {@link PmixException} naming the form: any other encoding tag, a zstd payload, the {@code
 * pmix[...]} form of PMIx 3 and 4, a malformed framing, and a list longer than {@link
 * #MAX_TEXT_BYTES}.
 */
public final class PmixRegex {
  /** Most bytes the expanded list may have (a compressed payload may not inflate beyond it). */
  public static final int MAX_TEXT_BYTES = 1 << 20;

  /** Most hosts {@link #hosts()} gives (the dvm's and bridge's node lists allow far fewer). */
  public static final int MAX_HOSTS = 1 << 16;

  /** The encoding tag of libpmix's {@code raw} component. */
  public static final String RAW = "raw";

  /** The encoding tag of libpmix's {@code compress} component. */
  public static final String COMPRESS = "compress";

  private static final int MAX_TAG = 64;
  private static final byte[] LEGACY_RAW = ascii("raw:");
  private static final byte[] LEGACY_BLOB = ascii("blob:");
  private static final byte[] LEGACY_LABEL = ascii("component=zlib:");
  private static final byte[] LEGACY_SIZE = ascii("size=");
  private static final byte[] LEGACY_NATIVE = ascii("pmix[");
  private static final byte[] LZ4_MAGIC = {0x04, 0x22, 0x4D, 0x18};
  private static final byte[] ZSTD_MAGIC = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD};

  private final PmixDataType type;
  private final String encoding;
  private final byte[] bytes;

  private PmixRegex(PmixDataType type, String encoding, byte[] bytes) {
    this.type = type;
    this.encoding = encoding;
    this.bytes = bytes;
  }

  /**
   * A {@code PMIX_REGEX2} value.
   *
   * @param encoding the {@code type} tag of the {@code pmix_regex2_t} ({@code raw}, {@code
   *     compress}, ...); 1 to 64 characters
   * @param bytes its bytes (copied)
   * @return the value
   * @throws PmixException for a missing or overlong tag
   */
  public static PmixRegex regex2(String encoding, byte[] bytes) {
    if (encoding == null || encoding.isEmpty() || encoding.length() > MAX_TAG) {
      throw new PmixException(
          "PMIX_REGEX2: encoding tag "
              + Values.render(encoding)
              + " (expected: 1 to "
              + MAX_TAG
              + " characters, e.g. raw or compress)");
    }
    return new PmixRegex(PmixDataType.PMIX_REGEX2, encoding, bytes.clone());
  }

  /**
   * A deprecated {@code PMIX_REGEX} value: the bytes of its byte object.
   *
   * @param bytes the serialized regex (copied)
   * @return the value
   */
  public static PmixRegex legacy(byte[] bytes) {
    return new PmixRegex(PmixDataType.PMIX_REGEX, null, bytes.clone());
  }

  /**
   * The {@code PMIX_REGEX2} value libpmix's {@code raw} component makes of {@code list}: the list
   * and its NUL.
   *
   * @param list a delimited list
   * @return the value
   */
  public static PmixRegex raw(String list) {
    byte[] b = list.getBytes(StandardCharsets.UTF_8);
    return new PmixRegex(PmixDataType.PMIX_REGEX2, RAW, Arrays.copyOf(b, b.length + 1));
  }

  /** {@link PmixDataType#PMIX_REGEX2} or {@link PmixDataType#PMIX_REGEX}. */
  public PmixDataType dataType() {
    return type;
  }

  /** The encoding tag of a {@code PMIX_REGEX2} value; empty for {@code PMIX_REGEX}. */
  public Optional<String> encoding() {
    return Optional.ofNullable(encoding);
  }

  /** A copy of the bytes. */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * The delimited list the value encodes (comma-separated for a node list).
   *
   * @return the text
   * @throws PmixException naming the form when it is malformed or not supported
   */
  public String text() {
    return type == PmixDataType.PMIX_REGEX2 ? regex2Text() : legacyText();
  }

  /**
   * The comma-separated entries of {@link #text()}.
   *
   * @return the entries, in order
   * @throws PmixException as {@link #text()}
   */
  public List<String> entries() {
    String t = text();
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= t.length(); i++) {
      if (i == t.length() || t.charAt(i) == ',') {
        out.add(t.substring(start, i));
        start = i + 1;
      }
    }
    return out;
  }

  /**
   * The hosts of a node regex: each entry one host name (a node list's hosts, which the dvm and
   * bridge read as an RFC 29 hostlist).
   *
   * @return the hosts, in order
   * @throws PmixException as {@link #text()}, for an empty list, an entry that is not a single host
   *     name, or more than {@link #MAX_HOSTS} entries
   */
  public List<String> hosts() {
    List<String> e = entries();
    if (e.size() > MAX_HOSTS) {
      throw bad("names " + e.size() + " hosts (expected: at most " + MAX_HOSTS + ")");
    }
    for (String h : e) {
      if (h.isEmpty()
          || h.chars().anyMatch(c -> c == '[' || c == ']' || c == ' ' || c == ':' || c < 0x21)) {
        throw bad("entry " + Values.render(h) + " is not a host name");
      }
    }
    return e;
  }

  private String regex2Text() {
    return switch (encoding) {
      case RAW -> {
        if (bytes.length == 0 || bytes[bytes.length - 1] != 0) {
          throw bad("encoding raw: the list does not end with its NUL");
        }
        yield utf8(Arrays.copyOf(bytes, bytes.length - 1), "encoding raw");
      }
      case COMPRESS -> decompress(bytes, "encoding compress");
      default ->
          throw bad(
              "encoding "
                  + Values.render(encoding)
                  + " is not supported (expected: "
                  + RAW
                  + " or "
                  + COMPRESS
                  + ")");
    };
  }

  private String legacyText() {
    int nul = indexOf(bytes, (byte) 0, 0);
    int taglen = nul < 0 ? bytes.length : nul;
    if (startsWith(bytes, 0, LEGACY_RAW)) {
      if (nul < 0) {
        throw bad("form raw: the list does not end with its NUL");
      }
      return utf8(Arrays.copyOfRange(bytes, LEGACY_RAW.length, nul), "form raw");
    }
    if (nul == LEGACY_BLOB.length && startsWith(bytes, 0, LEGACY_BLOB)) {
      return blob(nul + 1);
    }
    byte[] plain = Arrays.copyOf(bytes, taglen);
    if (startsWith(plain, 0, LEGACY_NATIVE)) {
      throw bad(
          "form pmix[...] (the native regex of PMIx 3 and 4) is not supported (expected: raw:,"
              + " blob: or a plain list, as PMIx 5 and later write)");
    }
    return utf8(plain, "plain list");
  }

  /** The compress framing after {@code "blob:"\0}, from {@code at}. */
  private String blob(int at) {
    String form = "form blob";
    if (!startsWith(bytes, at, LEGACY_LABEL)
        || at + LEGACY_LABEL.length >= bytes.length
        || bytes[at + LEGACY_LABEL.length] != 0) {
      throw bad(form + ": no \"component=zlib:\" label after the tag");
    }
    at += LEGACY_LABEL.length + 1;
    if (!startsWith(bytes, at, LEGACY_SIZE)) {
      throw bad(form + ": no \"size=\" field after the label");
    }
    at += LEGACY_SIZE.length;
    long size = 0;
    int digits = 0;
    while (at < bytes.length && bytes[at] >= '0' && bytes[at] <= '9' && digits < 10) {
      size = size * 10 + (bytes[at] - '0');
      at++;
      digits++;
    }
    if (digits == 0 || at + 1 >= bytes.length || bytes[at] != ':' || bytes[at + 1] != 0) {
      throw bad(form + ": the size field is not decimal digits, ':' and NUL");
    }
    at += 2;
    if (size > bytes.length - at) {
      throw bad(form + ": size " + size + " but " + (bytes.length - at) + " payload bytes follow");
    }
    return decompress(Arrays.copyOfRange(bytes, at, at + (int) size), form);
  }

  /** A compress payload: a 4-byte little-endian length, then what the compressor made. */
  private String decompress(byte[] p, String form) {
    if (p.length < 4) {
      throw bad(form + ": " + p.length + " bytes (expected: a 4-byte length, then the payload)");
    }
    long len = (p[0] & 0xFFL) | (p[1] & 0xFFL) << 8 | (p[2] & 0xFFL) << 16 | (p[3] & 0xFFL) << 24;
    if (len > MAX_TEXT_BYTES) {
      throw bad(
          form
              + ": the list would have "
              + len
              + " bytes (expected: at most "
              + MAX_TEXT_BYTES
              + ")");
    }
    byte[] payload = Arrays.copyOfRange(p, 4, p.length);
    byte[] out;
    if (startsWith(payload, 0, LZ4_MAGIC)) {
      out = Lz4Frame.decode(payload, (int) len, m -> bad(form + ", LZ4 frame: " + m));
    } else if (startsWith(payload, 0, ZSTD_MAGIC)) {
      throw bad(form + ": a zstd payload is not supported (expected: zlib or LZ4)");
    } else if (payload.length >= 2
        && (payload[0] & 0x0F) == 8
        && ((payload[0] & 0xFF) << 8 | (payload[1] & 0xFF)) % 31 == 0) {
      out = inflate(payload, (int) len, form);
    } else {
      throw bad(form + ": the payload is neither a zlib stream nor an LZ4 frame");
    }
    return utf8(out, form);
  }

  private static byte[] inflate(byte[] payload, int len, String form) {
    Inflater inf = new Inflater();
    try {
      inf.setInput(payload);
      byte[] out = new byte[len];
      int n = 0;
      while (n < len) {
        int k = inf.inflate(out, n, len - n);
        if (k == 0) {
          break;
        }
        n += k;
      }
      if (n != len) {
        throw bad(form + ", zlib: inflates to " + n + " bytes, not the " + len + " it declares");
      }
      if (!inf.finished() && (inf.inflate(new byte[1]) > 0 || !inf.finished())) {
        throw bad(form + ", zlib: the stream does not end after the " + len + " bytes it declares");
      }
      return out;
    } catch (DataFormatException e) {
      throw bad(form + ", zlib: " + e.getMessage());
    } finally {
      inf.end();
    }
  }

  private static String utf8(byte[] b, String form) {
    if (b.length > MAX_TEXT_BYTES) {
      throw bad(
          form
              + ": the list has "
              + b.length
              + " bytes (expected: at most "
              + MAX_TEXT_BYTES
              + ")");
    }
    if (indexOf(b, (byte) 0, 0) >= 0) {
      throw bad(form + ": a NUL inside the list");
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw bad(form + ": the list is not UTF-8 text");
    }
  }

  private static PmixException bad(String why) {
    return new PmixException("PMIx regex: " + why);
  }

  private static boolean startsWith(byte[] b, int at, byte[] prefix) {
    if (at < 0 || b.length - at < prefix.length) {
      return false;
    }
    return Arrays.equals(b, at, at + prefix.length, prefix, 0, prefix.length);
  }

  private static int indexOf(byte[] b, byte v, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PmixRegex r
        && type == r.type
        && java.util.Objects.equals(encoding, r.encoding)
        && Arrays.equals(bytes, r.bytes);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(type, encoding, Arrays.hashCode(bytes));
  }

  @Override
  public String toString() {
    return (encoding == null ? "regex" : "regex2(" + encoding + ")")
        + "("
        + bytes.length
        + " bytes)";
  }
}
