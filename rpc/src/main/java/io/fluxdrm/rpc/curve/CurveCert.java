package io.fluxdrm.rpc.curve;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A CURVE certificate in the ZPL form of CZMQ's {@code zcert}, which flux-core's {@code flux
 * keygen} writes and its overlay reads: a {@code metadata} section of quoted values and a {@code
 * curve} section with {@code public-key} and, in a secret certificate, {@code secret-key}, both in
 * Z85 (decision D190).
 *
 * @param publicKey the public key, 40 Z85 characters
 * @param secretKey the secret key, 40 Z85 characters, or null in a public certificate
 * @param metadata the metadata in file order
 */
public record CurveCert(String publicKey, String secretKey, Map<String, String> metadata) {
  /** The largest certificate file read; a real one is under 1 KiB. */
  static final int MAX_BYTES = 64 * 1024;

  private static final Set<PosixFilePermission> GROUP_OTHER =
      Set.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  /**
   * The characters besides letters and digits that flux-core's certificate reader accepts in a
   * metadata value; what {@code keygen} writes keeps to them, so flux-core reads our certificates.
   */
  public static final String VALUE_CHARS = " .-:+=^!/*?&<>()[]{}@%$#";

  /** The longest metadata value written: flux-core reads certificate lines of up to 255 bytes. */
  public static final int MAX_VALUE = 200;

  /** Copies the metadata, keeping its order. */
  public CurveCert {
    metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /**
   * Tells why a metadata value cannot be written so that flux-core reads it back.
   *
   * @return null when it can be, else what is wrong
   */
  public static String valueProblem(String value) {
    if (value.isEmpty()) {
      return "is empty";
    }
    if (value.length() > MAX_VALUE) {
      return "has " + value.length() + " characters";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean alnum = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
      if (!alnum && VALUE_CHARS.indexOf(c) < 0) {
        return "contains "
            + (c > 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c));
      }
    }
    return null;
  }

  /**
   * Hands the text of a secret certificate for {@code keys} to {@code use}, then wipes it (issue
   * 12, finding 13; decision D331). The text is US-ASCII bytes laid out as {@code flux keygen}
   * writes it; the secret key is Z85-encoded straight into it, never into a String, which could not
   * be wiped. Once {@code use} returns or throws, the text and every copy of the secret key made
   * here are zeros and {@code keys} is destroyed: {@code use} must not keep the array.
   *
   * @param keys the key pair, destroyed by this call
   * @param use gets the public key (Z85) and the text
   */
  public static void withSecretText(
      CurveKeyPair keys, Map<String, String> metadata, BiConsumer<String, byte[]> use) {
    String publicKey = Z85.encode(keys.publicKey());
    byte[] secret = null;
    byte[] text = null;
    try {
      secret = keys.secretKey();
      text = secretBytes(publicKey, secret, metadata);
      use.accept(publicKey, text);
    } finally {
      if (text != null) {
        Arrays.fill(text, (byte) 0);
      }
      if (secret != null) {
        Arrays.fill(secret, (byte) 0);
      }
      keys.destroy();
    }
  }

