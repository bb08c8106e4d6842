package io.fluxdrm.bridge.dvm;

/** Keeps the {@link Ledger} where a restarted scheduler finds it. */
@FunctionalInterface
public interface Journal {
  /**
   * Saves the ledger as it is now, replacing the last one; called on the loop after every change
   * and before a session control is sent.
   *
   * @param ledger the ledger
   */
  void save(Ledger ledger);
}
