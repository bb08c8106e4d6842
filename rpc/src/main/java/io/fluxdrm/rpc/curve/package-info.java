/**
 * CurveZMQ (ZeroMQ RFC 26), the CURVE security mechanism of ZMTP: the client and server handshakes,
 * the frame sealing of a session ({@code CurveCodec}), the NaCl primitives they use (X25519,
 * XSalsa20-Poly1305 through Bouncy Castle), long-term {@link io.fluxdrm.rpc.curve.CurveKeyPair}s
 * and the {@link io.fluxdrm.rpc.curve.Z85} text of keys. Pure code on top of {@code
 * io.fluxdrm.rpc.zmtp}; secrets are zeroed once they serve no more (D207, D210, D331).
 */
package io.fluxdrm.rpc.curve;
