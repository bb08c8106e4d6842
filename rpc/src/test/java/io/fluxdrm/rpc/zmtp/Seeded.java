package io.fluxdrm.rpc.zmtp;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** Deterministic randomness for the CURVE tests: a seeded SHA1PRNG. */
public final class Seeded {
  private Seeded() {}

  /** Returns a SecureRandom whose output depends only on the seed. */
  public static SecureRandom random(long seed) {
    try {
      SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
      r.setSeed(seed);
      return r;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Returns the seed of a test run, printed so that a failure can be replayed. */
  public static long seed(String test) {
    long seed = Long.getLong("curve.seed", System.nanoTime());
    System.out.println(test + ": seed " + seed + " (replay with -Dcurve.seed=" + seed + ")");
    return seed;
  }
}
