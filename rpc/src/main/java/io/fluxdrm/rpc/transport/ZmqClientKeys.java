package io.fluxdrm.rpc.transport;

/**
 * CURVE keys of a ZeroMQ client (all Z85).
 *
 * @param serverPublicKey the hub's public key
 * @param publicKey the client's public key (the hub maps it to credentials)
 * @param secretKey the client's secret key
 */
public record ZmqClientKeys(String serverPublicKey, String publicKey, String secretKey) {}
