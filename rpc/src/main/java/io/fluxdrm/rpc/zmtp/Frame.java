package io.fluxdrm.rpc.zmtp;

import java.util.Objects;

/**
 * One ZMTP frame: a message part or a command, and whether more parts of the same message follow.
 *
 * @param body the frame's bytes (for a command: name length, name, then the command's data)
 * @param more whether another part of the same message follows (never for a command)
 * @param command whether this is a command frame rather than a message part
 */
public record Frame(byte[] body, boolean more, boolean command) {
  /** Requires a body; a command never has MORE. */
  public Frame {
    Objects.requireNonNull(body, "body");
    if (command && more) {
      throw new IllegalArgumentException("a command frame cannot have MORE");
    }
  }

  /** Returns a message part. */
  public static Frame part(byte[] body, boolean more) {
    return new Frame(body, more, false);
  }

  /** Returns a command frame. */
  public static Frame command(byte[] body) {
    return new Frame(body, false, true);
  }
}
