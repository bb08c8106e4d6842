package io.fluxdrm.cli;

import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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

  @Override
  public Integer call() {
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
