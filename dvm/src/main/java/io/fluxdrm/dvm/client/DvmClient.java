package io.fluxdrm.dvm.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.endpoint.Connectors;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.PrintWriter;
import java.io.Serial;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A client of a DVM's hub, as the DVM's client commands ({@code sessionctrl}, {@code alloc}) use
 * it: one request on a connection of its own and its answer, with an elastic DVM's second-phase
 * event when asked for, and how an answer is printed (decision D373).
 */
public final class DvmClient {
  private DvmClient() {}

  /**
   * A request that got no answer: its reason, without the endpoint, which the caller names as its
   * user wrote it; the transport's {@link RpcException} as the cause where the connection failed.
   */
  public static final class Failure extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    Failure(String message, RpcException cause) {
      super(message, cause, false, false);
    }

    /** The connection's failure, or empty when the DVM answered otherwise or not at all. */
    public Optional<RpcException> connection() {
      return Optional.ofNullable((RpcException) getCause());
    }
  }

  /**
   * Connects to {@code uri}, sends the request {@code call} makes and hands its answer to {@code
   * answer} as it arrives. With {@code phases}, an accepted request is followed to its second phase
   * (an elastic DVM's {@code PMIX_DVM_IS_READY} or {@code PMIX_ERR_DVM_MOD}, directed to this
   * client, PRRTE elastic-DVM spec, two-phase answer), whose event this returns; the registration
   * for it is made before the request, so that the event cannot pass unseen.
   *
   * @param timeoutSeconds how long to wait for the connection, the answer and the event
   * @return the second-phase event, or empty without {@code phases} or for a refused request
   * @throws Failure no connection, no DVM there, no answer or no event in time
   */
  public static Optional<StatusInfos> request(
      String uri,
      int timeoutSeconds,
      Function<HubDvmPort, CompletableFuture<StatusInfos>> call,
      boolean phases,
      Consumer<StatusInfos> answer)
      throws Failure, InterruptedException {
    Reactor reactor = Reactor.start("fluxdrm-client");
    FluxHandle h = null;
    try {
      h =
          Connectors.open(
              reactor, uri, Duration.ofSeconds(timeoutSeconds), null, Connectors.Absent.FAIL);
      HubDvmPort port = new HubDvmPort(h, Duration.ofSeconds(timeoutSeconds));
      StatusInfos a;
      CompletableFuture<Event> second = new CompletableFuture<>();
      try {
        if (phases) {
          Registration reg =
              port.registerEvents(
                      List.of(
                          PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
                      second::complete)
                  .toCompletableFuture()
                  .get(timeoutSeconds + 5L, TimeUnit.SECONDS);
          if (reg.status() != PmixStatus.PMIX_SUCCESS) {
            throw new Failure("event registration: " + reg.status().name(), null);
          }
        }
        a = call.apply(port).get(timeoutSeconds + 5L, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof RpcException r) {
          if (r.errnum() == Errno.ENOSYS) {
            throw new Failure("no DVM there (expected: 'fluxdrm dvm' listening)", null);
          }
          throw new Failure(r.getMessage(), r);
        }
        throw new Failure(c.getMessage(), null);
      } catch (TimeoutException e) {
        throw new Failure("no answer in " + timeoutSeconds + " s", null);
      }
      answer.accept(a);
      if (!phases || !a.succeeded()) {
        return Optional.empty();
      }
      Event e;
      try {
        e = second.get(timeoutSeconds, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException x) {
        throw new Failure(
            "no second-phase event in "
                + timeoutSeconds
                + " s (expected: an elastic DVM, and a request that changes it)",
            null);
      }
      return Optional.of(
          new StatusInfos(PmixStatus.byCode(e.status()).orElse(PmixStatus.PMIX_ERROR), e.infos()));
    } catch (RpcException e) {
      throw new Failure(e.getMessage(), e);
    } finally {
      if (h != null) {
        h.close();
      }
      reactor.close();
    }
  }

  /** The DVM's own words for a refusal, in parentheses after a space, or "". */
  public static String errorSuffix(StatusInfos a) {
    return DvmWire.errorText(a).map(t -> " (" + t + ")").orElse("");
  }

  /** Prints the status by name, then one {@code NAME=value} line per info (or JSON). */
  public static void print(StatusInfos a, boolean json, PrintWriter out) {
    print(a, json, out, 0);
  }

  /**
   * Prints one answer ({@code phase} 1) or second-phase event ({@code phase} 2), or a plain answer
   * (0): JSON lines then carry {@code "phase"}, and an event's text block starts {@code event }.
   */
  public static void print(StatusInfos a, boolean json, PrintWriter out, int phase) {
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
