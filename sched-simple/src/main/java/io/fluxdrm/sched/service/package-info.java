/**
 * The scheduler service: the FIFO core of {@code io.fluxdrm.sched} on the message layer, speaking
 * RFC 27 ({@code sched.alloc}, {@code sched.free}, {@code sched.cancel}, {@code sched.prioritize},
 * {@code sched.expiration}, {@code feasibility.check}, the hello/ready handshake) and RFC 51
 * ({@code sched.realloc}, {@code sched.realloc_cancel}) to a Flux broker or to a fluxdrm hub.
 */
package io.fluxdrm.sched.service;
