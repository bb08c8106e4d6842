/**
 * The job manager's side of RFC 51 dynamic resource allocation (RFC 51 §Realloc) on top of RFC 27:
 * a {@code job-manager} service that serves the scheduler's {@code sched-hello} and {@code
 * sched-ready}, submits jobs with {@code sched.alloc}, mediates the shell's {@code realloc}, {@code
 * realloc_cancel} and {@code release} towards {@code sched.realloc}, {@code sched.realloc_cancel}
 * and {@code sched.free}, and keeps an RFC 21 eventlog per job on disk from which it recovers after
 * a crash (decision D8).
 *
 * <p>Entry point: {@link io.fluxdrm.jobmanager.JobManager}, the service: it binds the pure core of
 * {@link io.fluxdrm.jobmanager.core} to the message layer (handlers per topic, the scheduler link,
 * {@code ReallocForwarder} for forwarded reallocs, eventlog persistence and recovery from disk). It
 * speaks to any scheduler over the message layer, never to a scheduler core directly.
 */
package io.fluxdrm.jobmanager;
