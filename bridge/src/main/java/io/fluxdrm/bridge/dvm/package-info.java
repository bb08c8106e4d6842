/**
 * The bridge as a DVM's scheduler (issue 13 scope 4; docs/protocol-mapping.md): allocation requests
 * the DVM forwards become {@code sched.realloc} through the existing translation ({@link
 * io.fluxdrm.bridge.alloc.PmixAllocator}), and each grant becomes a {@code PMIx_Session_control}
 * INSTANTIATE or EXTEND toward the DVM before the requester hears of it (PRRTE §7.4.3
 * Flow-of-Control: the DVM creates a session only from the scheduler's session control); issue 14
 * scope 6: R_delta_sub becomes a shrink of the DVM, and resources go back to Flux only once the
 * DVM's daemons there are gone.
 */
package io.fluxdrm.bridge.dvm;
