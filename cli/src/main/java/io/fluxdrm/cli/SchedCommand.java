package io.fluxdrm.cli;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.hub.LocalHubListener;
import io.fluxdrm.rpc.hub.ZmqHubListener;
import io.fluxdrm.rpc.hub.ZmqHubSettings;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.AllocMode;
import io.fluxdrm.sched.QueueDepth;
import io.fluxdrm.sched.SchedException;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.Rehearsal;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.sched.service.StateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fluxdrm sched}: the FIFO reference scheduler (RFC 27 and RFC 51) as a process, standalone
 * on its own hub or attached to a running Flux instance in place of flux-core's sched-simple.
 */
@Command(
    name = "sched",
    mixinStandardHelpOptions = true,
    header = "Run the FIFO scheduler (RFC 27, RFC 51 dynamic allocation).",
    description =
        "Standalone: --listen and a pool (--resources, or --hosts with --cores); the job "
            + "manager is any client of the hub that registers 'job-manager'. Beyond loopback "
            + "the hub needs CURVE: --listen tcp://ADDRESS:PORT --curve-cert FILE "
            + "--curve-clients FILE. Without CURVE the peers of a loopback tcp:// hub are "
            + "guests (--tcp-loopback-role owner to make them owners). Attached: --flux-uri "
            + "local://PATH of an instance whose sched-simple was removed. Logs to stderr; "
            + "stops cleanly on SIGINT or SIGTERM.")
