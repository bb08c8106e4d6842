package io.fluxdrm.shell.core;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellException;
import java.util.ArrayList;
import java.util.List;

/**
 * The pure core of one job's shell plugin (RFC 51 §Realloc and its release through shell.release):
 * the job's R and the granted shrinks it still has to hand back. Events in ({@link #checkGrant},
 * {@link #granted}, {@link #exited}, {@link #released}, {@link #releaseFailed}), decisions out
 * ({@link Release}); no clock, no socket, no thread. The service binds it to the shell topics and
 * the job manager.
 */
public final class ShellCore {

  /** Decision: hand {@code ranks} of shrink {@code shrink} back ({@code job-manager.release}). */
  public record Release(long shrink, ResourceSet r) {}

  /** The outcome of a task-exit: the shrinks it touched and the releases it decides. */
  public record Exited(List<Long> touched, List<Release> releases) {}

  private static final class Shrink {
    final long id;
    ResourceSet r;
    IdSet exited = IdSet.empty();
    boolean sent;

    Shrink(long id, ResourceSet r) {
      this.id = id;
      this.r = r;
    }
  }

  private ResourceSet r;
  private final List<Shrink> shrinks = new ArrayList<>();
  private long nextShrink = 1;

  /** A core holding the job's initial {@code r}. */
  public ShellCore(ResourceSet r) {
    this.r = r;
  }

  /** The job's R, resources being released included. */
  public ResourceSet r() {
    return r;
  }

  /** What the job was granted to give back and has not handed back yet. */
  public ResourceSet releasing() {
    ResourceSet out = ResourceSet.empty();
    for (Shrink s : shrinks) {
      out = out.union(s.r);
    }
    return out;
  }

  /**
   * Checks a SUCCESS answer's deltas against the state (RFC 51 realloc response: R_delta_add must
   * be new, R_delta_sub held and not already being released); changes nothing.
   *
   * @throws ShellException EPROTO, located at the payload key
   */
  public void checkGrant(ResourceSet add, ResourceSet sub) {
    if (add.isEmpty() && sub.isEmpty()) {
      throw new ShellException(
          Errno.EPROTO, "/: SUCCESS without R_delta_add or R_delta_sub (expected: one of them)");
    }
    if (!add.intersect(r).isEmpty()) {
      throw new ShellException(
          Errno.EPROTO,
          "/R_delta_add: "
              + add.summary()
              + " overlaps the job's "
              + r.summary()
              + " (expected: new resources)");
    }
    ResourceSet held = r.diff(releasing());
    if (!sub.diff(held).isEmpty()) {
      throw new ShellException(
          Errno.EPROTO,
          "/R_delta_sub: "
              + sub.summary()
              + " is not held by the job (expected: a subset of "
              + held.summary()
              + ")");
    }
  }

  /**
   * A checked SUCCESS: {@code add} joins R at once; {@code sub} is marked as being released, merged
   * into a shrink not yet sent that shares a rank, else a new shrink.
   */
  public void granted(ResourceSet add, ResourceSet sub) {
    checkGrant(add, sub);
    if (!add.isEmpty()) {
      r = r.union(add);
    }
    if (sub.isEmpty()) {
      return;
    }
    for (Shrink sh : shrinks) {
      if (!sh.sent && sh.r.ranks().intersects(sub.ranks())) {
        sh.r = sh.r.union(sub);
        return;
      }
    }
    shrinks.add(new Shrink(nextShrink++, sub));
  }

  /**
   * The tasks on {@code ranks} exited (RFC 51 shell.release / task-exit): every shrink whose ranks
   * have all exited is decided to be released.
   *
   * @throws ShellException EINVAL when a rank is not being released (nothing changes then)
   */
  public Exited exited(String where, IdSet ranks) {
    IdSet being = releasing().ranks();
    if (ranks.isEmpty() || !ranks.isSubsetOf(being)) {
      throw new ShellException(
          Errno.EINVAL,
          where
              + ": ranks "
              + (ranks.isEmpty() ? "(none)" : ranks.toString())
              + " (expected: ranks being released: "
              + (being.isEmpty() ? "none" : being.toString())
              + ")");
    }
    List<Long> touched = new ArrayList<>();
    List<Release> releases = new ArrayList<>();
    for (Shrink s : shrinks) {
      if (!s.r.ranks().intersects(ranks)) {
        continue;
      }
      s.exited = s.exited.union(ranks.intersection(s.r.ranks()));
      touched.add(s.id);
      if (s.r.ranks().isSubsetOf(s.exited) && !s.sent) {
        s.sent = true;
        releases.add(new Release(s.id, s.r));
      }
    }
    return new Exited(List.copyOf(touched), List.copyOf(releases));
  }

  /** The job manager took shrink {@code id} back: it leaves R. */
  public ResourceSet released(long id) {
    Shrink s = find(id);
    shrinks.remove(s);
    r = r.diff(s.r);
    return s.r;
  }

  /** The job manager refused shrink {@code id}: it stays, to be sent again on the next exit. */
  public void releaseFailed(long id) {
    find(id).sent = false;
  }

  private Shrink find(long id) {
    for (Shrink s : shrinks) {
      if (s.id == id) {
        return s;
      }
    }
    throw new IllegalStateException("shrink " + id + ": not pending");
  }
}
