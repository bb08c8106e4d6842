package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.MemoryBudget;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which peers a {@link ZmqHubListener} admits and what each may hold (issue 31, scope 5): the
 * connection cap at accept, the CURVE keys allowed through the handshake, the credentials each peer
 * gets, the identities no client may claim, the connections per key, and the memory budgets of
 * incomplete frames (issue 12, findings 1, 5, 9 and 10). It holds the counts these rules read; the
 * listener does the I/O and the routing. A peer's key is its CURVE long-term key; without CURVE
 * nothing tells one local peer from another, so each connection is a key of its own (decision
 * D209). Used on the listener's loop only.
 */
final class ZmqAdmission {
  /** What is decided for a peer whose handshake is done. */
  sealed interface Decision permits Admitted, Refused {}

  /**
   * The peer is admitted and counted against its key.
   *
   * @param credentials what the peer may do
   * @param key what its limits count against ({@link #keyOf})
   * @param client who the client is: its CURVE key, or empty without CURVE, where the credentials
   *     alone tell (D221)
   * @param budgets the memory budgets its incomplete frames count against from now on
   */
  record Admitted(Credentials credentials, String key, String client, List<MemoryBudget> budgets)
      implements Decision {}

  /**
   * The peer is refused: its connection is closed.
   *
   * @param reason why, lower case, for the log
   */
  record Refused(String reason) implements Decision {}

  private final ZmqHubSettings.Options options;
  private final MemoryBudget memory;
  private final Map<String, MemoryBudget> keyMemory = new HashMap<>();
  private final Map<String, Integer> perKey = new HashMap<>();

  ZmqAdmission(ZmqHubSettings.Options options) {
    this.options = options;
    this.memory = new MemoryBudget("listener frame memory", options.limits().memory());
  }

  /**
   * Returns whether a new connection may be taken while {@code open} are: beyond the cap it is
   * closed before any byte is read or any key made, which bounds descriptors and memory.
   */
  boolean roomFor(int open) {
    return open < options.limits().maxConnections();
  }

  /** Returns whether a client's CURVE long-term key may finish its handshake. */
  boolean allows(byte[] clientKey) {
    return options.curve() != null && options.curve().clients().containsKey(Z85.encode(clientKey));
  }

  /** Returns the budgets of a connection whose handshake is not done: the listener's. */
  List<MemoryBudget> handshakeBudgets() {
    return List.of(memory);
  }

  /**
   * Decides on a peer whose handshake is done and, when admitted, counts it against its key.
   *
   * @param peerKey its CURVE long-term key, or null without CURVE
   * @param identity the Identity property of its READY or INITIATE, or null
   * @param serial which accepted connection it is (the key of a NULL peer)
   */
  Decision admit(byte[] peerKey, byte[] identity, long serial) {
    Credentials c = credentialsOf(peerKey);
    if (c == null) {
      // the mechanism admits only mapped keys: this is a safety net, never the normal path
      return new Refused("no credentials for the peer");
    }
    if (identity != null && identity.length > 0 && identity[0] == 0) {
      // ZMTP 3.1 / libzmq: a leading zero byte is reserved for the routing ids a ROUTER makes
      // itself; a client that claims one could pose as an anonymous peer (D221)
      return new Refused(
          "identity starts with the reserved byte 0x00 (expected: a client's identity"
              + " starts with another byte)");
    }
    String key = keyOf(peerKey, serial);
    int open = perKey.getOrDefault(key, 0);
    if (open >= options.limits().maxPerKey()) {
      return new Refused(open + " connections of key " + key + " open, the limit");
    }
    perKey.put(key, open + 1);
    MemoryBudget own =
        keyMemory.computeIfAbsent(
            key,
            k -> new MemoryBudget("frame memory of key " + k, options.limits().memoryPerKey()));
    return new Admitted(c, key, peerKey != null ? key : "", List.of(memory, own));
  }

  /**
   * Returns the key a peer's limits count against: its CURVE key, or without CURVE its connection
   * (the {@code serial}-th accepted). A NULL peer proves nothing about who it is, and all of them
   * share the loopback credentials: counted as one key, one local peer holding one large frame, or
   * 256 connections, would leave every other local peer without memory or connections (D209).
   */
  static String keyOf(byte[] peerKey, long serial) {
    return peerKey != null ? Z85.encode(peerKey) : "connection " + serial;
  }

  /** Returns the credentials of a peer: its CURVE key's, or the loopback ones without CURVE. */
  private Credentials credentialsOf(byte[] peerKey) {
    if (options.curve() == null) {
      return options.loopbackCredentials();
    }
    return peerKey == null ? null : options.curve().clients().get(Z85.encode(peerKey));
  }

  /** Counts an admitted peer of {@code key} gone (once per peer). */
  void release(String key) {
    perKey.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
    MemoryBudget b = keyMemory.get(key);
    if (b != null && b.used() == 0 && !perKey.containsKey(key)) {
      keyMemory.remove(key);
    }
  }

  /** Returns how many admitted peers of {@code key} are open. */
  int open(String key) {
    return perKey.getOrDefault(key, 0);
  }

  /** Returns the bytes the incomplete frames of {@code key}'s connections hold. */
  long frameMemoryOf(String key) {
    MemoryBudget b = keyMemory.get(key);
    return b == null ? 0 : b.used();
  }

  /** Returns the bytes the incomplete frames of all connections hold. */
  long frameMemory() {
    return memory.used();
  }
}
