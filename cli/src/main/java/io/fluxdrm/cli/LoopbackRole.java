package io.fluxdrm.cli;

import io.fluxdrm.rpc.Credentials;

/**
 * The {@code --tcp-loopback-role} option of every command that listens (issue 12, finding 5;
 * decision D330): a {@code tcp://} loopback listener without CURVE cannot tell one local user from
 * another, so its peers are guests of unknown uid unless the operator says they are owners.
 */
final class LoopbackRole {
  /** The option's name, for messages. */
  static final String OPTION = "--tcp-loopback-role";

  /** The option's description, shared by the commands. */
  static final String DESCRIPTION =
      "The role of every peer of --listen tcp:// without CURVE, which cannot tell one local"
          + " user from another: guest (default; user role, uid unknown) or owner (every local"
          + " user who connects is the instance owner; on a host with several users give owner"
          + " access through --listen unix:DIR instead)";

  private LoopbackRole() {}

  /**
   * Returns the credentials every peer of the listener gets, or null for a listener that identifies
   * its peers itself (a Unix socket, CURVE).
   *
   * @param role the option's value, or null when it was not given
   * @param listen the listen endpoint
   * @param curve whether the listener has CURVE keys
   * @param ownerUid the instance owner's uid
   * @throws CliError for a value other than guest or owner, or the option where it means nothing
   */
  static Credentials credentials(String role, String listen, boolean curve, int ownerUid) {
    if (role == null) {
      return curve || !io.fluxdrm.rpc.endpoint.Endpoint.isTcp(listen)
          ? null
          : Credentials.unknownGuest();
    }
    if (!role.equals("guest") && !role.equals("owner")) {
      throw CliError.usage(OPTION + ": \"" + role + "\" (expected: guest or owner)");
    }
    if (!io.fluxdrm.rpc.endpoint.Endpoint.isTcp(listen)) {
      throw CliError.usage(
          OPTION
              + ": not with --listen "
              + listen
              + " (expected: --listen tcp://HOST:PORT; a Unix-socket hub knows each peer's uid)");
    }
    if (curve) {
      throw CliError.usage(
          OPTION + ": not with --curve-cert (expected: the clients file gives each key its role)");
    }
    return role.equals("owner") ? Credentials.owner(ownerUid) : Credentials.unknownGuest();
  }
}
