package io.fluxdrm.cli;

import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.LiveReplay;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxdrm replay}: replays a transcript against a fresh instance of a service. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    header =
        "Replay the requests of a transcript (JSON lines recorded at a service's or a "
            + "client's endpoint) against a fresh instance of the service NAME and print the "
            + "unified diff of the responses; when they are all the same it says how many "
            + "matched.",
    description =
        "Exit status: 0 same; 1 different, or an error (an unreadable or malformed "
            + "transcript, or one with no request to NAME or no response to compare: nothing "
            + "replayed is no pass); 2 a usage error (an unknown service NAME among them).")
final class ReplayCommand implements Callable<Integer> {
  private static final String COMPONENT_LOG = "org.slf4j.simpleLogger.log.io.fluxdrm";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TRANSCRIPT", description = "Transcript file")
  Path transcript;

  @Option(
      names = "--service",
      required = true,
      paramLabel = "NAME",
      description = "Service to replay against (e.g. sched)")
  String service;

  @Option(
      names = "--uri",
      paramLabel = "URI",
      description =
          "Replay against the service running there (unix:DIR of a fluxdrm server, local://PATH,"
              + " tcp://127.0.0.1:PORT), playing the parts of the other services it calls, instead"
              + " of a fresh instance in this process")
  String uri;

  @Option(
      names = "--play",
      paramLabel = "SERVICE",
      description =
          "With --uri: a service whose part the replayer plays, answering the service's requests"
              + " to it as recorded (repeatable; default: job-manager)")
  List<String> play = new java.util.ArrayList<>();

  @Option(
      names = "--wait",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description =
          "With --uri: how long to wait for the answers recorded before each request, and at the"
              + " end (default: ${DEFAULT-VALUE})")
  int waitSeconds;

  @Option(
      names = "--then",
      paramLabel = "COMMAND",
      description =
          "With --uri: run COMMAND (sh -c) once the replayer plays the --play services, before the"
              + " first request, and wait for it to exit; for a service that must find its"
              + " partners when it starts (e.g. 'flux module load sched-simple' in an instance"
              + " without a job manager)")
  String then;

  @Override
  public Integer call() {
    if (uri != null) {
      return live();
    }
    // the replayed service's own log lines are not the command's output: warnings only, unless the
    // user asked for more
    if (System.getProperty(COMPONENT_LOG) == null) {
      System.setProperty(COMPONENT_LOG, "warn");
    }
    ReplayRegistry registry = ReplayRegistry.load();
    if (!registry.names().contains(service)) {
      throw CliError.usage(
          "--service: \""
              + service
              + "\" (expected: one of "
              + String.join(", ", registry.names())
              + ")");
    }
    ReplayResult r;
    try {
      r = registry.run(service, transcript);
    } catch (RpcException e) {
      throw new CliError(Main.firstLine(e.getMessage()));
    }
    return report(r);
  }

  /** Prints the result: the success line, or the diff; 0 when the same, else 1. */
  private int report(ReplayResult r) {
    if (r.requests() == 0 || r.responses() == 0) {
      // nothing was compared: an empty file, or a transcript of another endpoint, is no pass
      throw new CliError(
          transcript
              + ": "
              + (r.requests() == 0
                  ? "no request to service " + service + " in it"
                  : r.requests() + " request(s) replayed, but no recorded response to compare")
              + " (expected: a transcript recorded at "
              + service
              + "'s endpoint)");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (r.same()) {
      out.println(matched(r, transcript, service));
    }
    out.print(r.unifiedDiff());
    out.flush();
    return r.same() ? 0 : 1;
  }

  /** {@code --uri}: the transcript's requests against the running service, over connections. */
  private int live() {
    if (waitSeconds < 1) {
      throw CliError.usage("--wait " + waitSeconds + ": expected at least 1 second");
    }
    String target = liveUri(uri);
    List<TranscriptLine> lines;
    try {
      lines = Transcript.read(transcript);
    } catch (RpcException e) {
      throw new CliError(Main.firstLine(e.getMessage()));
    }
    ReplayResult r;
    try (Reactor reactor = Reactor.start("fluxdrm-replay")) {
      Supplier<FluxHandle> connect =
          () -> {
            try {
              return io.fluxdrm.rpc.endpoint.Connectors.open(
                  reactor,
                  target,
                  Duration.ofSeconds(waitSeconds),
                  null,
                  io.fluxdrm.rpc.endpoint.Connectors.Absent.FAIL);
            } catch (RpcException e) {
              throw CliError.connect("--uri " + uri, target, e, "a running service there");
            }
          };
      r =
          LiveReplay.run(
              lines,
              service,
              connect,
              java.util.Set.copyOf(play.isEmpty() ? List.of("job-manager") : play),
              ReplayRegistry.load().normalisations(service),
              Duration.ofSeconds(waitSeconds),
              then == null ? () -> {} : () -> runThen(then));
    } catch (RpcException e) {
      throw new CliError(Main.firstLine(e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliError("replay: interrupted");
    }
    return report(r);
  }

  /**
   * Runs {@code --then}'s command with this process's standard streams; a failure to start it, or a
   * non-zero exit, ends the replay with one line.
   */
  private static void runThen(String command) {
    int rc;
    try {
      Process p = new ProcessBuilder("sh", "-c", command).inheritIO().start();
      rc = p.waitFor();
    } catch (java.io.IOException e) {
      throw new CliError("--then: cannot run sh: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliError("replay: interrupted");
    }
    if (rc != 0) {
      throw new CliError("--then: '" + command + "' exited with status " + rc);
    }
  }

  /** A server's {@code unix:DIR} as the connector's {@code local://DIR/local}; others as given. */
  static String liveUri(String u) {
    java.util.Optional<io.fluxdrm.rpc.endpoint.Endpoint> e =
        io.fluxdrm.rpc.endpoint.Endpoint.parse(u);
    if (e.isPresent()) {
      return e.get().connectorUri();
    }
    throw CliError.usage(
        "--uri: \"" + u + "\" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)");
  }

  /** The success line: {@code replay: 7 of 7 responses matched (transcript T, service S)}. */
  static String matched(ReplayResult r, Path transcript, String service) {
    return "replay: "
        + r.responses()
        + " of "
        + r.responses()
        + " responses matched (transcript "
        + transcript
        + ", service "
        + service
        + ")";
  }
}
