/**
 * The pure core of the FIFO reference scheduler: a resource pool, flux-core sched-simple's
 * worst-fit allocator and a decision core that takes RFC 27 ({@code sched.alloc}, {@code
 * sched.free}, {@code sched.cancel}, {@code sched.prioritize}, hello) and RFC 51 ({@code
 * sched.realloc}, {@code sched.realloc_cancel}) requests as events and returns its answers as
 * decisions.
 *
 * <p>Nothing here reads a clock, opens a socket, starts a thread or logs: time comes in with each
 * event, and a service class executes the {@link io.fluxdrm.sched.Decision decisions} returned by
 * {@link io.fluxdrm.sched.SchedulerCore#handle}. {@link io.fluxdrm.sched.ResourcePool} is the one
 * mutable holder of allocation state.
 */
package io.fluxdrm.sched;
