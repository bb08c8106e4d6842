/**
 * ZeroMQ's wire protocol, ZMTP 3.1 (ZeroMQ RFC 37, which ZMTP 3.0 peers also speak), and its
 * security mechanisms NULL and CURVE (ZeroMQ RFC 26, CurveZMQ), as pure code: greetings, frames,
 * commands and metadata, and each mechanism's handshake and frame sealing. No socket and no thread
 * here; {@code io.fluxdrm.rpc.net} drives it on the reactor.
 */
package io.fluxdrm.rpc.zmtp;
