package io.fluxdrm.rpc.net;

import io.fluxdrm.rpc.Flags;

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

  /** Returns whether the owner role is held. */
  public boolean isOwner() {
    return (rolemask & Flags.ROLE_OWNER) != 0;
  }

  /** Returns whether these credentials may act for a resource of {@code uid}: owner or same uid. */
  public boolean mayActFor(int uid) {
    return isOwner() || userid == uid;
  }
}
