/**
 * The hub: the {@link io.fluxdrm.rpc.hub.Router} that routes requests by service name as Flux's
 * broker does, answers {@code service.*} and {@code event.*}, and tells when a service is removed;
 * its {@link io.fluxdrm.rpc.hub.Peer}s, attached in memory ({@link
 * io.fluxdrm.rpc.hub.InMemoryLink}), on a Unix socket ({@link io.fluxdrm.rpc.hub.LocalHubListener},
 * SO_PEERCRED uids through {@link io.fluxdrm.rpc.hub.Uids}) or over ZeroMQ ({@link
 * io.fluxdrm.rpc.hub.ZmqHubListener}, NULL on loopback or CURVE). Identity comes from the transport
 * (decision D16), never from a message.
 */
package io.fluxdrm.rpc.hub;
