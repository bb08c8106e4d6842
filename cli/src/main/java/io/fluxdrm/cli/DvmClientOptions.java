package io.fluxdrm.cli;

import io.fluxdrm.dvm.client.DvmClient;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options every DVM client command ({@code sessionctrl}, {@code alloc}) takes, where they say
 * the DVM is, and one request through {@link DvmClient} with its exit status (decision D373).
 */
final class DvmClientOptions {
  /** The environment variable naming the DVM's endpoint when {@code --connect} is not given. */
  static final String URI_ENV = "FLUXDRM_DVM_URI";

  /** What a failed connect expects there. */
  private static final String EXPECTED = "'fluxdrm dvm' listening there";

  /** The default rendezvous directory of {@code fluxdrm dvm}: {@code $TMPDIR/fluxdrm-dvm-UID}. */
  static Path defaultDir() {
    String tmp = System.getenv("TMPDIR");
    return Path.of(tmp == null || tmp.isEmpty() ? "/tmp" : tmp, "fluxdrm-dvm-" + Daemon.uid());
  }

  @Option(
      names = "--connect",
      paramLabel = "ENDPOINT",
      description =
          "Where the DVM listens: unix:DIR, local://PATH or tcp://127.0.0.1:PORT (default: $"
              + URI_ENV
              + ", else 'fluxdrm dvm''s default unix:$TMPDIR/fluxdrm-dvm-UID)")
  String connect;

  @Option(names = "--json", description = "Print the answer as JSON on stdout")
  boolean json;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "60",
      description = "How long to wait for the answer (default: ${DEFAULT-VALUE})")
  int timeoutSeconds;

  @Option(
      names = "--info",
      paramLabel = "JSON",
      description =
          "Extra infos to send, an array in InfoCodec's form, e.g."
              + " '[{\"key\":\"pmix.alloc.queue\",\"value\":\"batch\"}]' (repeatable)")
  List<String> extraInfos = new ArrayList<>();

  /** The endpoint as the user gave it, for error lines: the option, the variable or default. */
  String label() {
    if (connect != null) {
      return "--connect " + connect;
    }
    String env = System.getenv(URI_ENV);
    if (env != null && !env.isEmpty()) {
      return "$" + URI_ENV + " " + env;
    }
    return "the DVM's default endpoint unix:" + defaultDir();
  }

  /** The connector URI. */
  String uri() {
    String c = connect != null ? connect : System.getenv(URI_ENV);
    if (c == null || c.isEmpty()) {
      return "local://" + defaultDir().resolve("local");
    }
    Optional<io.fluxdrm.rpc.endpoint.Endpoint> e = io.fluxdrm.rpc.endpoint.Endpoint.parse(c);
    if (e.isPresent()
        && !(e.get() instanceof io.fluxdrm.rpc.endpoint.Endpoint.Tcp t && !t.loopback())) {
      return e.get().connectorUri();
    }
    throw CliError.usage(
        "--connect: \""
            + c
            + "\" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT on loopback)");
  }

  /** The {@code --info} entries, decoded. */
  List<Info> extras() {
    List<Info> out = new ArrayList<>();
    for (String s : extraInfos) {
      try {
        out.addAll(InfoCodec.decode(s));
      } catch (PmixException e) {
        throw CliError.usage("--info: " + e.getMessage());
      }
    }
    return out;
  }

  /**
   * Connects, sends one request and prints its answer (and, with {@code phases}, the second-phase
   * event, see {@link DvmClient#request}); the exit status is 0 for {@code PMIX_SUCCESS} (with
   * {@code phases}, for {@code PMIX_DVM_IS_READY}), 1 otherwise.
   *
   * @param what names the request in error lines, e.g. "session 42"
   */
  int run(
      PrintWriter out,
      PrintWriter err,
      String prefix,
      String what,
      Function<HubDvmPort, CompletableFuture<StatusInfos>> call,
      boolean phases)
      throws InterruptedException {
    String uri = uri();
    StatusInfos[] answer = new StatusInfos[1];
    Optional<StatusInfos> event;
    try {
      event =
          DvmClient.request(
              uri,
              timeoutSeconds,
              call,
              phases,
              a -> {
                answer[0] = a;
                DvmClient.print(a, json, out, phases ? 1 : 0);
              });
    } catch (DvmClient.Failure f) {
      if (f.connection().isPresent()) {
        throw CliError.connect(label(), uri, f.connection().get(), EXPECTED);
      }
      throw new CliError(label() + ": " + f.getMessage());
    }
    if (event.isPresent()) {
      StatusInfos ev = event.get();
      DvmClient.print(ev, json, out, 2);
      if (ev.status() != PmixStatus.PMIX_DVM_IS_READY) {
        err.println(prefix + what + ": " + ev.status().name());
        err.flush();
        return Main.EXIT_ERROR;
      }
      return 0;
    }
    if (!answer[0].succeeded()) {
      err.println(
          prefix + what + ": " + answer[0].status().name() + DvmClient.errorSuffix(answer[0]));
      err.flush();
      return Main.EXIT_ERROR;
    }
    return 0;
  }
}
