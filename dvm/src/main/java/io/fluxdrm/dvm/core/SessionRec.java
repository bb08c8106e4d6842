package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.PmixProc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/** A session as the core keeps it (mutable, core-confined); the default one has no flags. */
final class SessionRec {
  final long id;
  final String allocId;
  final Optional<String> reqId;
  final LinkedHashSet<NodeRec> nodes = new LinkedHashSet<>();

  /**
   * The free-slot index (decision D416): the nodes of {@link #nodes} whose daemon is up and which
   * have a free slot, by their position in {@link #nodes}, so that first fit visits them in the
   * same order as a scan of {@link #nodes} would and skips the full ones.
   */
  final TreeMap<Long, NodeRec> free = new TreeMap<>();

  /** How many nodes of {@link #nodes} have a starting daemon (a job of the session waits). */
  int starting;

  private long nextSeq;
  final LinkedHashSet<JobRec> jobs = new LinkedHashSet<>();
  final LinkedHashSet<Long> children = new LinkedHashSet<>();
  SessionRec parent;
  final Set<String> owners = new LinkedHashSet<>();
  String owner;
  Long ownerUid;
  AllocInheritance inheritance = AllocInheritance.DEFAULT;
  final EnumSet<DvmView.SessionFlag> flags = EnumSet.noneOf(DvmView.SessionFlag.class);
  Duration timeLimit;
  long timerId = -1;
  final List<DvmView.JobResult> results = new ArrayList<>();

  /** The last requester, the target of the session's directed events. */
  PmixProc requestor;

  /** Whether the nodes go back to the scheduler (not the pool) when reclaimed. */
  boolean handBack;

  /** Whether it is reclaimed, without killing anything, once its last job retires. */
  boolean releaseWhenEmpty;

  /** Whether it was made by PMIX_SESSION_INSTANTIATE (not by an allocation request). */
  boolean instantiated;

  /** Whether its owner namespace has ended. */
  boolean ownerGone;

  /** Whether it was reclaimed (a late event about it is then ignored). */
  boolean reclaimed;

  SessionRec(long id, String allocId, Optional<String> reqId) {
    this.id = id;
    this.allocId = allocId;
    this.reqId = reqId;
  }

  /** Adds {@code n} at the end of the node order (kept in place if already there). */
  void addNode(NodeRec n) {
    if (n.member != null && n.member != this) {
      throw new IllegalStateException(
          "node " + n.host + " joins session " + id + " while in session " + n.member.id);
    }
    if (nodes.add(n)) {
      n.member = this;
      n.seq = nextSeq++;
    }
    n.reindex();
  }

  /** Removes {@code n} from the node set and the index. */
  void removeNode(NodeRec n) {
    if (!nodes.remove(n)) {
      return;
    }
    if (n.indexedFree) {
      free.remove(n.seq);
      n.indexedFree = false;
    }
    if (n.indexedStarting) {
      starting--;
      n.indexedStarting = false;
    }
    n.member = null;
  }

  boolean isDefault() {
    return id == DvmView.DEFAULT_SESSION;
  }

  boolean has(DvmView.SessionFlag f) {
    return flags.contains(f);
  }

  DvmView.SessionView view() {
    List<String> hosts = new ArrayList<>(nodes.size());
    for (NodeRec n : nodes) {
      hosts.add(n.host);
    }
    List<String> js = new ArrayList<>(jobs.size());
    for (JobRec j : jobs) {
      js.add(j.nspace);
    }
    return new DvmView.SessionView(
        id,
        allocId,
        reqId,
        hosts,
        js,
        new ArrayList<>(children),
        parent == null ? OptionalLong.empty() : OptionalLong.of(parent.id),
        owners,
        Optional.ofNullable(owner),
        ownerUid == null ? OptionalLong.empty() : OptionalLong.of(ownerUid),
        inheritance,
        flags,
        Optional.ofNullable(timeLimit),
        results);
  }
}
