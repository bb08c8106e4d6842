/**
 * The allocation timeline of a transcript (issue 17 scope 2): RFC 27 and RFC 51 traffic ({@code
 * sched.alloc}, {@code sched.realloc}, {@code sched.free}, the job manager's answers carrying a
 * job's R) and the DVM's hub protocol ({@code dvm.alloc}, {@code dvm.session-control}, the
 * PMIX_DVM_IS_READY and PMIX_ERR_DVM_MOD events) read into per-node intervals and marks, a pure
 * value with no drawing in it (decision D425). {@code io.fluxdrm.showcase.plot} draws it.
 */
package io.fluxdrm.showcase.timeline;
