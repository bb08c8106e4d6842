package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What the DVM core decided, as data for a service to carry out in the order given. The core has
 * already changed its state as if each were done; the service reports what actually happens with
 * {@link DvmEvent}s (a daemon up, a process gone, a timer fired).
 */
public sealed interface DvmDecision {

  /**
   * Answer request {@code requestId} with {@code result}: the status and infos the requester's
   * callback receives. Exactly one per request (PRRTE §7.4.4 Session Control: a caller gets the
   * same answer whichever daemon it is attached to; the service routes it back through that
   * daemon).
   */
  record Answer(long requestId, StatusInfos result) implements DvmDecision {
    /** Checks. */
    public Answer {
      Objects.requireNonNull(result, "result");
    }
  }

  /**
   * Call the attached scheduler: a forwarded request (its answer completes request {@code
   * requestId}) or the DVM's own notice ({@code requestId} empty: {@code PMIX_SESSION_COMPLETE}).
   * The scheduler's reply comes back as {@link DvmEvent.SchedulerAnswered} with {@code callId}.
   */
  record ToScheduler(long callId, OptionalLong requestId, Upcall call) implements DvmDecision {
    /** Checks. */
    public ToScheduler {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(call, "call");
    }
  }

  /** One of the scheduler's upcalls ({@link io.fluxdrm.pmix.port.SchedulerUpcalls}). */
  sealed interface Upcall {
    /** The process the call is made for ({@code PMIX_REQUESTOR}, or the DVM's own process). */
    PmixProc requester();
  }

  /**
   * {@code allocate(requester, directive, infos)}; {@code infos} end with {@code PMIX_REQUESTOR}
   * (PRRTE §7.4.3 Flow-of-Control; PRRTE §7.4.3 Flow-of-Control).
   */
  record Allocate(PmixProc requester, AllocDirective directive, List<Info> infos)
      implements Upcall {
    /** Checks and copies. */
    public Allocate {
      Objects.requireNonNull(requester, "requester");
      Objects.requireNonNull(directive, "directive");
      infos = List.copyOf(infos);
    }
  }

  /**
   * {@code sessionControl(requester, sessionId, directives)}: a forwarded session control (with
   * {@code PMIX_REQUESTOR}) or the DVM's {@code PMIX_SESSION_COMPLETE} (PRRTE §7.4.4.2.8
   * "Completion").
   */
  record SessionControl(PmixProc requester, long sessionId, List<Info> directives)
      implements Upcall {
    /** Checks and copies. */
    public SessionControl {
      Objects.requireNonNull(requester, "requester");
      directives = List.copyOf(directives);
    }
  }

  /**
   * Read the text file {@code path} for request {@code requestId} (a {@code PMIX_HOSTFILE}: the
   * core reads no file); report with {@link DvmEvent.FileRead}.
   */
  record ReadFile(long requestId, String path) implements DvmDecision {
    /** Checks. */
    public ReadFile {
      Objects.requireNonNull(path, "path");
    }
  }

  /** Start a daemon on {@code host}, which has {@code slots} slots; report with DaemonStarted. */
  record StartDaemon(String host, int slots) implements DvmDecision {
    /** Checks. */
    public StartDaemon {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * Stop the daemon on {@code host} (a shrink: nodes handed back); report with DaemonLeft, or with
   * StopNotSent when the command cannot be sent.
   */
  record StopDaemon(String host) implements DvmDecision {
    /** Checks. */
    public StopDaemon {
      Objects.requireNonNull(host, "host");
    }
  }

  /** Where one process of a job runs: its rank, the index of its app, and its node. */
  record Placement(long rank, int app, String host) {
    /** Checks. */
    public Placement {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * Launch job {@code nspace} of session {@code sessionId}: one process per placement, each running
   * its app. Report with JobLaunched (or JobLaunchFailed), then ProcExited per process.
   */
  record LaunchJob(
      String nspace, long sessionId, List<App> apps, List<Info> jobInfos, List<Placement> procs)
      implements DvmDecision {
    /** Checks and copies. */
    public LaunchJob {
      Objects.requireNonNull(nspace, "nspace");
      apps = List.copyOf(apps);
      jobInfos = List.copyOf(jobInfos);
      procs = List.copyOf(procs);
    }
  }

  /** Send {@code signal} to every live process of job {@code nspace}. */
  record SignalJob(String nspace, Signal signal) implements DvmDecision {
    /** Checks. */
    public SignalJob {
      Objects.requireNonNull(nspace, "nspace");
      Objects.requireNonNull(signal, "signal");
    }
  }

  /**
   * Deliver {@code event} to the registered handlers {@code handlers} (references of {@link
   * DvmEvent.RegisterEvents}); directed events name their target in the event.
   */
  record Notify(Event event, List<Long> handlers) implements DvmDecision {
    /** Checks and copies. */
    public Notify {
      Objects.requireNonNull(event, "event");
      handlers = List.copyOf(handlers);
    }
  }

  /**
   * Arm timer {@code timerId} to fire after {@code after} (the core reads no clock); report with
   * TimerFired unless cancelled first.
   */
  record ArmTimer(long timerId, Duration after) implements DvmDecision {
    /** Checks. */
    public ArmTimer {
      Objects.requireNonNull(after, "after");
      if (after.isNegative()) {
        throw new IllegalArgumentException("after: " + after + " (expected: >= 0)");
      }
    }
  }

  /** Cancel timer {@code timerId}; a TimerFired for it that is already queued is ignored. */
  record CancelTimer(long timerId) implements DvmDecision {}

  /** For observers (logs, tests): session {@code sessionId} now exists and holds {@code hosts}. */
  record SessionCreated(long sessionId, String allocId, List<String> hosts) implements DvmDecision {
    /** Checks and copies. */
    public SessionCreated {
      Objects.requireNonNull(allocId, "allocId");
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * For observers: session {@code sessionId} was reclaimed; {@code hosts} went back to the pool, or
   * to the scheduler when {@code handedBack} (inheritance NONE/CHILD, PRRTE §7.4.4.3 "Session
   * lifetime").
   */
  record SessionReclaimed(long sessionId, String allocId, List<String> hosts, boolean handedBack)
      implements DvmDecision {
    /** Checks and copies. */
    public SessionReclaimed {
      Objects.requireNonNull(allocId, "allocId");
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * Elastic mode: job {@code nspace} is mapped; the service hands {@link DvmEvent.LaunchApps} back
   * to the core on its next turn, as PRRTE's state machine activates LAUNCH_APPS as an event of its
   * own (PRRTE elastic-DVM spec, job states), so that a size change may come between the two steps.
   */
  record MapComplete(String nspace) implements DvmDecision {
    public MapComplete {
      Objects.requireNonNull(nspace, "nspace");
    }
  }

  /**
   * Elastic mode: shrink campaign {@code campaignId} is complete, every target daemon has left
   * {@code hosts}; the completion hooks (the RAS modules' {@code shrink_complete}, a bridge's
   * release to its scheduler) run on it before the requester's event (PRRTE elastic-DVM spec,
   * two-phase answer).
   */
  record ShrinkComplete(long campaignId, List<String> hosts) implements DvmDecision {
    public ShrinkComplete {
      hosts = List.copyOf(hosts);
    }
  }
}
