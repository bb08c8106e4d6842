package io.fluxdrm.cli;

import io.fluxdrm.jobmanager.BridgeService;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.jobmanager.JobManagerException;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fluxdrm bridge}: the bridge between a DVM and a scheduler as a process. For now it runs
 * the job manager (RFC 27 towards the scheduler, RFC 51 towards the job shells) on a hub or broker,
 * with its eventlogs in a state directory, and the {@code bridge} service that submits and ends
 * jobs (decisions D137, D138).
 */
@Command(
    name = "bridge",
    mixinStandardHelpOptions = true,
    header =
        "Run the job manager of RFC 51 (job-manager: sched-hello/sched-ready with the "
            + "scheduler, realloc/release/realloc_cancel from job shells) and the 'bridge' "
            + "service (submit, finish).",
    description =
        "Logs one line per job event on stderr; stops cleanly on SIGINT or SIGTERM (exit "
            + "status 130 or 143); a usage error exits 2, a failure to start 1. With --dvm, "
            + "also the scheduler of a running 'fluxdrm dvm': its allocation requests become "
            + "sched.realloc of the DVM's job, each grant a session control INSTANTIATE or "
            + "EXTEND. With --pmix-scheduler --dvm-uri file:PATH, the PMIx scheduler of a "
            + "PRRTE DVM instead (JDK 22+ and the pmix-native module; start it before prte, "
            + "docs/prrte.md).")
