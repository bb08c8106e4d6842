/**
 * A client of a DVM's hub ({@link io.fluxdrm.dvm.client.DvmClient}): one PMIx request over {@link
 * io.fluxdrm.dvm.wire.HubDvmPort} on a connection of its own, its answer, an elastic DVM's
 * second-phase event, and the text or JSON the client commands print of them (decision D373).
 */
package io.fluxdrm.dvm.client;
