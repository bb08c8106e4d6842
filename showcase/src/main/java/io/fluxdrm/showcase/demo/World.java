package io.fluxdrm.showcase.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Where the story plays: the scheduler, the job manager and the DVM, in this JVM ({@link
 * InProcessWorld}) or as processes ({@link ProcessWorld}). The story talks to them only through hub
 * connections and the few questions here, so that both worlds tell it the same way; what only one
 * world can see (the DVM's and the scheduler's state in this JVM) comes as an {@link Optional}.
 */
interface World extends AutoCloseable {

  /** A job the job manager allocated: its id, its user and its R. */
  record Job(long id, int userid, ResourceSet r) {}

  /** How the DVM is started. */
  record DvmSpec(
      List<String> hosts, int slots, long startLatencyMs, long stopLatencyMs, String failingHost) {}

  /** The loop every connection of the story completes on. */
  Reactor reactor();

  /**
   * Submits a V1 jobspec of {@code nodes} exclusive nodes for user {@code uid} and waits for its
   * alloc.
   */
  CompletableFuture<Job> submit(int uid, int nodes);

  /** Ends a job: the job manager frees all it holds ({@code sched.free final:true}). */
  CompletableFuture<Void> finish(long id);

  /** A new connection to the scheduler's hub, as user {@code uid} (a job shell's). */
  FluxHandle schedHub(int uid);

  /** The scheduler's answer to {@code sched.resource-status}: what it has free now. */
  CompletableFuture<ResourceSet> free();

  /** The scheduler's pool. */
  ResourceSet pool();

  /** Starts the DVM over {@code spec}; completes once it serves its hub. */
  CompletableFuture<Void> startDvm(DvmSpec spec);

  /** A new connection to the DVM's hub, as user {@code uid} (a tool's, or the scheduler's). */
  FluxHandle dvmHub(int uid);

  /** Stops the DVM (its job ends). */
  void stopDvm();

  /** The DVM's state, read on the loop, where the DVM runs in this JVM. */
  Optional<Supplier<DvmView>> dvmView();

  /** The scheduler's pending reallocs, where the scheduler runs in this JVM. */
  OptionalInt pendingReallocs();

  /**
   * The payloads of the {@code sched.free} requests the job manager sent so far, in order, where
   * the job manager runs in this JVM (its endpoint is tapped); empty elsewhere.
   */
  Optional<List<JsonNode>> freesSent();

  /**
   * The hosts the DVM still had (up, starting or leaving) at the moment the job manager sent its
   * {@code index}-th {@code sched.free}, where both run in this JVM; empty elsewhere.
   */
  default Optional<java.util.Set<String>> dvmHostsAtFree(int index) {
    return Optional.empty();
  }

  /** What the world says about where its parts run, for the header line. */
  String where();

  /** From now on the job manager's endpoint is recorded, where it is in this JVM (D145). */
  default void recordFromNow() {}

  /**
   * Records a job shell's connection, where the job manager's endpoint is not in this JVM: through
   * the plugin's own tap, since starting the plugin takes its handle's tap (call it before {@link
   * ShellPlugin#start}, so that the service's registration is recorded too).
   */
  default void recordShell(ShellPlugin plugin) {}

  /** What the world's own invariant checks found broken (pool, DVM), if any. */
  default Optional<String> problems() {
    return Optional.empty();
  }

  @Override
  void close();
}