  /** The layout of a secret certificate, the secret key's Z85 encoded into the returned array. */
  private static byte[] secretBytes(String publicKey, byte[] secret, Map<String, String> metadata) {
    StringBuilder b = new StringBuilder();
    b.append("#   ZeroMQ CURVE **Secret** Certificate\n");
    b.append("#   fluxdrm keygen: keep this file private (mode 0600); give out the public key\n");
    b.append("\n");
    b.append("metadata\n");
    metadata.forEach((k, v) -> b.append("    ").append(k).append(" = \"").append(v).append("\"\n"));
    b.append("curve\n");
    b.append("    public-key = \"").append(publicKey).append("\"\n");
    b.append("    secret-key = \"");
    byte[] head = b.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] tail = "\"\n".getBytes(StandardCharsets.US_ASCII);
    byte[] text = new byte[head.length + Z85.KEY_CHARS + tail.length];
    System.arraycopy(head, 0, text, 0, head.length);
    int end = Z85.encodeAscii(secret, text, head.length);
    System.arraycopy(tail, 0, text, end, tail.length);
    return text;
  }

  /** Returns whether this certificate holds the secret key. */
  public boolean isSecret() {
    return secretKey != null;
  }

  /** Shows the public key only. */
  @Override
  public String toString() {
    return "CurveCert[publicKey=" + publicKey + ", secret=" + isSecret() + "]";
  }

  /**
   * Returns the secret certificate's text, as {@code flux keygen} lays it out (tests: a certificate
   * read or built from Strings already holds its secret key in a String; keygen writes through
   * {@link #withSecretText}).
   */
  public String secretText() {
    if (!isSecret()) {
      throw new IllegalStateException("a public certificate has no secret text");
    }
    byte[] secret = Z85.decodeKey(secretKey);
    byte[] text = secretBytes(publicKey, secret, metadata);
    try {
      return new String(text, StandardCharsets.US_ASCII);
    } finally {
      Arrays.fill(secret, (byte) 0);
      Arrays.fill(text, (byte) 0);
    }
  }

  /**
   * Reads a secret certificate: it must exist, be private to its owner (no group or other
   * permission, as ssh demands of a private key) and hold a matching key pair.
   *
   * @throws CurveFileException naming the file, the line and the reason
   */
  public static CurveCert readSecret(Path file) {
    CurveCert c = read(file);
    if (!c.isSecret()) {
      throw new CurveFileException(
          file
              + ": curve: no secret-key (expected: a secret certificate, as 'fluxdrm keygen'"
              + " writes)");
    }
    return c;
  }

  /**
   * Reads a public or secret certificate; one that holds a secret key must be private to its owner.
   *
   * @throws CurveFileException naming the file, the line and the reason
   */
  public static CurveCert read(Path file) {
    byte[] bytes;
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw new CurveFileException(
            file + ": " + size + " bytes (expected: a certificate of at most " + MAX_BYTES + ")");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new CurveFileException(file + ": no such file (expected: a CURVE certificate)");
    } catch (IOException e) {
      throw CurveFileException.cannotRead(file.toString(), e);
    }
    CurveCert c = parse(file.toString(), new String(bytes, StandardCharsets.ISO_8859_1));
    if (c.isSecret()) {
      checkPrivate(file);
    }
    return c;
  }

  /**
   * Refuses a file that group or others may read or write (decision D192); a file system without
   * POSIX permissions is not checked.
   */
  static void checkPrivate(Path file) {
    Set<PosixFilePermission> perms;
    try {
      perms = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      return;
    } catch (IOException e) {
      throw new CurveFileException(
          file + ": cannot read its permissions (" + CurveFileException.why(e) + ")");
    }
    if (perms.stream().anyMatch(GROUP_OTHER::contains)) {
      throw new CurveFileException(
          file
              + ": mode "
              + mode(perms)
              + " lets group or others at the secret key (expected: 0600 or stricter; chmod 600 "
              + file
              + ")");
    }
  }

  static String mode(Set<PosixFilePermission> perms) {
    int m = 0;
    for (PosixFilePermission p : perms) {
      m |= 1 << (8 - p.ordinal());
    }
    return String.format("%04o", m);
  }

  /**
   * Parses certificate text.
   *
   * @param label how errors name the text
   * @throws CurveFileException {@code LABEL:LINE: reason (expected: rule)}, or {@code LABEL:
   *     reason} for something missing
   */
  public static CurveCert parse(String label, String text) {
    List<Zpl.Node> root = Zpl.parse(label, text);
    Map<String, String> meta = new LinkedHashMap<>();
    Zpl.Node curve = null;
    for (Zpl.Node n : root) {
      String where = label + ":" + n.line() + ": ";
      if (!n.name().equals("metadata") && !n.name().equals("curve")) {
        throw new CurveFileException(
            where + "\"" + n.name() + "\": unknown section (expected: metadata or curve)");
      }
      if (n.value() != null) {
        throw new CurveFileException(
            where + n.name() + ": has a value (expected: a section, its entries indented below)");
      }
      for (Zpl.Node c : n.children()) {
        String at = label + ":" + c.line() + ": " + n.name() + ": ";
        if (c.value() == null) {
          throw new CurveFileException(
              at + "\"" + c.name() + "\" has no value (expected: " + c.name() + " = \"value\")");
        }
        if (!c.children().isEmpty()) {
          Zpl.Node deeper = c.children().get(0);
          throw new CurveFileException(
              label
                  + ":"
                  + deeper.line()
                  + ": "
                  + n.name()
                  + ": \""
                  + deeper.name()
                  + "\" is indented under \""
                  + c.name()
                  + "\" (expected: one level of entries)");
        }
      }
      if (n.name().equals("metadata")) {
        n.children().forEach(c -> meta.put(c.name(), c.value()));
      } else {
        curve = n;
      }
    }
    if (curve == null) {
      throw new CurveFileException(label + ": no curve section (expected: curve with public-key)");
    }
    Zpl.Node pub = null;
    Zpl.Node sec = null;
    for (Zpl.Node c : curve.children()) {
      switch (c.name()) {
        case "public-key" -> pub = c;
        case "secret-key" -> sec = c;
        default ->
            throw new CurveFileException(
                label
                    + ":"
                    + c.line()
                    + ": curve: \""
                    + c.name()
                    + "\": unknown key (expected: public-key or secret-key)");
      }
    }
    if (pub == null) {
      throw new CurveFileException(
          label
              + ":"
              + curve.line()
              + ": curve: no public-key (expected: public-key = \"40 Z85 characters\")");
    }
    byte[] publicKey = key(label, pub);
    if (sec != null) {
      byte[] secretKey = key(label, sec);
      if (!Arrays.equals(CurveKeyPair.fromSecret(secretKey).publicKey(), publicKey)) {
        throw new CurveFileException(
            label
                + ":"
                + pub.line()
                + ": public-key: not the public key of the secret-key on line "
                + sec.line()
                + " (expected: the pair as generated)");
      }
    }
    return new CurveCert(pub.value(), sec == null ? null : sec.value(), meta);
  }

  /** Decodes a key entry, or fails with its line. */
  private static byte[] key(String label, Zpl.Node n) {
    return decodeKey(label + ":" + n.line() + ": " + n.name(), n.value());
  }

  /**
   * Decodes a Z85 CURVE key.
   *
   * @param where what errors start with (before ": ")
   * @throws CurveFileException {@code WHERE: 39 characters (expected: 40 Z85 characters)} and the
   *     like
   */
  public static byte[] decodeKey(String where, String z85) {
    if (z85.length() != Z85.KEY_CHARS) {
      throw new CurveFileException(
          where
              + ": "
              + z85.length()
              + " characters (expected: "
              + Z85.KEY_CHARS
              + " Z85 characters)");
    }
    try {
      return Z85.decodeKey(z85);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw new CurveFileException(where + ": " + (m.startsWith("z85: ") ? m.substring(5) : m));
    }
  }
}
