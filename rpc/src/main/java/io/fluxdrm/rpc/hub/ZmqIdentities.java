package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing identities of a {@link ZmqHubListener}'s peers: the peers by identity, and which
 * identity a peer whose handshake is done is routed under (D175, D189, D221). Used on the
 * listener's loop only.
 */
final class ZmqIdentities {
  /** Logged under the listener's name, as before identity assignment left it (D542). */
  private static final Logger LOG = LoggerFactory.getLogger(ZmqHubListener.class);

  private final Hub hub;
  private final SecureRandom random;
  private final Map<String, ZmqPeer> peers = new HashMap<>();

  ZmqIdentities(Hub hub, SecureRandom random) {
    this.hub = hub;
    this.random = random;
  }

  /**
   * Returns the identity a new peer is routed under: the one it announced ({@code identity}, null
   * or empty for none), or a generated one when it announced none or another client holds it. A
   * peer of this listener that holds the identity for the same client is closed: the new one takes
   * it over.
   *
   * @param name the new connection's name, for the log
   */
  String assign(byte[] identity, Credentials credentials, String client, String name) {
    String id =
        identity == null || identity.length == 0
            ? generatedId()
            : new String(identity, StandardCharsets.ISO_8859_1);
    ZmqPeer old = peers.get(id);
    if (old != null && !old.sameClient(credentials, client)) {
      // an identity is handed over only to the same CURVE key with the same credentials (without
      // CURVE: the same loopback credentials); anyone else is routed under a fresh id and the
      // holder keeps its connection and its responses (D221)
      String taken = id;
      id = generatedId();
      old = null;
      LOG.warn(
          "{}: identity {} belongs to another client; routed as {}",
          name,
          printable(taken),
          printable(id));
    } else if (old == null && hub.router().hasPeer(id)) {
      // held by a peer of another listener or transport: only this listener's own peers are
      // taken over, so that no connection can oust a peer it shares nothing with (D189)
      String taken = id;
      id = generatedId();
      LOG.info(
          "{}: identity {} is in use by a peer of another listener; routed as {}",
          name,
          printable(taken),
          printable(id));
    }
    if (old != null) {
      LOG.info(
          "zeromq peer {}: a new connection ({}) of the same client takes its identity over;"
              + " old one closed",
          printable(id),
          name);
      old.close("identity taken over");
    }
    return id;
  }

  /** Routes a peer under its identity. */
  void put(ZmqPeer p) {
    peers.put(p.id, p);
  }

  /** Forgets a peer, unless another holds its identity by now. */
  void remove(ZmqPeer p) {
    peers.remove(p.id, p);
  }

  /** Returns the peers. */
  List<ZmqPeer> all() {
    return List.copyOf(peers.values());
  }

  /**
   * Returns a ZeroMQ-style routing id that no peer of the hub uses: the reserved byte 0x00 (which
   * no client may claim) and 8 bytes from SecureRandom, so that no peer can guess another's id and
   * claim it (D221).
   */
  private String generatedId() {
    while (true) {
      byte[] b = new byte[9];
      random.nextBytes(b);
      b[0] = 0;
      String id = new String(b, StandardCharsets.ISO_8859_1);
      if (!peers.containsKey(id) && !hub.router().hasPeer(id)) {
        return id;
      }
    }
  }

  static String printable(String id) {
    return id.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f) ? id : "(binary identity)";
  }
}
