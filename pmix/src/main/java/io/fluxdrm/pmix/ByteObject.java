package io.fluxdrm.pmix;

import java.util.Arrays;
import java.util.Base64;

/**
 * A PMIx byte object ({@code pmix_byte_object_t}, data type {@link PmixDataType#PMIX_BYTE_OBJECT}),
 * immutable. Its JSON form is the base64 text of the bytes.
 */
public final class ByteObject {
  private final byte[] bytes;

  private ByteObject(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * A byte object holding a copy of {@code bytes}.
   *
   * @param bytes the bytes
   * @return the value
   */
  public static ByteObject of(byte[] bytes) {
    return new ByteObject(bytes.clone());
  }

  /** A copy of the bytes. */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The number of bytes. */
  public int size() {
    return bytes.length;
  }

  /** The base64 text of the bytes (RFC 4648, with padding). */
  public String toBase64() {
    return Base64.getEncoder().encodeToString(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteObject b && Arrays.equals(bytes, b.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "bytes(" + toBase64() + ")";
  }
}
