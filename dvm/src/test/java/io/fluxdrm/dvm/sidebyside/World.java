package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * One DVM as the side-by-side scenarios see it, the reference DVM or PRRTE: a connected tool's
 * port, the nodes with a daemon, the events the tool received, and (in a scheduler world) the
 * scheduler's upcalls, answered by a script the scenario sets. Everything observed goes through the
 * {@link DvmPort} or what a user of the DVM sees ({@code prun}'s daemons), never the DVM's insides.
 */
public interface World extends AutoCloseable {
  /** The kinds of world: the scenarios of a group share one DVM, run in order. */
  enum Group {
    /** An elastic DVM without a scheduler: the master ("head") and node1 have daemons. */
    SCHEDULERLESS,
    /** An elastic DVM with an attached scheduler (ras/pmix): the master has the only daemon. */
    SCHEDULER,
    /**
     * As {@link #SCHEDULERLESS}, a DVM of its own for the scenarios of the second pass (D462), so
     * that what they observe does not carry the first group's state (C1's session, B15's
     * reservation of node1).
     */
    FRESH,
    /**
     * As {@link #FRESH}, for D4 alone: after a shrink under a live job PRRTE later lost another
     * daemon and prun hung (D462), so nothing runs after it in its DVM.
     */
    FRESH2,
    /**
     * As {@link #FRESH}, for C34 alone: after the scenarios before it PRRTE failed its grow in one
     * run, and after its TERMINATE PRRTE lost its node's daemon in another (D462).
     */
    FRESH3,
    /**
     * As {@link #FRESH}, for B21 alone (an owner that ends with NONE inheritance): after C33, the
     * last of {@link #FRESH}, PRRTE no longer accepted a new tool (PMIX_ERR_UNREACH), so that it
     * carries no other scenario's aftermath (D465).
     */
    FRESH4,
    /** As {@link #FRESH4}, for B22 alone (an owner that ends with CHILD inheritance). */
    FRESH5,
    /**
     * As {@link #SCHEDULERLESS}, with a routing tree of radix 2 ({@code rml_base_radix 2} on PRRTE;
     * the reference DVM has no routing tree, its world is the schedulerless one).
     */
    RADIX2,
    /** As {@link #SCHEDULERLESS}, elastic mode off ({@code prte_elastic_mode} 0). */
    ELASTIC_OFF
  }

  /** The master's host; outcomes write it as {@code head}. */
  String master();

  /** The tool's port (a tool connected to the master, registered for the two-phase events). */
  DvmPort tool();

  /**
   * Another tool, connected now, of the same user as {@link #tool()} (a process of its own on
   * PRRTE), not registered for events: for scenarios where a requester leaves ({@link
   * DvmPort#disconnect()}, {@code PMIx_tool_finalize}).
   *
   * @return its port
   */
  default DvmPort newTool() {
    return newTool(false);
  }

  /**
   * As {@link #newTool()}; with {@code events} the tool is registered for the two-phase events as
   * {@link #tool()} is, and what it receives joins {@link #events(int)}: for a scenario whose
   * requester is that tool and that must wait for its second phase before it goes on (B20: a prun
   * sent while the grow's daemon is still joining hangs on PRRTE, D492).
   *
   * @param events whether the tool's events are collected
   * @return its port
   */
  DvmPort newTool(boolean events);

  /**
   * The scheduler's way down to the DVM (a scheduler world only): its own session controls.
   *
   * @return its port
   */
  DvmPort schedulerPort();

  /** The tool's process name, to tell it as requester. */
  PmixProc toolProc();

  /**
   * Waits for a call's answer.
   *
   * @param stage the call
   * @return its result
   */
  <T> T await(CompletionStage<T> stage);

  /**
   * The events the tool received since the last call, once at least {@code atLeast} are there (or
   * the world's bound passed), and any that follow within the world's grace for late extras.
   *
   * @param atLeast how many the scenario expects at least
   * @return them, in the order received
   */
  List<Event> events(int atLeast);

  /**
   * Where a plain {@code prun --map-by ppr:1:node hostname} runs: the hosts of the general pool
   * with a daemon (reserved nodes are not used without a target, B2), sorted, the master written as
   * {@code head}; or how prun failed.
   */
  List<String> daemons();

  /**
   * Sets what the scheduler answers (a scheduler world only).
   *
   * @param script the upcalls
   */
  void script(SchedulerUpcalls script);

  /** A place for the scenarios of a group to leave what later ones use (an ALLOC_ID...). */
  Map<String, String> memo();

  /**
   * Waits until a condition on the DVM holds, re-checking it as the world can (the reference runs
   * its loop and moves its clock on by a second between checks; PRRTE re-asks every second), at
   * most 30 times: for "after the jobs ended", "once the session's time ran out".
   *
   * @param condition re-evaluated until true
   * @return whether it held within the world's bound
   */
  boolean eventually(java.util.function.BooleanSupplier condition);

  /**
   * Lets {@code d} pass with nothing asked: the reference DVM moves its clock on (its timers fire),
   * PRRTE is waited for. Only for a scenario that must see that something did not happen within a
   * time (a bounded wait for an absence, D451, D462) or that a DVM's own timer fired.
   *
   * @param d how long
   */
  void elapse(java.time.Duration d);

  /** Stops the DVM (and what the world started for it). */
  @Override
  void close();
}
