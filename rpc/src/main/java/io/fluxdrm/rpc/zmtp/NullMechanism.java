package io.fluxdrm.rpc.zmtp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The NULL security mechanism (RFC 37 section "The NULL Security Mechanism"): each side sends one
 * READY command with its metadata (Socket-Type, and Identity, the routing id a ROUTER peer may use)
 * and the handshake is done once the peer's READY has arrived. An ERROR from the peer ends it.
 * Frames pass unchanged.
 */
public final class NullMechanism implements Mechanism {
  /** The Socket-Type property. */
  public static final String SOCKET_TYPE = "Socket-Type";

  /** The Identity property. */
  public static final String IDENTITY = "Identity";

  private final SocketType type;
  private final byte[] identity;
  private Map<String, byte[]> peer = Map.of();
  private boolean done;

  /**
   * Creates this side's mechanism.
   *
   * @param type this side's socket type
   * @param identity the routing id announced in the Identity property (empty: none)
   */
  public NullMechanism(SocketType type, byte[] identity) {
    if (identity.length > 255) {
      throw new IllegalArgumentException("identity of at most 255 bytes expected");
    }
    this.type = type;
    this.identity = identity.clone();
  }

  @Override
  public String name() {
    return "NULL";
  }

  @Override
  public boolean asServer() {
    return false;
  }

  @Override
  public List<byte[]> start() {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put(SOCKET_TYPE, type.property());
    md.put(IDENTITY, identity);
    return List.of(Command.of(Command.READY, Metadata.encode(md)));
  }

  @Override
  public List<byte[]> onHandshakeCommand(byte[] body) throws ZmtpException {
    String name = Command.name(body);
    if (name.equals(Command.ERROR)) {
      throw new ZmtpException("peer refused the handshake: " + Command.errorReason(body));
    }
    if (!name.equals(Command.READY)) {
      throw new ZmtpException("NULL handshake: command " + name + " (expected: READY)");
    }
    if (done) {
      throw new ZmtpException("NULL handshake: a second READY (expected: one)");
    }
    int at = Command.dataOffset(body);
    peer = Metadata.decode(body, at, body.length - at);
    done = true;
    return List.of();
  }

  @Override
  public boolean done() {
    return done;
  }

  @Override
  public Map<String, byte[]> peerMetadata() {
    return peer;
  }

  @Override
  public byte[] peerKey() {
    return null;
  }

  @Override
  public Frame encode(Frame plain) {
    return plain;
  }

  @Override
  public Frame decode(Frame wire) {
    return wire;
  }
}
