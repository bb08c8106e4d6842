package io.fluxdrm.dvm.core;

/** A node as the core keeps it (mutable, core-confined). */
final class NodeRec {
  final String host;
  int slots;
  DaemonState daemon;
  SessionRec session;

  /** Slots taken by live processes. */
  int used;

  /** The rank of its daemon, given when the daemon is started (seed 003); -1 before. */
  long rank = -1;

  NodeRec(String host, int slots, DaemonState daemon, SessionRec session) {
    this.host = host;
    this.slots = slots;
    this.daemon = daemon;
    this.session = session;
  }

  DvmView.NodeView view() {
    return new DvmView.NodeView(host, slots, daemon, session.id);
  }
}
