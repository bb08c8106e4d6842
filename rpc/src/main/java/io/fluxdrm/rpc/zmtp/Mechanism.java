package io.fluxdrm.rpc.zmtp;

import java.util.List;
import java.util.Map;

/**
 * One side of one connection's ZMTP security mechanism: the handshake after the greetings, then the
 * sealing of every frame. Not thread-safe; a fresh instance per connection.
 *
 * <p>The engine that drives it: sends its greeting (with {@link #name()} and {@link #asServer()}),
 * checks the peer's; writes the commands of {@link #start()}; then feeds every command frame it
 * reads to {@link #onHandshakeCommand} and writes what comes back, until {@link #done()}. After
 * that every frame it writes goes through {@link #encode} and every frame it reads through {@link
 * #decode}; heartbeat commands (PING, PONG) too.
 */
public interface Mechanism {
  /** The mechanism's name in the greeting: {@code "NULL"} or {@code "CURVE"}. */
  String name();

  /** Whether this side is the server of the handshake (the greeting's as-server flag). */
  boolean asServer();

  /**
   * Returns the command bodies this side sends as soon as the greetings are exchanged (NULL: its
   * READY; CURVE client: HELLO; CURVE server: none).
   */
  List<byte[]> start();

  /**
   * Takes one command body received during the handshake and returns the command bodies to send in
   * answer (possibly none).
   *
   * @throws ZmtpException when the command is malformed, unexpected at this point, an ERROR from
   *     the peer, or refused (a key not allowed, a box that does not open); the engine then closes
   */
  List<byte[]> onHandshakeCommand(byte[] body) throws ZmtpException;

  /** Whether the handshake is complete in both directions. */
  boolean done();

  /**
   * Returns the metadata properties the peer sent in its READY or INITIATE (names as received, e.g.
   * {@code Socket-Type}, {@code Identity}); empty before {@link #done()}.
   */
  Map<String, byte[]> peerMetadata();

  /**
   * Returns the key the mechanism authenticated the peer by (CURVE server: the client's long-term
   * public key, 32 bytes), or null (NULL; a CURVE client).
   */
  byte[] peerKey();

  /** Seals a frame to write after the handshake (NULL: the frame itself). */
  Frame encode(Frame plain);

  /**
   * Opens a frame read after the handshake (NULL: the frame itself).
   *
   * @throws ZmtpException when the frame is not a valid sealed frame (bad box, reused nonce)
   */
  Frame decode(Frame wire) throws ZmtpException;

  /**
   * Wipes the secrets this side still holds (CURVE: the short-term secret key and the box keys of
   * the handshake and the session); the engine calls it when the connection closes, whatever the
   * reason. Afterwards the mechanism seals, opens and answers nothing. NULL holds no secret.
   */
  default void wipe() {}
}
