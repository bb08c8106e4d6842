package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocSpecs;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.ShellTopics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.core.ShellCore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PrimitiveIterator;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The job shell's side of RFC 51 for one job: the shell service {@code <uid>-shell-<f58plain
 * jobid>} and the same operations as a Java API.
 *
 * <ul>
 *   <li>{@code realloc {spec_add?, spec_sub?, R?}} goes on as {@code job-manager.realloc {id,
 *       ...}}; a SUCCESS with {@code R_delta_add} joins the job's R at once; a SUCCESS with {@code
 *       R_delta_sub} marks those resources as being released; type UNSUPPORTED or errnum ENOSYS
 *       gives UNSUPPORTED; DENY and CANCEL pass through. The service answers the job manager's
 *       answer plus {@code "R"}, the shell's view of the job's R after it.
 *   <li>{@code task-exit {ranks}} reports that the tasks on ranks being released have exited;
 *       {@code release {ranks}} (RFC 51 {@code shell.release}) says the same and is answered {@code
 *       {"R": R}} once those resources are handed back. A granted shrink is handed back with {@code
 *       job-manager.release {id, ranks, final: false}} only when the tasks on all its ranks have
 *       exited.
 *   <li>{@code realloc_cancel {matchtag}} (or RFC 6 {@code <service>.cancel}) names a pending
 *       realloc of the same sender and becomes {@code job-manager.realloc_cancel} with the plugin's
 *       own matchtag; the realloc is then answered CANCEL.
 * </ul>
 *
 * <p>Only the job's user or the instance owner may call the service (EPERM otherwise). Malformed
 * payloads get EPROTO, ranks that are not being released EINVAL; neither changes any state.
 *
 * <p>The decisions are the pure {@link ShellCore}'s; the handlers of the service are {@link
 * ShellService}'s and the requests to the job manager {@link JobManagerLink}'s, this class holds
 * them together with the Java API.
 *
 * <p>All state lives on the handle's loop: the Java operations may be called from any thread (the
 * work runs on the loop); the accessors read that state and belong on the loop's thread, or to
 * tests driving a manual loop.
 */
public final class ShellPlugin {

  /** The job manager's service name. */
  public static final String JOB_MANAGER = Rfc27Topics.JOB_MANAGER;

  private final long jobId;
  private final int userid;
  private final String serviceName;
  private final ShellCore core;
  private final JobManagerLink link;
  private final Map<Long, CompletableFuture<ResourceSet>> released = new LinkedHashMap<>();
  private EventLoop loop;
  private MessageTap userTap;

  private ShellPlugin(long jobId, int userid, ResourceSet r) {
    this.jobId = jobId;
    this.userid = userid;
    this.core = new ShellCore(r);
    this.link = new JobManagerLink(jobId, core);
    this.serviceName = serviceName(userid, jobId);
  }

  /**
   * The plugin of job {@code jobId} run by user {@code userid}, holding {@code r}.
   *
   * @return a plugin, not started
   */
  public static ShellPlugin create(long jobId, int userid, ResourceSet r) {
    Objects.requireNonNull(r, "R");
    if (r.isEmpty()) {
      throw new IllegalArgumentException("R: empty (expected: the job's resources)");
    }
    return new ShellPlugin(jobId, userid, r);
  }

  /**
   * Takes over a shrink granted before this plugin started (a restarted bridge whose job manager
   * recovered the grant, decision D521): {@code sub} is being released, and a task exit on its
   * ranks hands it back as after any granted shrink. Call before {@link #start}.
   *
   * @param sub the resources granted to give back and not released yet; empty: nothing
   */
  public void adoptReleasing(ResourceSet sub) {
    if (!sub.isEmpty()) {
      core.granted(ResourceSet.empty(), sub);
    }
  }

  /** The shell service name of a job: {@code <uid>-shell-<f58plain jobid>}. */
  public static String serviceName(int userid, long jobId) {
    return ShellTopics.service(userid, jobId);
  }

  /** This job's shell service name. */
  public String serviceName() {
    return serviceName;
  }

  /** The job id. */
  public long jobId() {
    return jobId;
  }

  /** The job's user. */
  public int userid() {
    return userid;
  }

  /**
   * Registers the shell service on {@code h}, which also carries the requests to the job manager.
   */
  public CompletableFuture<Void> start(FluxHandle h) {
    attach(h);
    return h.register(service());
  }

  /**
   * Uses {@code h} for the requests to the job manager without registering anything on it; {@link
   * #service()} is then registered by the caller, possibly on another handle (a replay's hub).
   */
  public void attach(FluxHandle h) {
    Objects.requireNonNull(h, "handle");
    link.attach(h);
    this.loop = h.loop();
    h.addTap(this::tapped);
  }

  /** Also shows every message of the handle to {@code t} (a transcript recorder); null removes. */
  public void tap(MessageTap t) {
    this.userTap = t;
  }

