package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.DvmJobScheduler;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.dvm.Ledger;
import io.fluxdrm.dvm.wire.SchedulerEndpoint;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fluxdrm bridge --dvm URI}: the bridge as the scheduler of a running {@code fluxdrm dvm}
 * (issue 13 scope 4, decision D377). The DVM is one Flux job, "the DVM's job" (one node, submitted
 * to the job manager this bridge runs, its id kept in {@code STATE_DIR/dvm-job} so that a restarted
 * bridge goes on with the same job). That job's shell plugin and {@link PmixAllocator} serve the
 * requests the DVM forwards, through {@link FluxScheduler} (D9/D10 to {@code sched.realloc}, each
 * grant a session control INSTANTIATE or EXTEND toward the DVM).
 *
 * <p>Either side may start first: a thread of its own connects to the DVM's hub, retrying every
 * second while nothing listens there, and connects again once a connection is lost (the DVM stopped
 * or restarted); each new connection attaches with {@link SchedulerEndpoint}, which also
 * re-attaches when the DVM greets it. Connecting blocks, so it never runs on the reactor.
 */
final class DvmLink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DvmLink.class);

  /** The file of the state directory that names the DVM's job. */
  static final String JOB_FILE = "dvm-job";

  private static final Duration RETRY = Duration.ofSeconds(1);

  /**
   * The file of the state directory that keeps the scheduler's ledger (decision D521): which of the
   * DVM job's grants each DVM session holds, so that a restarted bridge knows them.
   */
  static final String LEDGER_FILE = "dvm-ledger.json";

  private static final com.fasterxml.jackson.databind.ObjectMapper LEDGER_JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** The ledger {@code file} keeps, or an empty one when there is no file. */
  static Ledger readLedger(Path file) {
    if (!Files.exists(file)) {
      return new Ledger(null, null, null, null, null);
    }
    try {
      return LEDGER_JSON.readValue(file.toFile(), Ledger.class);
    } catch (IOException | RuntimeException e) {
      throw new CliError(
          "--state-dir: "
              + file
              + ": "
              + Main.firstLine(e.getMessage())
              + " (expected: the ledger a bridge wrote; move it away to start without it)");
    }
  }

  /**
   * Writes the ledger whole to a file beside {@code file} and moves it in place, so that a bridge
   * killed at any point leaves the last ledger or the one before it, never a part of one.
   */
  static void writeLedger(Path file, Ledger ledger) {
    Path tmp = file.resolveSibling(file.getFileName() + ".new");
    try {
      Files.write(tmp, LEDGER_JSON.writeValueAsBytes(ledger));
      Files.move(
          tmp,
          file,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(file + ": " + e.getMessage(), e);
    }
  }

  private final Reactor reactor;
  private final String uri;
  private final FluxScheduler scheduler;
  private final Thread thread;
  private volatile SchedulerEndpoint endpoint;
  private volatile FluxHandle handle;
  private volatile FluxHandle selfHandle;
  private volatile DvmPort selfPort;
  private volatile boolean closed;

  private DvmLink(
      Reactor reactor, String uri, PmixAllocator allocator, Ledger ledger, Path ledgerFile) {
    this.reactor = reactor;
    this.uri = uri;
    this.scheduler = DvmJobScheduler.of(allocator, this::port, this::selfPort).flux();
    this.scheduler.restore(ledger);
    this.scheduler.journal(l -> writeLedger(ledgerFile, l));
    this.thread = new Thread(this::run, "fluxdrm-bridge-dvm");
    this.thread.setDaemon(true);
  }

  private DvmPort port() {
    SchedulerEndpoint e = endpoint;
    if (e == null) {
      // only reached from an upcall, which came over an endpoint's connection
      throw new IllegalStateException("no DVM connection");
    }
    return e.port();
  }

  /**
   * The bridge's own tool connection to the DVM, through which it asks for the release of nodes
   * Flux took back (D13, D423): opened with the scheduler's connection.
   */
  private DvmPort selfPort() {
    DvmPort p = selfPort;
    if (p == null) {
      throw new IllegalStateException("no DVM connection");
    }
    return p;
  }

  /**
   * The DVM's job (found in {@code stateDir}, else submitted: this waits for the scheduler's {@code
   * sched-ready}), its shell plugin on {@code schedHub}, and the link, connecting.
   *
   * @param schedHub a connection of this bridge to the scheduler's hub, for the job's shell plugin
   */
  static DvmLink start(
      Reactor reactor, FluxHandle schedHub, JobManager jm, Path stateDir, int uid, String uri)
      throws InterruptedException {
    long id = dvmJob(jm, stateDir, uid, jobspec());
    ResourceSet r = jm.jobR(id).orElseThrow();
    ShellPlugin shell = ShellPlugin.create(id, uid, r);
    // shrinks the job manager granted and recovered, not handed back yet (D521)
    ResourceSet being = jm.releasing(id).orElse(ResourceSet.empty());
    shell.adoptReleasing(being);
    Daemon.await(shell.start(schedHub), "the DVM job's shell", "");
    PmixAllocator allocator = PmixAllocator.create(shell);
    Daemon.await(allocator.start(schedHub), allocator.serviceName(), "");
    LOG.info("the DVM's job {}: {}; attaching to the DVM at {}", JobId.f58(id), r.summary(), uri);
    Path ledgerFile = stateDir.resolve(LEDGER_FILE);
    Ledger ledger =
        readLedger(ledgerFile)
            .withReleasing(
                being.isEmpty() ? List.of() : being.nodelist().expand(),
                entry ->
                    LOG.info(
                        "{} is being released from the DVM's job: handed back once the DVM no"
                            + " longer runs it",
                        entry));
    if (ledger.base().isEmpty()) {
      // the first ledger of this job: what it holds now is its own (a job just submitted, or one
      // recovered without a ledger, whose grants are then kept as before)
      ledger =
          new Ledger(
              ledger.sessions(),
              ledger.pending(),
              ledger.departing(),
              ledger.releasing(),
              r.nodelist().expand());
    }
    // granted to the job (its eventlog has them) but told to no session and to no one who could
    // tell the DVM: the bridge before died between the grant and its ledger; nothing of the DVM
    // runs there, so they go back to Flux at once (D521)
    java.util.Set<String> accounted = ledger.accountedHosts();
    List<String> orphans =
        r.nodelist().expand().stream().filter(h -> !accounted.contains(h)).toList();
    if (!orphans.isEmpty()) {
      String list = String.join(",", orphans);
      LOG.info(
          "the DVM's job {} holds {} that no session of the ledger has: handing it back",
          JobId.f58(id),
          list);
      Daemon.await(
          reactor
              .submit(() -> allocator.handBack("orphaned", list))
              .thenAccept(
                  a -> {
                    if (a.status() != io.fluxdrm.pmix.PmixStatus.PMIX_SUCCESS) {
                      LOG.error("hand-back of {}: {} {}", list, a.status(), a.message());
                    }
                  }),
          "the hand-back of " + list,
          "");
    }
    // the bridge before this one granted these: a RELEASE of one by its PMIX_ALLOC_ID must find it
    DvmJobScheduler.adopt(
        allocator,
        ledger,
        (sid, held) -> LOG.info("reservation {} of the bridge before: {}", sid, held.summary()));
    DvmLink l = new DvmLink(reactor, uri, allocator, ledger, ledgerFile);
    l.thread.start();
    return l;
  }

  /** The DVM's job: the one the state directory names, else {@code jobspec} submitted now. */
  static long dvmJob(JobManager jm, Path stateDir, int uid, ObjectNode jobspec)
      throws InterruptedException {
    Path file = stateDir.resolve(JOB_FILE);
    Optional<Long> known = Optional.empty();
    try {
      if (Files.exists(file)) {
        known = Optional.of(Long.parseUnsignedLong(Files.readString(file).strip()));
      }
    } catch (IOException | NumberFormatException e) {
      throw new CliError("--state-dir: " + file + ": " + e.getMessage() + " (expected: a job id)");
    }
    if (known.isPresent() && jm.jobR(known.get()).isPresent()) {
      LOG.info("the DVM's job {} recovered", JobId.f58(known.get()));
      return known.get();
    }
    CompletableFuture<Long> f = jm.submit(jobspec, uid);
    long id;
    try {
      id = f.get(Daemon.START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new CliError("the DVM's job: " + e.getCause().getMessage());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new CliError(
          "the DVM's job: not allocated in "
              + Daemon.START_TIMEOUT.toSeconds()
              + " s (is the scheduler there, with a free node?)");
    }
    try {
      Files.writeString(file, Long.toUnsignedString(id) + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliError("--state-dir: " + file + ": " + e.getMessage());
    }
    return id;
  }

  /** One exclusive node, for the DVM's master. */
  static ObjectNode jobspec() {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    ObjectNode node = Json.object().put("type", "node").put("count", 1).put("exclusive", true);
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("fluxdrm").add("dvm");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  private void run() {
    boolean waitingLogged = false;
    while (!closed) {
      FluxHandle h;
      try {
        h =
            io.fluxdrm.rpc.endpoint.Connectors.open(
                reactor,
                uri,
                Daemon.START_TIMEOUT,
                null,
                io.fluxdrm.rpc.endpoint.Connectors.Absent.RETRY);
      } catch (RpcException e) {
        if (!waitingLogged) {
          LOG.info(
              "no DVM at {} ({}): retrying every {} s", uri, e.getMessage(), RETRY.toSeconds());
          waitingLogged = true;
        }
        pause();
        continue;
      }
      waitingLogged = false;
      handle = h;
      try {
        FluxHandle sh =
            io.fluxdrm.rpc.endpoint.Connectors.open(
                reactor,
                uri,
                Daemon.START_TIMEOUT,
                null,
                io.fluxdrm.rpc.endpoint.Connectors.Absent.RETRY);
        selfHandle = sh;
        selfPort = new io.fluxdrm.dvm.wire.HubDvmPort(sh, Duration.ofSeconds(60));
      } catch (RpcException e) {
        LOG.warn(
            "DVM at {}: no second connection for the bridge's own requests: {}",
            uri,
            e.getMessage());
      }
      try {
        SchedulerEndpoint e =
            SchedulerEndpoint.start(h, scheduler, Duration.ofSeconds(60))
                .get(Daemon.START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        endpoint = e;
        e.attached()
            .whenComplete(
                (v, err) -> {
                  if (err == null) {
                    LOG.info("scheduler of the DVM at {}", uri);
                    reactor.execute(scheduler::reattached);
                  }
                });
      } catch (Exception e) {
        LOG.warn("DVM at {}: {}", uri, e.getMessage());
        h.close();
      }
      while (!closed && !h.isClosed()) {
        pause();
      }
      FluxHandle sh = selfHandle;
      selfHandle = null;
      selfPort = null;
      if (sh != null) {
        sh.close();
      }
      if (!closed) {
        LOG.info("connection to the DVM at {} lost: connecting again", uri);
        endpoint = null;
        // its sessions are gone with it (D377): their nodes go back to Flux
        reactor.execute(scheduler::dvmLost);
      }
    }
  }

  private void pause() {
    try {
      Thread.sleep(RETRY.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  /** The scheduler, for tests and logs. */
  FluxScheduler scheduler() {
    return scheduler;
  }

  /** Stops connecting; runs on the reactor (before the handles close). */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    SchedulerEndpoint e = endpoint;
    if (e != null) {
      e.close();
    }
    FluxHandle h = handle;
    if (h != null) {
      h.close();
    }
    FluxHandle sh = selfHandle;
    if (sh != null) {
      sh.close();
    }
  }
}
