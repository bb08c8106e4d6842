package io.fluxdrm.cli;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.hub.LocalHubListener;
import io.fluxdrm.rpc.hub.ZmqHubListener;
import io.fluxdrm.rpc.hub.ZmqHubSettings;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.RsetException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fluxdrm dvm}: the reference DVM as a process on its own hub, as {@code prte --daemonize}
 * (PRRTE §7.4.4.5 "Trying it out"). On one machine its "nodes" are names: every proc runs here, as
 * a real process (or none with {@code --simulated}). Clients ({@code fluxdrm sessionctrl}, {@code
 * fluxdrm alloc}, a scheduler) reach it through the hub (decision D370).
 */
@Command(
    name = "dvm",
    mixinStandardHelpOptions = true,
    header = "Run the reference DVM (PRRTE-like) on its own hub until SIGINT or SIGTERM.",
    description =
        "Its nodes are --hosts (default: this host's short name), all local: every proc "
            + "is a process of this machine. Prints one line on stdout once it serves; logs on "
            + "stderr.")
final class DvmCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(DvmCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--hosts",
      paramLabel = "HOSTLIST",
      description = "The DVM's nodes, the master first (RFC 29 hostlist, e.g. node[0-3])")
  String hosts;

  @Option(
      names = "--slots",
      paramLabel = "N",
      description = "Slots per node (default: this machine's processors)")
  Integer slots;

  @Option(
      names = "--listen",
      paramLabel = "ENDPOINT",
      description =
          "unix:DIR (socket DIR/local, mode 0700; default unix:$TMPDIR/fluxdrm-dvm-UID) or"
              + " tcp://127.0.0.1:PORT")
  String listen;

  @Option(
      names = LoopbackRole.OPTION,
      paramLabel = "guest|owner",
      description = LoopbackRole.DESCRIPTION)
  String tcpLoopbackRole;

  @Option(names = "--simulated", description = "Start no process: procs run until signalled")
  boolean simulated;

  @Option(
      names = "--daemon-latency",
      paramLabel = "MS",
      defaultValue = "0",
      description = "Time a daemon takes to start or stop (default: ${DEFAULT-VALUE})")
  long daemonLatencyMs;

  @Option(
      names = "--stop-latency",
      paramLabel = "MS",
      description = "Time a daemon takes to stop, if not --daemon-latency")
  Long stopLatencyMs;

  @Option(
      names = "--fail-daemons",
      paramLabel = "HOSTLIST",
      description =
          "With --simulated: the daemons of these hosts fail to start (to see a grow rolled"
              + " back)")
  String failDaemons;

  @Option(
      names = "--kill-grace",
      paramLabel = "SECONDS",
      defaultValue = "5",
      description = "Time between SIGTERM and SIGKILL on terminate (default: ${DEFAULT-VALUE})")
  long killGraceSeconds;

  @Option(
      names = "--elastic",
      negatable = true,
      defaultValue = "false",
      fallbackValue = "true",
      description =
          "Elastic mode (prte_elastic_mode=1; off by default, as in PRRTE): grow and shrink"
              + " campaigns behind a launch fence, jobs held during size changes, a failed grow"
              + " rolled back, and the second-phase event PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD"
              + " (PRRTE's elastic-DVM spec, docs/elastic.md)")
  boolean elastic;

  @Option(
      names = "--check-invariants",
      hidden = true,
      description = "Check issue 13's invariants after every event (tests); log violations")
  boolean checkInvariants;

  @Mixin TranscriptOption transcript = new TranscriptOption();

  @Override
  public Integer call() throws InterruptedException {
    List<DvmConfig.NodeSpec> nodes = nodes();
    if (daemonLatencyMs < 0 || killGraceSeconds < 0) {
      throw CliError.usage(
          (daemonLatencyMs < 0
                  ? "--daemon-latency: " + daemonLatencyMs
                  : "--kill-grace: " + killGraceSeconds)
              + " (expected: >= 0)");
    }
    long stopMs = stopLatencyMs == null ? daemonLatencyMs : stopLatencyMs;
    if (stopMs < 0) {
      throw CliError.usage("--stop-latency: " + stopMs + " (expected: >= 0)");
    }
    java.util.Set<String> failing = failingHosts();
    String endpoint = listen == null ? "unix:" + DvmClientOptions.defaultDir() : listen;
    io.fluxdrm.rpc.endpoint.Endpoint parsed =
        io.fluxdrm.rpc.endpoint.Endpoint.parse(endpoint).orElse(null);
    if (!(parsed instanceof io.fluxdrm.rpc.endpoint.Endpoint.HubDir)
        && !(parsed instanceof io.fluxdrm.rpc.endpoint.Endpoint.Tcp t && t.loopback())) {
      throw CliError.usage(
          "--listen: \"" + endpoint + "\" (expected: unix:DIR or tcp://127.0.0.1:PORT)");
    }
    int uid = Daemon.uid();
    Credentials loopback = LoopbackRole.credentials(tcpLoopbackRole, endpoint, false, uid);
    DvmConfig config =
        new DvmConfig(
            nodes,
            nodes.get(0).host(),
            "fluxdrm.dvm." + ProcessHandle.current().pid(),
            Integer.toUnsignedLong(uid),
            Duration.ofSeconds(killGraceSeconds),
            DvmConfig.DEFAULT_MAX_INFOS,
            elastic);
    transcript.check();
    Reactor reactor = Reactor.start("fluxdrm-dvm");
    AutoCloseable listener = null;
    DvmService dvm = null;
    try {
      Hub hub = new Hub(reactor);
      String where;
      if (parsed instanceof io.fluxdrm.rpc.endpoint.Endpoint.HubDir d) {
        LocalHubListener l =
            LocalHubListener.start(hub, reactor, d.dir(), LocalHubListener.Options.defaults());
        listener = l;
        where = d.text();
      } else {
        ZmqHubListener l =
            ZmqHubListener.start(hub, reactor, endpoint, ZmqHubSettings.Options.loopback(loopback));
        listener = l;
        where = l.endpoint();
      }
      DvmService.Builder b = DvmService.builder(config, reactor);
      if (checkInvariants) {
        b.checkedEveryStep();
      }
      dvm =
          b.mode(simulated ? DvmService.Mode.SIMULATED : DvmService.Mode.REAL)
              .daemons(
                  DaemonPolicy.immediate()
                      .withLatency(Duration.ofMillis(daemonLatencyMs), Duration.ofMillis(stopMs))
                      .failing(failing))
              .start();
      FluxHandle h = hub.attach(Credentials.owner(uid));
      transcript.record(h, LOG);
      DvmHubService front = new DvmHubService(dvm, config.master(), h, dvm::schedulerEvent);
      Daemon.await(front.start(), "register dvm", "");
      LOG.info(
          "serving {} node(s) {} (master {}), {} mode",
          nodes.size(),
          Hostlist.of(nodes.stream().map(DvmConfig.NodeSpec::host).toList()),
          config.master(),
          simulated ? "simulated" : "real-process");
      spec.commandLine()
          .getOut()
          .println(
              "fluxdrm dvm: listening on "
                  + where
                  + " ("
                  + nodes.size()
                  + " node(s), master "
                  + config.master()
                  + ")");
      spec.commandLine().getOut().flush();
      AutoCloseable l = listener;
      DvmService d = dvm;
      return Daemon.serve(
          LOG,
          "fluxdrm-dvm",
          reactor,
          () -> {
            reactor.runAndWait(
                () -> {
                  d.close();
                  transcript.close(LOG);
                },
                Duration.ofSeconds(5));
            Daemon.closeQuietly(LOG, l);
          });
    } catch (RpcException e) {
      if (dvm != null) {
        reactor.runAndWait(dvm::close, Duration.ofSeconds(5));
      }
      Daemon.closeQuietly(LOG, listener);
      reactor.close();
      throw new CliError("--listen: " + endpoint + ": " + e.getMessage());
    }
  }

  private List<DvmConfig.NodeSpec> nodes() {
    String list = hosts == null ? shortHostname() : hosts;
    Hostlist h;
    try {
      h = Hostlist.parse(list);
    } catch (RsetException e) {
      throw CliError.usage("--hosts: " + e.getMessage());
    }
    if (h.isEmpty() || h.count() > 100_000) {
      throw CliError.usage("--hosts: " + h.count() + " hosts (expected: 1 to 100000)");
    }
    int n = slots == null ? Runtime.getRuntime().availableProcessors() : slots;
    if (n < 1) {
      throw CliError.usage("--slots: " + n + " (expected: at least 1)");
    }
    List<DvmConfig.NodeSpec> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (String host : h.expand()) {
      if (!seen.add(host)) {
        throw CliError.usage("--hosts: " + host + " twice (expected: each host once)");
      }
      out.add(new DvmConfig.NodeSpec(host, n));
    }
    return out;
  }

  /** The hosts of {@code --fail-daemons}; only with {@code --simulated}. */
  private java.util.Set<String> failingHosts() {
    if (failDaemons == null) {
      return java.util.Set.of();
    }
    if (!simulated) {
      throw CliError.usage(
          "--fail-daemons: without --simulated (expected: injected failures of simulated"
              + " daemons only)");
    }
    try {
      return new java.util.HashSet<>(Hostlist.parse(failDaemons).expand());
    } catch (RsetException e) {
      throw CliError.usage("--fail-daemons: " + e.getMessage());
    }
  }

  /** This host's name up to the first dot, as {@code hostname -s}. */
  static String shortHostname() {
    try {
      String n = InetAddress.getLocalHost().getHostName();
      int dot = n.indexOf('.');
      return dot > 0 ? n.substring(0, dot) : n;
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
