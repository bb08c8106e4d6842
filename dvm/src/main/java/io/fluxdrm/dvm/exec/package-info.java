/**
 * The executor of the DVM's effects (issue 13 scope 2): daemons per node with injectable start and
 * stop latency and failures, applications as real local processes (one per proc) or simulated, and
 * signals (PRRTE §7.4.4.2.2 to §7.4.4.2.5: SIGSTOP, SIGCONT, any signal n). Everything it reports
 * reaches its {@link io.fluxdrm.dvm.exec.ExecListener} on the event loop, never inside the call
 * that caused it.
 */
package io.fluxdrm.dvm.exec;
