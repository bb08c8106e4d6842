package io.fluxdrm.rpc;

/** RFC 3 message flag bits, and the role and id constants that travel in the proto part. */
public final class Flags {
  /** The message has a topic part. */
  public static final int TOPIC = 0x01;

  /** The message has a payload part. */
  public static final int PAYLOAD = 0x02;

  /** The request expects no response. */
  public static final int NORESPONSE = 0x04;

  /** The message has a route stack (possibly empty) and its delimiter. */
  public static final int ROUTE = 0x08;

  /** The request goes to the sender's parent (nodeid is the sender's rank). */
  public static final int UPSTREAM = 0x10;

  /** The event goes only to the instance owner and the sender. */
  public static final int PRIVATE = 0x20;

  /** The request (and its responses) belong to a streaming RPC. */
  public static final int STREAMING = 0x40;

  /** A user-defined flag. */
  public static final int USER1 = 0x80;

  /** Unknown userid. */
  public static final int USERID_UNKNOWN = 0xffffffff;

  /** No role. */
  public static final int ROLE_NONE = 0;

  /** The instance owner. */
  public static final int ROLE_OWNER = 1;

  /** A guest user. */
  public static final int ROLE_USER = 2;

  /** A connection from the local host. */
  public static final int ROLE_LOCAL = 4;

  /** An administrator. */
  public static final int ROLE_ADMIN = 8;

  /** Every role. */
  public static final int ROLE_ALL = 0xffffffff;

  /** Any node. */
  public static final int NODEID_ANY = 0xffffffff;

  /** No matchtag. */
  public static final int MATCHTAG_NONE = 0;

  private Flags() {}

  /** Returns the flags as a list of names joined by "|", e.g. "TOPIC|PAYLOAD|ROUTE". */
  public static String describe(int flags) {
    String[] names = {
      "TOPIC", "PAYLOAD", "NORESPONSE", "ROUTE", "UPSTREAM", "PRIVATE", "STREAMING", "USER1"
    };
    StringBuilder sb = new StringBuilder();
    for (int bit = 0; bit < names.length; bit++) {
      if ((flags & (1 << bit)) != 0) {
        if (sb.length() > 0) {
          sb.append('|');
        }
        sb.append(names[bit]);
      }
    }
    return sb.toString();
  }
}
