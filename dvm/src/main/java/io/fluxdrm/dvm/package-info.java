/** The reference DVM (PRRTE-like) behind the DVM port: the next issue. */
package io.fluxdrm.dvm;
