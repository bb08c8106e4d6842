package io.fluxdrm.rpc;

/**
 * RFC 19 job ids (FLUIDs, unsigned 64 bits) in their F58 text form: base58 digits of the id, most
 * significant first, after an {@code ƒ} (for people and logs) or an ASCII {@code f} (in service
 * names such as {@code <uid>-shell-f...}).
 */
public final class JobId {
  private static final String ALPHABET =
      "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

  private JobId() {}

  /** F58 with the {@code ƒ} prefix, e.g. {@code ƒ2} for 1. */
  public static String f58(long id) {
    return "\u0192" + base58(id);
  }

  /** F58 with an ASCII {@code f} prefix, e.g. {@code f2} for 1. */
  public static String f58plain(long id) {
    return "f" + base58(id);
  }

  private static String base58(long id) {
    StringBuilder b = new StringBuilder();
    long n = id;
    do {
      b.append(ALPHABET.charAt((int) Long.remainderUnsigned(n, 58)));
      n = Long.divideUnsigned(n, 58);
    } while (n != 0);
    return b.reverse().toString();
  }
}
