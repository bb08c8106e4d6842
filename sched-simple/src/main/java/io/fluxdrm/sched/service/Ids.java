package io.fluxdrm.sched.service;

/** Job id notations: F58 for logs, dotted hex for KVS keys (07-job-events-kvs-exec.md). */
final class Ids {
  private static final String ALPHABET =
      "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

  private Ids() {}

  /** {@code ƒ} and the base58 digits of the unsigned id, as flux's FLUID F58 form. */
  static String f58(long id) {
    if (id == 0) {
      return "ƒ1";
    }
    StringBuilder sb = new StringBuilder();
    long v = id;
    while (v != 0) {
      int digit = (int) Long.remainderUnsigned(v, 58);
      sb.append(ALPHABET.charAt(digit));
      v = Long.divideUnsigned(v, 58);
    }
    return "ƒ" + sb.reverse();
  }

  /** 16 hex digits in groups of four: {@code 0000.0005.4f00.0000}. */
  static String dothex(long id) {
    String h = String.format("%016x", id);
    return h.substring(0, 4)
        + "."
        + h.substring(4, 8)
        + "."
        + h.substring(8, 12)
        + "."
        + h.substring(12, 16);
  }

  /** The KVS key of a job's R. */
  static String rKey(long id) {
    return "job." + dothex(id) + ".R";
  }
}
