package io.fluxdrm.rpc.zmtp;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The ZeroMQ socket types this engine plays, and the peer types each accepts (RFC 37 section
 * "Socket Types" and RFC 28): a ROUTER talks to DEALER, REQ and ROUTER peers, a DEALER to ROUTER,
 * REP and DEALER peers.
 */
public enum SocketType {
  /** The client side: asynchronous requests to one peer at a time. */
  DEALER(Set.of("ROUTER", "REP", "DEALER")),
  /** The server side: messages from many peers, each by its routing id. */
  ROUTER(Set.of("DEALER", "REQ", "ROUTER"));

  private final Set<String> peers;

  SocketType(Set<String> peers) {
    this.peers = peers;
  }

  /** Returns the value of the Socket-Type property: the type's name in ASCII. */
  public byte[] property() {
    return name().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Checks the Socket-Type property a peer sent.
   *
   * @throws ZmtpException when it is missing or not a type this one talks to
   */
  public void checkPeer(byte[] peerType) throws ZmtpException {
    if (peerType == null) {
      throw new ZmtpException(
          "READY: no Socket-Type property (expected: one of " + String.join(", ", sorted()) + ")");
    }
    String t = new String(peerType, StandardCharsets.ISO_8859_1);
    if (!peers.contains(t)) {
      StringBuilder shown = new StringBuilder();
      for (char c : t.toCharArray()) {
        shown.append(c >= 0x20 && c < 0x7f ? c : '?');
      }
      throw new ZmtpException(
          "socket type "
              + shown
              + " cannot talk to a "
              + name()
              + " (expected: one of "
              + String.join(", ", sorted())
              + ")");
    }
  }

  private java.util.List<String> sorted() {
    return peers.stream().sorted().toList();
  }
}
