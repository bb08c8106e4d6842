package io.fluxdrm.rpc;

/**
 * The identity a transport vouches for (decision D16): a userid and a rolemask.
 *
 * @param userid the Unix uid of the peer
 * @param rolemask the RFC 3 roles ({@link Flags#ROLE_OWNER}, {@link Flags#ROLE_USER}, ...)
 */
public record Credentials(int userid, int rolemask) {
  /** Returns owner credentials for a uid: OWNER and LOCAL, as flux-core's connector grants. */
  public static Credentials owner(int uid) {
    return new Credentials(uid, Flags.ROLE_OWNER | Flags.ROLE_LOCAL);
  }

  /** Returns guest credentials for a uid: USER and LOCAL. */
  public static Credentials user(int uid) {
    return new Credentials(uid, Flags.ROLE_USER | Flags.ROLE_LOCAL);
  }

  /**
   * Returns the credentials of a peer nothing identifies: a guest (USER and LOCAL) whose uid is
   * {@link Flags#USERID_UNKNOWN}, as every peer of a ZeroMQ listener without CURVE is by default
   * (decision D330). It acts for no real user's jobs ({@link #mayActFor} holds for no uid a job can
   * carry) and registers services and publishes events only under {@code 4294967295-}.
   */
  public static Credentials unknownGuest() {
    return user(Flags.USERID_UNKNOWN);
  }

  /** Returns whether the owner role is held. */
  public boolean isOwner() {
    return (rolemask & Flags.ROLE_OWNER) != 0;
  }

  /** Returns whether these credentials may act for a resource of {@code uid}: owner or same uid. */
  public boolean mayActFor(int uid) {
    return isOwner() || userid == uid;
  }
}
