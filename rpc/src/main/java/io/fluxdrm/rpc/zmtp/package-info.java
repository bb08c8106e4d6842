/**
 * ZeroMQ's wire protocol, ZMTP 3.1 (ZeroMQ RFC 37, which ZMTP 3.0 peers also speak), as pure code:
 * greetings, frames, commands, metadata, heartbeats and the {@link io.fluxdrm.rpc.zmtp.Mechanism}
 * interface with its NULL mechanism. No socket and no thread here; {@code io.fluxdrm.rpc.transport}
 * drives it on the reactor, {@code io.fluxdrm.rpc.curve} adds the CURVE mechanism.
 */
package io.fluxdrm.rpc.zmtp;
