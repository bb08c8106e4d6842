package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * What the DVM's client commands ({@code sessionctrl}, {@code alloc}) share: where the DVM is, one
 * request and its answer, and how the answer is printed (decision D373).
 */
final class DvmClient {
  /** The environment variable naming the DVM's endpoint when {@code --connect} is not given. */
  static final String URI_ENV = "FLUXDRM_DVM_URI";

  /** What a failed connect expects there. */
  private static final String EXPECTED = "'fluxdrm dvm' listening there";

  private DvmClient() {}

  /** The default rendezvous directory of {@code fluxdrm dvm}: {@code $TMPDIR/fluxdrm-dvm-UID}. */
  static Path defaultDir() {
    String tmp = System.getenv("TMPDIR");
    return Path.of(tmp == null || tmp.isEmpty() ? "/tmp" : tmp, "fluxdrm-dvm-" + Daemon.uid());
  }

  /** The options every client command takes. */
  static final class Options {
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
      java.util.Optional<io.fluxdrm.rpc.endpoint.Endpoint> e =
          io.fluxdrm.rpc.endpoint.Endpoint.parse(c);
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
  }

  /**
   * Connects, sends one request and prints its answer; the exit status is 0 for {@code
   * PMIX_SUCCESS}, 1 otherwise.
   *
   * @param what names the request in error lines, e.g. "session 42"
   */
  static int run(
      Options o,
      PrintWriter out,
      PrintWriter err,
      String prefix,
      String what,
      Function<HubDvmPort, CompletableFuture<StatusInfos>> call)
      throws InterruptedException {
    return run(o, out, err, prefix, what, call, false);
  }

  /**
   * As {@link #run(Options, PrintWriter, PrintWriter, String, String, Function)}; with {@code
   * phases}, an accepted request is followed to its second phase (an elastic DVM's {@code
   * PMIX_DVM_IS_READY} or {@code PMIX_ERR_DVM_MOD}, directed to this client, PRRTE elastic-DVM
   * spec, two-phase answer): the answer is printed as it arrives, then the event, and the exit
   * status is 0 only for {@code PMIX_DVM_IS_READY}.
   */
  static int run(
      Options o,
      PrintWriter out,
      PrintWriter err,
      String prefix,
      String what,
      Function<HubDvmPort, CompletableFuture<StatusInfos>> call,
      boolean phases)
      throws InterruptedException {
    String uri = o.uri();
    Reactor reactor = Reactor.start("fluxdrm-client");
    FluxHandle h = null;
    try {
      h =
          io.fluxdrm.rpc.endpoint.Connectors.open(
              reactor,
              uri,
              Duration.ofSeconds(o.timeoutSeconds),
              null,
              io.fluxdrm.rpc.endpoint.Connectors.Absent.FAIL);
      HubDvmPort port = new HubDvmPort(h, Duration.ofSeconds(o.timeoutSeconds));
      StatusInfos a;
      CompletableFuture<Event> second = new CompletableFuture<>();
      try {
        if (phases) {
          // registered before the request, so that its event cannot pass unseen
          Registration reg =
              port.registerEvents(
                      List.of(
                          PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
                      second::complete)
                  .toCompletableFuture()
                  .get(o.timeoutSeconds + 5L, TimeUnit.SECONDS);
          if (reg.status() != PmixStatus.PMIX_SUCCESS) {
            throw new CliError(o.label() + ": event registration: " + reg.status().name());
          }
        }
        a = call.apply(port).get(o.timeoutSeconds + 5L, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof RpcException r) {
          if (r.errnum() == Errno.ENOSYS) {
            throw new CliError(o.label() + ": no DVM there (expected: 'fluxdrm dvm' listening)");
          }
          throw CliError.connect(o.label(), uri, r, EXPECTED);
        }
        throw new CliError(o.label() + ": " + c.getMessage());
      } catch (TimeoutException e) {
        throw new CliError(o.label() + ": no answer in " + o.timeoutSeconds + " s");
      }
      print(a, o.json, out, phases ? 1 : 0);
      if (phases && a.succeeded()) {
        Event e;
        try {
          e = second.get(o.timeoutSeconds, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException x) {
          throw new CliError(
              o.label()
                  + ": no second-phase event in "
                  + o.timeoutSeconds
                  + " s (expected: an elastic DVM, and a request that changes it)");
        }
        StatusInfos ev =
            new StatusInfos(PmixStatus.byCode(e.status()).orElse(PmixStatus.PMIX_ERROR), e.infos());
        print(ev, o.json, out, 2);
        if (e.status() != PmixStatus.PMIX_DVM_IS_READY.code()) {
          err.println(prefix + what + ": " + ev.status().name());
          err.flush();
          return Main.EXIT_ERROR;
        }
        return 0;
      }
      if (!a.succeeded()) {
        err.println(
            prefix
                + what
                + ": "
                + a.status().name()
                + DvmWire.errorText(a).map(t -> " (" + t + ")").orElse(""));
        err.flush();
        return Main.EXIT_ERROR;
      }
      return 0;
    } catch (RpcException e) {
      throw CliError.connect(o.label(), uri, e, EXPECTED);
    } finally {
      if (h != null) {
        h.close();
      }
      reactor.close();
    }
  }

  /** Prints the status by name, then one {@code NAME=value} line per info (or JSON). */
  static void print(StatusInfos a, boolean json, PrintWriter out) {
    print(a, json, out, 0);
  }

  /**
   * Prints one answer ({@code phase} 1) or second-phase event ({@code phase} 2), or a plain answer
   * (0): JSON lines then carry {@code "phase"}, and an event's text block starts {@code event }.
   */
  static void print(StatusInfos a, boolean json, PrintWriter out, int phase) {
    if (json) {
      ObjectNode o = Json.object();
      if (phase > 0) {
        o.put("phase", phase);
      }
      o.put("status", a.status().name());
      o.put("code", a.status().code());
      o.set("infos", InfoCodec.encode(a.infos()));
      out.println(o.toString());
    } else {
      out.println((phase == 2 ? "event " : "") + a.status().name());
      for (Info i : a.infos()) {
        if (i.key().equals(DvmWire.ERROR_KEY)) {
          continue;
        }
        out.println(line(i, ""));
      }
    }
    out.flush();
  }

  private static String line(Info i, String indent) {
    String name = PmixKey.nameOf(i.key()).orElse(i.key());
    if (i.type() == PmixDataType.PMIX_DATA_ARRAY
        && i.value() instanceof List<?> l
        && l.stream().allMatch(Info.class::isInstance)) {
      StringBuilder b = new StringBuilder(indent + name + ":");
      for (Object e : l) {
        b.append('\n').append(line((Info) e, indent + "  "));
      }
      return b.toString();
    }
    String v = i.toString();
    return indent + name + "=" + v.substring(v.indexOf(")=") + 2);
  }
}