final class SchedCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(SchedCommand.class);

  @Option(
      names = "--listen",
      paramLabel = "ENDPOINT",
      description =
          "unix:DIR (socket DIR/local, directory mode 0700) or tcp://HOST:PORT (loopback, or"
              + " any address with --curve-cert and --curve-clients)")
  String listen;

  @Option(
      names = "--curve-cert",
      paramLabel = "FILE",
      description =
          "The hub's CURVE certificate ('fluxdrm keygen' or 'flux keygen'; mode 0600) for"
              + " --listen tcp://")
  Path curveCert;

  @Option(
      names = "--curve-clients",
      paramLabel = "FILE",
      description =
          "The client public keys allowed to connect and each one's userid and role (JSON:"
              + " {\"clients\":[{\"key\":Z85,\"userid\":N,\"role\":\"owner\"|\"user\"}]})")
  Path curveClients;

  @Option(
      names = LoopbackRole.OPTION,
      paramLabel = "guest|owner",
      description = LoopbackRole.DESCRIPTION)
  String tcpLoopbackRole;

  @Option(names = "--resources", paramLabel = "R.json", description = "The pool as an R file")
  Path resources;

  @Option(names = "--hosts", paramLabel = "HOSTLIST", description = "Pool hosts, ranks 0..")
  String hosts;

  @Option(names = "--cores", paramLabel = "IDSET", description = "Core ids of every host")
  String cores;

  @Option(names = "--gpus", paramLabel = "IDSET", description = "GPU ids of every host")
  String gpus;

  @Option(
      names = "--queue-depth",
      paramLabel = "N|unlimited",
      defaultValue = "8",
      description =
          "Pending sched.alloc limit announced in sched-ready (default: ${DEFAULT-VALUE})")
  String queueDepth;

  @Option(
      names = "--alloc-mode",
      paramLabel = "worst-fit|best-fit|first-fit",
      defaultValue = "worst-fit",
      description =
          "Which ranks an allocation takes first: most free cores (worst-fit), fewest free"
              + " cores that fit (best-fit), lowest rank (first-fit) (default: ${DEFAULT-VALUE})")
  String allocMode;

  @Option(names = "--no-realloc", description = "Answer every sched.realloc UNSUPPORTED")
  boolean noRealloc;

  @Option(
      names = "--annotate-pending",
      description =
          "ANNOTATE pending allocs with reason_pending and jobs_ahead (the job manager must"
              + " read several responses per sched.alloc, as flux-core's does)")
  boolean annotatePending;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "Keep running jobs' R and alloc ids here (standalone; survives a restart)")
  Path stateDir;

  @Option(
      names = "--flux-uri",
      paramLabel = "local://PATH",
      description = "Attach to this Flux broker (pool from resource.acquire, R in the KVS)")
  String fluxUri;

  @Option(
      names = "--rehearse",
      paramLabel = "JOBS",
      description =
          "Before serving, run JOBS alloc/free pairs through a private silent scheduler, so that"
              + " the first jobs of the instance do not pay class loading and JIT compilation;"
              + " 0 to skip (default: "
              + DEFAULT_REHEARSAL
              + " with --flux-uri, 0 standalone)")
  Integer rehearse;

  /** Jobs of the rehearsal by default: enough for the JIT to compile the alloc and free paths. */
  static final int DEFAULT_REHEARSAL = 3000;

  @Mixin TranscriptOption transcript = new TranscriptOption();

  @Override
  public Integer call() throws InterruptedException {
    SchedulerOptions options;
    try {
      options =
          SchedulerOptions.defaults()
              .withQueueDepth(QueueDepth.parse(queueDepth))
              .withAllocMode(AllocMode.parse(allocMode))
              .withRealloc(!noRealloc)
              .withAnnotatePending(annotatePending);
    } catch (SchedException e) {
      throw CliError.usage(e.getMessage());
    }
    if (rehearse == null) {
      rehearse = fluxUri != null ? DEFAULT_REHEARSAL : 0;
    }
    if (rehearse < 0 || rehearse > Rehearsal.MAX_JOBS) {
      throw CliError.usage(
          "--rehearse: " + rehearse + " (expected: 0 to " + Rehearsal.MAX_JOBS + " jobs)");
    }
    if (fluxUri != null) {
      for (Object[] o :
          new Object[][] {
            {"--listen", listen},
            {"--resources", resources},
            {"--hosts", hosts},
            {"--cores", cores},
            {"--gpus", gpus},
            {"--state-dir", stateDir},
            {"--curve-cert", curveCert},
            {"--curve-clients", curveClients},
            {"--tcp-loopback-role", tcpLoopbackRole}
          }) {
        if (o[1] != null) {
          throw CliError.usage(
              o[0] + ": not with --flux-uri (expected: the broker gives resources and state)");
        }
      }
      return attached(options);
    }
    if (listen == null) {
      throw CliError.usage(
          "--listen: missing (expected: unix:DIR or tcp://HOST:PORT, or --flux-uri)");
    }
    boolean hubDir =
        io.fluxdrm.rpc.endpoint.Endpoint.parse(listen).orElse(null)
            instanceof io.fluxdrm.rpc.endpoint.Endpoint.HubDir;
    if (!hubDir && !(io.fluxdrm.rpc.endpoint.Endpoint.isTcp(listen) && !listen.equals("tcp://"))) {
      throw CliError.usage("--listen: \"" + listen + "\" (expected: unix:DIR or tcp://HOST:PORT)");
    }
    // the command line first (usage, status 2), then the files it names (status 1): D484
    checkCurveOptions();
    Credentials loopback =
        LoopbackRole.credentials(tcpLoopbackRole, listen, curveCert != null, Daemon.uid());
    ResourceSet pool = pool();
    ZmqHubSettings.Curve curve = curve();
    return standalone(pool, options, curve, loopback);
  }

  /** {@code --curve-cert} and {@code --curve-clients}: both or neither, only on {@code tcp://}. */
  private void checkCurveOptions() {
    if (curveCert == null && curveClients == null) {
      return;
    }
    if (curveCert == null || curveClients == null) {
      throw CliError.usage(
          (curveCert == null
                  ? "--curve-clients: without --curve-cert"
                  : "--curve-cert: without" + " --curve-clients")
              + " (expected: both, or neither for a loopback listener)");
    }
    if (!io.fluxdrm.rpc.endpoint.Endpoint.isTcp(listen)) {
      throw CliError.usage(
          "--curve-cert: not with --listen " + listen + " (expected: --listen tcp://HOST:PORT)");
    }
  }

  /** The CURVE settings of {@code --curve-cert} and {@code --curve-clients}, or null for none. */
  private ZmqHubSettings.Curve curve() {
    if (curveCert == null) {
      return null;
    }
    CurveCert cert = CurveCert.readSecret(curveCert);
    CurveClients clients = CurveClients.read(curveClients);
    clients
        .credentials()
        .forEach(
            (key, c) ->
                LOG.info(
                    "curve client {}: userid {} {}",
                    clients.names().get(key),
                    c.userid(),
                    c.isOwner() ? "owner" : "user"));
    return new ZmqHubSettings.Curve(cert.publicKey(), cert.secretKey(), clients.credentials());
  }

  /**
   * The pool: built from {@code --hosts}, {@code --cores} and {@code --gpus}, whose faults are
   * usage errors, or read from the file {@code --resources}, whose faults are errors (D484).
   */
  private ResourceSet pool() {
    if (resources != null && hosts != null) {
      throw CliError.usage("--resources: not with --hosts (expected: one way to give the pool)");
    }
    if (resources != null) {
      try {
        return ResourceSet.parse(Files.readString(resources, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw CliError.cannotRead("--resources: " + resources, e);
      } catch (RsetException e) {
        throw new CliError("--resources: " + resources + ": " + e.getMessage());
      }
    }
    if (hosts == null || cores == null) {
      throw CliError.usage(
          "pool: missing (expected: --resources R.json, or --hosts HOSTLIST with --cores IDSET)");
    }
    try {
      Hostlist h = Hostlist.parse(hosts);
      if (h.isEmpty() || h.count() > ResourceSet.MAX_RANKS) {
        throw CliError.usage(
            "--hosts: " + h.count() + " hosts (expected: 1 to " + ResourceSet.MAX_RANKS + ")");
      }
      return ResourceSet.of(
          IdSet.range(0, (int) h.count() - 1),
          idset("--cores", cores),
          gpus == null ? IdSet.empty() : idset("--gpus", gpus),
          h);
    } catch (RsetException e) {
      throw CliError.usage("--hosts: " + e.getMessage());
    }
  }

  private static IdSet idset(String option, String text) {
    try {
      return IdSet.parse(text);
    } catch (RsetException e) {
      throw CliError.usage(option + ": " + e.getMessage());
    }
  }

  private int standalone(
      ResourceSet pool, SchedulerOptions options, ZmqHubSettings.Curve curve, Credentials loopback)
      throws InterruptedException {
    StateStore store;
    try {
      store = stateDir == null ? StateStore.inMemory() : StateStore.open(stateDir);
    } catch (SchedException e) {
      throw new CliError(e.getMessage());
    }
    int uid = Daemon.uid();
    transcript.check();
    Reactor reactor = Reactor.start("fluxdrm-sched");
    AutoCloseable listener = null;
    try {
      Hub hub = new Hub(reactor);
      if (io.fluxdrm.rpc.endpoint.Endpoint.parse(listen).orElse(null)
          instanceof io.fluxdrm.rpc.endpoint.Endpoint.HubDir d) {
        listener =
            LocalHubListener.start(hub, reactor, d.dir(), LocalHubListener.Options.defaults());
        LOG.info("listening on {}", ((LocalHubListener) listener).uri());
      } else {
        listener =
            ZmqHubListener.start(
                hub,
                reactor,
                listen,
                curve == null
                    ? ZmqHubSettings.Options.loopback(loopback)
                    : ZmqHubSettings.Options.curve(curve));
        if (curve == null) {
          LOG.info(
              "listening on {} (no CURVE: every peer is {})",
              ((ZmqHubListener) listener).endpoint(),
              loopback.isOwner()
                  ? "the instance owner, --tcp-loopback-role owner"
                  : "a guest of unknown uid; the job manager needs --tcp-loopback-role owner"
                      + " or --listen unix:DIR");
        } else {
          LOG.info(
              "listening on {} (CURVE, server key {}, {} client key(s))",
              ((ZmqHubListener) listener).endpoint(),
              curve.publicKey(),
              curve.clients().size());
        }
      }
      // listening first, so that a bad endpoint is reported at once; then warmed up (D570)
      rehearse(options);
      SchedService svc = SchedService.standalone(pool).options(options).store(store).build();
      FluxHandle h = hub.attach(Credentials.owner(uid));
      transcript.record(h, LOG);
      if (store.size() > 0) {
        LOG.info("state-dir: {} running job(s) wait for the job manager's hello", store.size());
      }
      Daemon.await(svc.start(h), "start", "");
      return serve(reactor, listener);
    } catch (RpcException e) {
      Daemon.closeQuietly(LOG, listener);
      reactor.close();
      throw new CliError("--listen: " + e.getMessage());
    }
  }

  private int attached(SchedulerOptions options) throws InterruptedException {
    transcript.check();
    Reactor reactor = Reactor.start("fluxdrm-sched");
    try {
      FluxHandle h =
          io.fluxdrm.rpc.endpoint.Connectors.openLocal(reactor, fluxUri, Daemon.START_TIMEOUT);
      // connected first, so that a missing broker is reported at once (D480); then warmed up
      rehearse(options);
      transcript.record(h, LOG);
      SchedService svc = SchedService.attached().options(options).build();
      Daemon.await(svc.start(h), "attach", "");
      return serve(reactor, null);
    } catch (RpcException e) {
      reactor.close();
      if (e.errnum() == Errno.EEXIST) {
        throw new CliError(
            "--flux-uri "
                + fluxUri
                + ": "
                + e.getMessage()
                + " (expected: no other scheduler on the instance; flux module remove"
                + " sched-simple first)");
      }
      throw CliError.connect("--flux-uri " + fluxUri, fluxUri, e, "a Flux broker there");
    }
  }

  /**
   * The rehearsal of {@code --rehearse} (D570). It only warms this process up: when it fails, the
   * scheduler still starts, and says so.
   */
  private void rehearse(SchedulerOptions options) throws InterruptedException {
    if (rehearse == 0) {
      return;
    }
    // the rehearsal logs as the real scheduler will, for a warm logging path too; its lines, about
    // jobs that do not exist, are discarded (D583)
    LogOutput.install();
    try {
      Rehearsal.Result r;
      LogOutput.discard(true);
      try {
        r = Rehearsal.run(options, rehearse, Daemon.START_TIMEOUT, true);
      } finally {
        LogOutput.discard(false);
      }
      LOG.info("rehearsal: {} jobs in {} ms", r.jobs(), r.elapsed().toMillis());
    } catch (RpcException | java.io.UncheckedIOException e) {
      LOG.warn("rehearsal: {} (starting without it)", e.getMessage());
    }
  }

  /**
   * Runs until SIGINT or SIGTERM; the shutdown hook closes the transcript (on the loop, which
   * writes it), the listener and the reactor.
   */
  private int serve(Reactor reactor, AutoCloseable listener) throws InterruptedException {
    // serving: the per-job log lines leave in batches, at most 100 ms late (D583)
    LogOutput.install();
    return Daemon.serve(
        LOG,
        "fluxdrm-sched",
        reactor,
        () -> {
          reactor.runAndWait(() -> transcript.close(LOG), java.time.Duration.ofSeconds(2));
          Daemon.closeQuietly(LOG, listener);
        });
  }
}