  private void tapped(MessageTap.Direction d, Message m) {
    MessageTap t = userTap;
    if (t != null) {
      t.onMessage(d, m);
    }
  }

  /** The shell service bound to this plugin (after {@link #attach}), for the caller to register. */
  public Service service() {
    return new ShellService(this, link).build();
  }

  // ---- state ------------------------------------------------------------------------------------

  /** The shell's view of the job's R (resources being released included). */
  public ResourceSet r() {
    return core.r();
  }

  /** What the job was granted to give back and has not handed back yet. */
  public ResourceSet releasing() {
    return core.releasing();
  }

  /** The job's rank → host name map (ranks without a host name are left out). */
  public SortedMap<Integer, String> hosts() {
    SortedMap<Integer, String> m = new TreeMap<>();
    ResourceSet r = core.r();
    for (PrimitiveIterator.OfInt it = r.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      String h = r.host(rank);
      if (h != null) {
        m.put(rank, h);
      }
    }
    return Collections.unmodifiableSortedMap(m);
  }

  /** The number of reallocs waiting for the job manager. */
  public int pendingReallocs() {
    return link.pending().size();
  }

  // ---- Java API ---------------------------------------------------------------------------------

  /**
   * Asks the job manager for a change of the job's resources (RFC 51 realloc).
   *
   * @param specAdd a jobspec of resources to add, or null
   * @param specSub a jobspec of resources to remove, or null
   * @param r the resources meant by {@code specSub}, or null
   * @return the answer; fails with {@link ShellException} on bad input (EPROTO) or an error answer
   *     (its errnum)
   */
  public CompletableFuture<Answer> realloc(JsonNode specAdd, JsonNode specSub, ResourceSet r) {
    ReallocSpecs specs;
    try {
      specs =
          new ReallocSpecs(
              specAdd == null ? null : specAdd.deepCopy(),
              specSub == null ? null : specSub.deepCopy(),
              r);
    } catch (ProtocolException e) {
      return CompletableFuture.failedFuture(
          new ShellException(Errno.EPROTO, serviceName + ".realloc: " + e.getMessage()));
    }
    if (loop == null) {
      return CompletableFuture.failedFuture(notStarted());
    }
    JobManagerLink.Pending p = new JobManagerLink.Pending();
    if (loop.inLoop()) {
      link.forward(link.javaKey(), p, specs);
    } else {
      loop.execute(() -> link.forward(link.javaKey(), p, specs));
    }
    return p.answer;
  }

  /**
   * Cancels a realloc started by {@link #realloc} and not answered yet: the job manager is asked to
   * cancel it, and it is then answered CANCEL (or whatever the scheduler decided first).
   *
   * @return whether the realloc was pending
   */
  public CompletableFuture<Boolean> reallocCancel(CompletableFuture<Answer> realloc) {
    return onLoop(
        () -> {
          JobManagerLink.Pending p = link.javaRealloc(realloc);
          if (p != null) {
            link.cancel(p);
          }
          return CompletableFuture.completedFuture(p != null);
        });
  }

  /**
   * Reports that the tasks on {@code ranks} have exited; every granted shrink whose ranks have all
   * exited is handed back to the job manager.
   *
   * @return the job's R once every shrink touching {@code ranks} is handed back; fails with {@link
   *     ShellException} EINVAL when a rank is not being released (nothing changes then)
   */
  public CompletableFuture<ResourceSet> tasksExited(IdSet ranks) {
    Objects.requireNonNull(ranks, "ranks");
    return onLoop(() -> exited(serviceName + "." + ShellTopics.TASK_EXIT_METHOD, ranks));
  }

  private <T> CompletableFuture<T> onLoop(Supplier<CompletableFuture<T>> f) {
    if (loop == null) {
      return CompletableFuture.failedFuture(notStarted());
    }
    return loop.submit(f);
  }

  private ShellException notStarted() {
    return new ShellException(
        Errno.EINVAL, serviceName + ": not started (expected: start the plugin first)");
  }

  // ---- release ----------------------------------------------------------------------------------

  CompletableFuture<ResourceSet> exited(String where, IdSet ranks) {
    try {
      return exitedOrThrow(where, ranks);
    } catch (ShellException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Feeds a task exit to the core (which throws before changing anything) and acts on it. */
  CompletableFuture<ResourceSet> exitedOrThrow(String where, IdSet ranks) {
    ShellCore.Exited x = core.exited(where, ranks);
    List<CompletableFuture<ResourceSet>> waits = new ArrayList<>();
    for (long id : x.touched()) {
      waits.add(released.computeIfAbsent(id, k -> new CompletableFuture<>()));
    }
    for (ShellCore.Release rel : x.releases()) {
      link.release(
          rel,
          err -> {
            CompletableFuture<ResourceSet> f = released.remove(rel.shrink());
            if (f != null && err != null) {
              f.completeExceptionally(err);
            } else if (f != null) {
              f.complete(core.r());
            }
          });
    }
    return CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new))
        .thenApply(v -> core.r());
  }
}