final class BridgeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeCommand.class);

  @Option(
      names = "--connect",
      paramLabel = "ENDPOINT",
      description =
          "tcp://127.0.0.1:PORT ('fluxdrm sched --listen tcp://... --tcp-loopback-role owner',"
              + " ZeroMQ on loopback; any"
              + " host with --curve-cert and --curve-server-key),"
              + " unix:DIR ('fluxdrm sched --listen unix:DIR') or local://PATH (a Flux broker's"
              + " local connector)")
  String connect;

  @Option(
      names = "--curve-cert",
      paramLabel = "FILE",
      description =
          "This client's CURVE certificate ('fluxdrm keygen'; mode 0600), its public key listed"
              + " in the scheduler's --curve-clients; for --connect tcp:// to any host")
  Path curveCert;

  @Option(
      names = "--curve-server-key",
      paramLabel = "Z85|FILE",
      description =
          "The hub's public key: 40 Z85 characters as 'fluxdrm keygen' printed them, or a"
              + " certificate file holding it")
  String curveServerKey;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "The jobs' eventlogs (created if missing); jobs found there are recovered")
  Path stateDir;

  @Option(
      names = "--dvm",
      paramLabel = "ENDPOINT",
      description =
          "Be the scheduler of the DVM listening there ('fluxdrm dvm --listen'): unix:DIR,"
              + " local://PATH or tcp://127.0.0.1:PORT; either side may start first, and a"
              + " restarted DVM is attached again (decision D377)")
  String dvm;

  @Option(
      names = "--pmix-scheduler",
      description =
          "Be the PMIx scheduler of a PRRTE DVM (JDK 22+ and the pmix-native module): start this"
              + " first, then prte --prtemca ras_pmix_system_scheduler 1 --prtemca"
              + " prte_elastic_mode 1 --report-uri FILE (docs/prrte.md)")
  boolean pmixScheduler;

  @Option(
      names = "--dvm-uri",
      paramLabel = "URI",
      description =
          "With --pmix-scheduler: the DVM's URI, or file:PATH of the file prte --report-uri writes")
  String dvmUriArg;

  @Option(
      names = "--dvm-host",
      paramLabel = "HOST",
      description =
          "With --pmix-scheduler: the node prte runs on, which the DVM's job holds (default: this"
              + " host's name)")
  String dvmHost;

  @Option(
      names = "--flux-job",
      paramLabel = "JOBID",
      description =
          "With --pmix-scheduler and --connect local://PATH of a flux-core instance whose job"
              + " manager has the realloc plugin loaded: the DVM is that running Flux job, and its"
              + " grows and shrinks go to flux-core's job manager (no --state-dir; docs/prrte.md)")
  String fluxJob;

  @Mixin TranscriptOption transcript = new TranscriptOption();

  @Override
  public Integer call() throws InterruptedException {
    if (fluxJob != null) {
      return fluxJob();
    }
    String uri = uri();
    String dvmUri = dvm == null ? null : dvmUri(dvm);
    if (stateDir == null) {
      throw CliError.usage("--state-dir: missing (expected: a directory for the jobs' eventlogs)");
    }
    if (Files.exists(stateDir) && !Files.isDirectory(stateDir)) {
      throw new CliError(
          "--state-dir: " + stateDir + ": not a directory (expected: a directory for eventlogs)");
    }
    io.fluxdrm.bridge.dvm.PmixSchedulerProvider provider = null;
    if (pmixScheduler) {
      if (dvm != null) {
        throw CliError.usage(
            "--pmix-scheduler: not with --dvm (expected: one DVM, PRRTE or fluxdrm dvm)");
      }
      if (dvmUriArg == null || dvmUriArg.isBlank()) {
        throw CliError.usage(
            "--dvm-uri: missing (expected: with --pmix-scheduler, file:PATH of prte --report-uri)");
      }
      provider =
          PmixSchedulerLink.provider(
              Runtime.version().feature(), Thread.currentThread().getContextClassLoader());
    } else if (dvmUriArg != null || dvmHost != null) {
      throw CliError.usage(
          (dvmUriArg != null ? "--dvm-uri" : "--dvm-host") + ": only with --pmix-scheduler");
    }
    ZmqClientKeys keys = keys();
    JobManager jm;
    try {
      jm = JobManager.recover(stateDir, () -> System.currentTimeMillis() / 1000.0);
    } catch (JobManagerException e) {
      throw new CliError("--state-dir: " + e.getMessage());
    }
    transcript.check();
    Reactor reactor = Reactor.start("fluxdrm-bridge");
    FluxHandle h = null;
    try {
      h =
          io.fluxdrm.rpc.endpoint.Endpoint.isTcp(uri)
              ? io.fluxdrm.rpc.endpoint.Connectors.open(
                  reactor,
                  uri,
                  Daemon.START_TIMEOUT,
                  keys,
                  io.fluxdrm.rpc.endpoint.Connectors.Absent.RETRY)
              : connectWaiting(reactor, uri);
      transcript.record(h, LOG);
      await(jm.start(h), "job-manager");
      await(h.register(new BridgeService(jm, h.loop()).service()), BridgeService.NAME);
      LOG.info("connected to {}; serving job-manager and bridge", uri);
      AutoCloseable link = null;
      if (provider != null) {
        try {
          link =
              PmixSchedulerLink.start(
                  provider, reactor, h, jm, stateDir, Daemon.uid(), head(), dvmUriArg);
        } catch (CliError e) {
          h.close();
          reactor.close();
          throw e;
        }
      }
      if (dvmUri != null) {
        try {
          link = DvmLink.start(reactor, h, jm, stateDir, Daemon.uid(), dvmUri);
        } catch (CliError e) {
          h.close();
          reactor.close();
          throw e;
        }
      }
      return serve(reactor, h, link);
    } catch (RpcException e) {
      if (h != null) {
        h.close();
      }
      reactor.close();
      // issue 12, finding 5 (D330): a hub without CURVE makes its loopback peers guests
      boolean guest =
          io.fluxdrm.rpc.endpoint.Endpoint.isTcp(uri) && keys == null && e.errnum() == Errno.EPERM;
      if (guest) {
        throw new CliError(
            "--connect "
                + connect
                + ": "
                + e.getMessage()
                + " (a tcp:// hub without CURVE makes its peers guests: start it with"
                + " --tcp-loopback-role owner, or connect through unix:DIR)");
      }
      throw CliError.connect(
          "--connect " + connect, uri, e, "'fluxdrm sched --listen' or a Flux broker there");
    }
  }

  /**
   * The bridge may start before the scheduler's hub (docs/operations.md §7): when no server listens
   * at {@code uri} yet it says so in one line and waits up to {@link Daemon#START_TIMEOUT} for one
   * to start (D480).
   */
  private FluxHandle connectWaiting(Reactor reactor, String uri) {
    try {
      return io.fluxdrm.rpc.endpoint.Connectors.openLocal(reactor, uri, Daemon.START_TIMEOUT);
    } catch (RpcException e) {
      if (e.errnum() != Errno.ENOENT && e.errnum() != Errno.ECONNREFUSED) {
        throw e;
      }
      LOG.info(
          "--connect {}: {}; waiting up to {} s for it to start",
          connect,
          e.getMessage().substring(Math.min(e.getMessage().length(), uri.length() + 2)),
          Daemon.START_TIMEOUT.toSeconds());
    }
    return io.fluxdrm.rpc.endpoint.Connectors.openWhenUp(reactor, uri, Daemon.START_TIMEOUT);
  }

  /**
   * {@code --flux-job}: the PMIx scheduler of a PRRTE DVM that runs as a job of a real flux-core
   * instance; the bridge serves no job manager of its own (D472).
   */
  private int fluxJob() throws InterruptedException {
    if (!pmixScheduler) {
      throw CliError.usage("--flux-job: only with --pmix-scheduler");
    }
    if (!(io.fluxdrm.rpc.endpoint.Endpoint.parse(connect).orElse(null)
        instanceof io.fluxdrm.rpc.endpoint.Endpoint.Socket)) {
      throw CliError.usage(
          "--flux-job: needs --connect local://PATH (a flux-core broker's local connector)");
    }
    if (stateDir != null || dvm != null || curveCert != null || curveServerKey != null) {
      throw CliError.usage(
          "--flux-job: not with --state-dir, --dvm or CURVE keys (flux-core's job manager keeps"
              + " the job)");
    }
    if (dvmUriArg == null || dvmUriArg.isBlank()) {
      throw CliError.usage(
          "--dvm-uri: missing (expected: with --pmix-scheduler, file:PATH of prte --report-uri)");
    }
    long job;
    try {
      job = ReallocRequests.jobId(fluxJob);
    } catch (CliError e) {
      throw CliError.usage("--flux-job: " + e.getMessage());
    }
    io.fluxdrm.bridge.dvm.PmixSchedulerProvider provider =
        PmixSchedulerLink.provider(
            Runtime.version().feature(), Thread.currentThread().getContextClassLoader());
    transcript.check();
    Reactor reactor = Reactor.start("fluxdrm-bridge");
    FluxHandle h = null;
    try {
      h = io.fluxdrm.rpc.endpoint.Connectors.openLocal(reactor, connect, Daemon.START_TIMEOUT);
      transcript.record(h, LOG);
      AutoCloseable link =
          PmixSchedulerLink.startFluxJob(provider, reactor, h, job, Daemon.uid(), dvmUriArg);
      return serve(reactor, h, link);
    } catch (CliError e) {
      if (h != null) {
        h.close();
      }
      reactor.close();
      throw e;
    } catch (RpcException e) {
      if (h != null) {
        h.close();
      }
      reactor.close();
      throw CliError.connect(
          "--connect " + connect, connect, e, "a flux-core broker's local connector there");
    }
  }

  /** The connector URI of {@code --dvm}, or a usage error. */
  static String dvmUri(String arg) {
    java.util.Optional<io.fluxdrm.rpc.endpoint.Endpoint> e =
        io.fluxdrm.rpc.endpoint.Endpoint.parse(arg);
    if (e.isPresent()
        && !(e.get() instanceof io.fluxdrm.rpc.endpoint.Endpoint.Tcp t && !t.loopback())) {
      return e.get().connectorUri();
    }
    throw CliError.usage(
        "--dvm: \"" + arg + "\" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)");
  }

  /** The connector URI of {@code --connect}, or a usage error. */
  private String uri() {
    if (connect == null) {
      throw CliError.usage(
          "--connect: missing (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)");
    }
    boolean curve = curveCert != null || curveServerKey != null;
    io.fluxdrm.rpc.endpoint.Endpoint e =
        io.fluxdrm.rpc.endpoint.Endpoint.parse(connect).orElse(null);
    if (io.fluxdrm.rpc.endpoint.Endpoint.isTcp(connect)) {
      if (curve
          && !(e instanceof io.fluxdrm.rpc.endpoint.Endpoint.Tcp t && !t.host().equals("*"))) {
        throw CliError.usage("--connect: \"" + connect + "\" (expected: tcp://HOST:PORT)");
      }
      if (!curve && !(e instanceof io.fluxdrm.rpc.endpoint.Endpoint.Tcp t && t.loopback())) {
        throw CliError.usage(
            "--connect: \""
                + connect
                + "\" (expected: tcp://HOST:PORT on loopback, or --curve-cert with"
                + " --curve-server-key for any host)");
      }
      return connect;
    }
    if (curve) {
      throw CliError.usage(
          (curveCert != null ? "--curve-cert" : "--curve-server-key")
              + ": not with --connect "
              + connect
              + " (expected: --connect tcp://HOST:PORT)");
    }
    if (e != null) {
      return e.connectorUri();
    }
    throw CliError.usage(
        "--connect: \""
            + connect
            + "\" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)");
  }

  /** The CURVE keys of {@code --curve-cert} and {@code --curve-server-key}, or null for none. */
  private ZmqClientKeys keys() {
    if (curveCert == null && curveServerKey == null) {
      return null;
    }
    if (curveCert == null || curveServerKey == null) {
      throw CliError.usage(
          (curveCert == null
                  ? "--curve-server-key: without --curve-cert"
                  : "--curve-cert: without --curve-server-key")
              + " (expected: both, or neither for loopback)");
    }
    String server = serverKey(curveServerKey);
    CurveCert mine = CurveCert.readSecret(curveCert);
    return new ZmqClientKeys(server, mine.publicKey(), mine.secretKey());
  }

  /**
   * The hub's public key from {@code --curve-server-key}: a file of that name is a certificate
   * (public, or secret and private to its owner); anything else must be a Z85 key.
   */
  static String serverKey(String arg) {
    Path file = Path.of(arg.isEmpty() ? "." : arg);
    if (!arg.isEmpty() && Files.isRegularFile(file)) {
      return CurveCert.read(file).publicKey();
    }
    if (arg.length() != Z85.KEY_CHARS) {
      throw CliError.usage(
          "--curve-server-key: \""
              + arg
              + "\": no such file, and "
              + arg.length()
              + " characters (expected: a certificate file, or a key of "
              + Z85.KEY_CHARS
              + " Z85 characters)");
    }
    try {
      CurveCert.decodeKey("--curve-server-key", arg);
    } catch (io.fluxdrm.rpc.curve.CurveFileException e) {
      throw CliError.usage(e.getMessage());
    }
    return arg;
  }

  private static void await(CompletableFuture<Void> f, String what) throws InterruptedException {
    Daemon.await(f, what, " (is the hub there?)");
  }

  private String head() {
    if (dvmHost != null) {
      return dvmHost;
    }
    try {
      String n = java.net.InetAddress.getLocalHost().getHostName();
      int dot = n.indexOf('.');
      return dot > 0 ? n.substring(0, dot) : n;
    } catch (java.net.UnknownHostException e) {
      throw new CliError("--dvm-host: missing, and this host's name is unknown: " + e.getMessage());
    }
  }

  /** Runs until SIGINT or SIGTERM; the shutdown hook disconnects and stops the reactor. */
  private int serve(Reactor reactor, FluxHandle h, AutoCloseable link) throws InterruptedException {
    return Daemon.serve(
        LOG,
        "fluxdrm-bridge",
        reactor,
        // on the loop, so the hubs get the DISCONNECT before the reactor stops
        () ->
            reactor.runAndWait(
                () -> {
                  if (link != null) {
                    try {
                      link.close();
                    } catch (Exception e) {
                      LOG.warn("closing: {}", e.toString());
                    }
                  }
                  h.close();
                  transcript.close(LOG);
                },
                Duration.ofSeconds(2)));
  }
}
