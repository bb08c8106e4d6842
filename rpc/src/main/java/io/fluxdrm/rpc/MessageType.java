package io.fluxdrm.rpc;

/** The four RFC 3 message types with their wire values. */
public enum MessageType {
  /** A request (wire value 1). */
  REQUEST(0x01),
  /** A response (wire value 2). */
  RESPONSE(0x02),
  /** An event (wire value 4). */
  EVENT(0x04),
  /** A control message (wire value 8), peer to peer only. */
  CONTROL(0x08);

  private final int wire;

  MessageType(int wire) {
    this.wire = wire;
  }

  /** Returns the value of the type byte of the proto part. */
  public int wire() {
    return wire;
  }

  /** Returns the lower-case name used in transcripts. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Returns the type of a proto type byte.
   *
   * @throws RpcException EPROTO when the value is not one of 1, 2, 4, 8
   */
  public static MessageType fromWire(int value) {
    return switch (value) {
      case 0x01 -> REQUEST;
      case 0x02 -> RESPONSE;
      case 0x04 -> EVENT;
      case 0x08 -> CONTROL;
      default ->
          throw RpcException.proto(
              String.format("proto type: 0x%02x (expected: 1, 2, 4 or 8)", value & 0xff));
    };
  }

  /** Returns the type with a transcript label such as "request", or null when unknown. */
  static MessageType fromLabel(String label) {
    for (MessageType t : values()) {
      if (t.label().equals(label)) {
        return t;
      }
    }
    return null;
  }
}
