package io.fluxdrm.sched.service;

import io.fluxdrm.rpc.JobId;

/** Job id notations: F58 for logs, dotted hex for KVS keys (07-job-events-kvs-exec.md). */
final class Ids {
  private Ids() {}

  /** {@code ƒ} and the base58 digits of the unsigned id, as flux's FLUID F58 form. */
  static String f58(long id) {
    return JobId.f58(id);
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
