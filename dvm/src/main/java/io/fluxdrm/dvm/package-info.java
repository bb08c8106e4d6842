/**
 * The reference DVM (PRRTE-like) behind the DVM port of {@code io.fluxdrm.pmix.port}: the pure core
 * ({@code core}), the executor of its effects ({@code exec}), the core on one event loop with the
 * in-process connector ({@code service}) and its protocol on a hub ({@code wire}); decision D17.
 */
package io.fluxdrm.dvm;
