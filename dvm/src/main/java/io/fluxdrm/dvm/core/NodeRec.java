package io.fluxdrm.dvm.core;

/**
 * A node as the core keeps it (mutable, core-confined). Its daemon state, slots and used slots are
 * changed only through {@link #setDaemon}, {@link #setSlots}, {@link #claim} and {@link #release},
 * and its membership only through {@link SessionRec#addNode} and {@link SessionRec#removeNode}, so
 * that its session's free-slot index ({@link SessionRec#free}) follows (decision D416).
 */
final class NodeRec {
  final String host;
  int slots;
  DaemonState daemon;
  SessionRec session;

  /** Slots taken by live processes. */
  int used;

  /** The jobs with processes (live or mapped) on it, with how many: kept by {@link JobRec}. */
  final java.util.Map<JobRec, Integer> jobsOn = new java.util.HashMap<>();

  /** Slots the job being mapped has placed on it so far, not yet claimed (0 between jobs). */
  int tentative;

  /**
   * The rank of its daemon, given when the daemon is started (PRRTE's elastic-DVM spec); -1 before.
   */
  long rank = -1;

  /** The session whose node set holds it (null while in none); indexed there. */
  SessionRec member;

  /** Its position in {@link #member}'s node order, given when it joined. */
  long seq;

  /** Whether it is in {@link #member}'s free-slot index. */
  boolean indexedFree;

  /** Whether it is counted among {@link #member}'s starting daemons. */
  boolean indexedStarting;

  /**
   * While leaving: the daemon state it had when its stop was decided, and the session a release
   * took it from (null when it should go back to the pool): where it returns if the stop cannot be
   * sent (scenario D20, decision D415).
   */
  DaemonState beforeLeaving;

  SessionRec leftFrom;

  NodeRec(String host, int slots, DaemonState daemon, SessionRec session) {
    this.host = host;
    this.slots = slots;
    this.daemon = daemon;
    this.session = session;
  }

  /** Whether it has a slot free and its daemon up: a first-fit candidate of its session. */
  boolean hasFreeSlot() {
    return daemon == DaemonState.UP && used < slots;
  }

  void setDaemon(DaemonState d) {
    daemon = d;
    reindex();
  }

  void setSlots(int s) {
    slots = s;
    reindex();
  }

  /** One slot taken by a placed process. */
  void claim() {
    used++;
    reindex();
  }

  /** One slot given back (a process ended, or a map was undone). */
  void release() {
    used--;
    reindex();
  }

  /** Brings {@link #member}'s index in line with this node's state. */
  void reindex() {
    SessionRec m = member;
    boolean free = m != null && hasFreeSlot();
    if (free != indexedFree) {
      if (free) {
        m.free.put(seq, this);
      } else {
        m.free.remove(seq);
      }
      indexedFree = free;
    }
    boolean starting = m != null && daemon == DaemonState.STARTING;
    if (starting != indexedStarting) {
      m.starting += starting ? 1 : -1;
      indexedStarting = starting;
    }
  }

  DvmView.NodeView view() {
    return new DvmView.NodeView(host, slots, daemon, session.id);
  }
}
