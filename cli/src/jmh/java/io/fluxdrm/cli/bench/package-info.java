/**
 * JMH benchmarks of the RFC 51 grow round trip application → shell → job manager → scheduler →
 * application (issue 6): in one JVM on an in-memory hub, and across processes ({@code fluxdrm
 * sched} and {@code fluxdrm bridge}) over ZeroMQ loopback; and a grow of the reference DVM beside
 * PRRTE's (issue 16).
 */
package io.fluxdrm.cli.bench;
