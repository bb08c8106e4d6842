package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.transport.ZmtpConnection;

/**
 * A routed peer of a {@link ZmqHubListener}: one connection that finished its handshake. Used on
 * the listener's loop only.
 */
final class ZmqPeer implements Peer {
  private final ZmqHubListener listener;
  final String id;
  final Credentials credentials;
  final ZmtpConnection conn;
  final String key;
  final String client;
  boolean closed;

  /**
   * @param listener the listener whose connection this is
   * @param key what the peer's limits count against ({@link ZmqAdmission#keyOf})
   * @param client who the client is: its CURVE key, or empty without CURVE, where the credentials
   *     alone tell (D221)
   */
  ZmqPeer(
      ZmqHubListener listener,
      String id,
      Credentials credentials,
      ZmtpConnection conn,
      String key,
      String client) {
    this.listener = listener;
    this.id = id;
    this.credentials = credentials;
    this.conn = conn;
    this.key = key;
    this.client = client;
  }

  /**
   * Returns whether a new connection is this peer's own client: same CURVE key (or both without
   * CURVE), same credentials.
   */
  boolean sameClient(Credentials otherCredentials, String otherClient) {
    return credentials.equals(otherCredentials) && client.equals(otherClient);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Credentials credentials() {
    return credentials;
  }

  @Override
  public void send(Message m) {
    conn.send(MessageCodec.toParts(m));
  }

  @Override
  public void close(String why) {
    listener.forget(conn);
    conn.close();
    gone();
  }

  /** The connection is closed: forget the peer and tell the router. */
  void gone() {
    if (closed) {
      return;
    }
    closed = true;
    listener.gone(this);
  }
}
