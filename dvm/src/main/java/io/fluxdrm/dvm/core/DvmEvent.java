package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.List;
import java.util.Objects;

/**
 * What the DVM core acts on: a request a client made through a daemon, or a report from the world
 * the service watches (daemons, processes, timers, the scheduler). Each is handled whole by {@link
 * DvmCore#handle}; none is ever refused by throwing: bad content gets an error answer.
 */
public sealed interface DvmEvent {

  /**
   * A request from client {@link #from()} that reached the daemon on {@link #via()} (the relay path
   * of PRRTE §7.4.4.1 "Who answers a request": the master decides wherever it arrived). The core
   * answers it exactly once, with a {@link DvmDecision.Answer} naming {@link #requestId()},
   * possibly later (after a launch, the scheduler's answer or daemons coming up).
   */
  sealed interface Request extends DvmEvent {
    /** The service's id of the request, unique among requests in flight. */
    long requestId();

    /** Who asked: the client the port is bound to. */
    Client from();

    /** The host of the daemon the client is attached to. */
    String via();
  }

  /**
   * {@code PMIx_Allocation_request}: a directive and its infos (PRRTE §7.4.3 Flow-of-Control and PR
   * #1904).
   */
  record AllocationRequest(
      long requestId, Client from, String via, AllocDirective directive, List<Info> infos)
      implements Request {
    /** Checks and copies. */
    public AllocationRequest {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(via, "via");
      Objects.requireNonNull(directive, "directive");
      infos = List.copyOf(infos);
    }
  }

  /**
   * {@code PMIx_Session_control}: a session id (UINT32_MAX for all) and directives (PRRTE §7.4.4
   * Session Control).
   */
  record SessionControl(
      long requestId, Client from, String via, long sessionId, List<Info> directives)
      implements Request {
    /** Checks and copies. */
    public SessionControl {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(via, "via");
      directives = List.copyOf(directives);
    }
  }

  /**
   * {@code PMIx_Spawn}: apps and job infos ({@code PMIX_SPAWN_TARGET}, {@code PMIX_ALLOC_ID},
   * {@code PMIX_NOHUP}, and the allocation-on-spawn request of PRRTE §7.4.3 Flow-of-Control).
   * Answered with {@code PMIX_NSPACE} on success.
   */
  record Spawn(long requestId, Client from, String via, List<App> apps, List<Info> jobInfos)
      implements Request {
    /** Checks and copies. */
    public Spawn {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(via, "via");
      apps = List.copyOf(apps);
      jobInfos = List.copyOf(jobInfos);
    }
  }

  /**
   * {@code PMIx_Register_event_handler}: the client wants the events with these codes (all when
   * empty). The success answer carries the handler's reference, which is the request id.
   */
  record RegisterEvents(long requestId, Client from, String via, List<Integer> codes)
      implements Request {
    /** Checks and copies. */
    public RegisterEvents {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(via, "via");
      codes = List.copyOf(codes);
    }
  }

  /** {@code PMIx_Deregister_event_handler} of the handler {@code ref}. */
  record DeregisterEvents(long requestId, Client from, String via, long ref) implements Request {
    /** Checks. */
    public DeregisterEvents {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(via, "via");
    }
  }

  /**
   * The text of the file a {@link DvmDecision.ReadFile} asked for ({@code PMIX_HOSTFILE} of an
   * activation), or why it could not be read ({@code content} empty, {@code error} the reason).
   */
  record FileRead(long requestId, String path, java.util.Optional<String> content, String error)
      implements DvmEvent {
    /** Checks. */
    public FileRead {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(content, "content");
      Objects.requireNonNull(error, "error");
    }
  }

