/**
 * The scripted story of {@code fluxdrm demo}: RFC 51 dynamic resource allocation (seed 004) played
 * end to end in one JVM, from an application's {@code PMIx_Allocation_request} through the PMIx
 * facade, the shell plugin and the job manager to the reference scheduler and back, as a timeline
 * of {@link io.fluxdrm.cli.demo.Step}s read from the real answers and messages (decisions
 * D143–D146).
 *
 * <p>Entry point: {@link io.fluxdrm.cli.demo.Demo}.
 */
package io.fluxdrm.cli.demo;
