/**
 * How messages travel between a handle and a hub or broker: the {@link
 * io.fluxdrm.rpc.transport.Connector} a handle sends through, the Flux local connector over a Unix
 * socket ({@link io.fluxdrm.rpc.transport.LocalConnector}, framed by {@link
 * io.fluxdrm.rpc.LocalFraming}), and ZeroMQ ({@link io.fluxdrm.rpc.transport.ZmqConnector}, ZMTP
 * 3.1 spoken by {@link io.fluxdrm.rpc.transport.ZmtpConnection} on the reactor). The in-memory link
 * lives with the hub, whose peer it is.
 */
package io.fluxdrm.rpc.transport;
