/**
 * JMH benchmarks of the RFC 51 grow round trip application → shell → job manager → scheduler →
 * application (issue 6): in one JVM on an in-memory hub, and across processes ({@code fluxdrm
 * sched} and {@code fluxdrm bridge}) over ZeroMQ loopback; and {@code fluxdrm plot} on a 1,000-job
 * synthetic transcript (issue 17).
 */
package io.fluxdrm.cli.bench;
