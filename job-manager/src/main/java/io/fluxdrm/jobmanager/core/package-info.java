/**
 * The job manager as a pure core, split as flux-core's job-manager splits it: {@link
 * io.fluxdrm.jobmanager.core.JobManagerCore} (the job table, submit, register, finish, the
 * scheduler interface's hello, ready and teardown, and restart from eventlogs), {@code AllocRules}
 * (alloc and annotate), {@code ReallocRules} (realloc answers and release), and {@link
 * io.fluxdrm.jobmanager.core.Job} (the event part: a job is what its eventlog's entries make it).
 *
 * <p>Inputs in ({@link io.fluxdrm.jobmanager.core.Input}), decisions out ({@link
 * io.fluxdrm.jobmanager.core.Decision}), the time passed in with each input: no clock read, no
 * socket, no thread, no import of rpc's client, service, reactor, transport or hub packages (the
 * layering test in cli enforces the last).
 */
package io.fluxdrm.jobmanager.core;
