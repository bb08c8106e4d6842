/**
 * The scripted story of {@code fluxdrm demo}: dynamic resource allocation (RFC 51 §Realloc) with
 * the elastic DVM (PRRTE's elastic-DVM spec) played end to end, from an application's {@code
 * PMIx_Allocation_request} through the DVM, the bridge, the PMIx facade, the shell plugin and the
 * job manager to the reference scheduler and back, as a timeline of {@link
 * io.fluxdrm.showcase.demo.Step}s read from the real answers, events and messages (decisions
 * D143–D145, D440–D444), in one JVM or with the parts as processes.
 *
 * <p>Entry point: {@link io.fluxdrm.showcase.demo.Demo}.
 */
package io.fluxdrm.showcase.demo;