  /** The daemon on {@code host} reported up (after a {@link DvmDecision.StartDaemon}). */
  record DaemonStarted(String host) implements DvmEvent {
    /** Checks. */
    public DaemonStarted {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * The daemon on {@code host} failed: it did not start, or it died. Its processes are gone (the
   * service reports them with {@link ProcExited} first, or the core counts them lost).
   */
  record DaemonFailed(String host, String reason) implements DvmEvent {
    /** Checks. */
    public DaemonFailed {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** The daemon on {@code host} left as asked (after a {@link DvmDecision.StopDaemon}). */
  record DaemonLeft(String host) implements DvmEvent {
    /** Checks. */
    public DaemonLeft {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * The stop of the daemon on {@code host} (a {@link DvmDecision.StopDaemon}) could not be sent:
   * the daemon never got it and carries on as it was (PRRTE's shrink xcast failing at its creation,
   * scenario D20 of docs/scenarios.md). {@code cause} is the error the sending gave, as a PMIx
   * status; a shrink campaign that targeted the daemon ends with {@code PMIX_ERR_DVM_MOD} carrying
   * it (decision D415).
   */
  record StopNotSent(String host, PmixStatus cause, String reason) implements DvmEvent {
    /** Checks. */
    public StopNotSent {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Every process of job {@code nspace} was started (after a {@link DvmDecision.LaunchJob}). */
  record JobLaunched(String nspace) implements DvmEvent {
    /** Checks. */
    public JobLaunched {
      Objects.requireNonNull(nspace, "nspace");
    }
  }

  /**
   * Job {@code nspace} could not be launched (a process failed to start); processes already started
   * are reported with {@link ProcExited} before this.
   */
  record JobLaunchFailed(String nspace, PmixStatus status, String reason) implements DvmEvent {
    /** Checks. */
    public JobLaunchFailed {
      Objects.requireNonNull(nspace, "nspace");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Process {@code rank} of job {@code nspace} ended: it exited with {@code exitCode} ({@code
   * termSignal} 0), or was killed by {@code termSignal}.
   */
  record ProcExited(String nspace, long rank, int exitCode, int termSignal) implements DvmEvent {
    /** Checks. */
    public ProcExited {
      Objects.requireNonNull(nspace, "nspace");
      if (termSignal < 0) {
        throw new IllegalArgumentException("termSignal: " + termSignal + " (expected: >= 0)");
      }
    }
  }

  /** The timer {@code timerId} of an {@link DvmDecision.ArmTimer} ran out. */
  record TimerFired(long timerId) implements DvmEvent {}

  /**
   * A scheduler attached to the master (whichever side started first, PRRTE §7.4.3
   * Flow-of-Control).
   */
  record SchedulerAttached(Client scheduler) implements DvmEvent {
    /** Checks. */
    public SchedulerAttached {
      Objects.requireNonNull(scheduler, "scheduler");
    }
  }

  /** The attached scheduler went away; it may attach again later. */
  record SchedulerDetached() implements DvmEvent {}

  /** The scheduler's answer to the call {@code callId} of a {@link DvmDecision.ToScheduler}. */
  record SchedulerAnswered(long callId, StatusInfos answer) implements DvmEvent {
    /** Checks. */
    public SchedulerAnswered {
      Objects.requireNonNull(answer, "answer");
    }
  }

  /**
   * The attached scheduler raised event {@code code} toward the DVM ({@code
   * PMIX_ALLOC_TIMEOUT_WARNING} with {@code PMIX_ALLOC_ID} and {@code PMIX_TIME_REMAINING}): the
   * DVM relays it to the allocation's recorded requester only (PRRTE node-reservation spec
   * guarantee 6).
   */
  record SchedulerEvent(int code, List<Info> infos) implements DvmEvent {
    /** Copies. */
    public SchedulerEvent {
      infos = List.copyOf(infos);
    }
  }

  /**
   * The client {@code proc} is gone (tool finalized or disconnected, {@code
   * PMIX_CAP_TOOL_FINALIZED} in PRRTE): its registrations end; reservations it owns follow their
   * inheritance (PRRTE PR #1904).
   */
  record ClientGone(PmixProc proc) implements DvmEvent {
    /** Checks. */
    public ClientGone {
      Objects.requireNonNull(proc, "proc");
    }
  }

  /**
   * Elastic mode: the mapped job {@code nspace} reaches LAUNCH_APPS (the answer to {@link
   * DvmDecision.MapComplete}).
   */
  record LaunchApps(String nspace) implements DvmEvent {
    public LaunchApps {
      Objects.requireNonNull(nspace, "nspace");
    }
  }
}
