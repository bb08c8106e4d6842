package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.JobManagerRelease;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcCall;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.IdSet;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connection of {@code fluxdrm realloc} to a Flux instance: {@code job-info.lookup} of the job,
 * the RFC 51 request {@code job-manager.realloc} and its answer, its cancel ({@code
 * job-manager.realloc_cancel} on the same connection) after a timeout or on Ctrl-C, and the {@code
 * job-manager.release} that follows a granted shrink.
 */
final class ReallocClient {
  private ReallocClient() {}

  /**
   * The request, {@code {"id", "spec_add"?, "spec_sub"?, "R"?}}, served by the realloc jobtap
   * plugin inside flux-core's job manager as by fluxdrm's own job manager (D470).
   */
  static final String TOPIC = Rfc51Topics.JOB_MANAGER_REALLOC;

  /**
   * Its cancel, {@code {"matchtag": M}} on the connection that sent the request, never answered;
   * the request is then answered CANCEL.
   */
  static final String CANCEL_TOPIC = Rfc51Topics.JOB_MANAGER_REALLOC_CANCEL;

  /**
   * After a granted shrink, the hand-back of its ranks, {@code {"id", "ranks", "final": false}},
   * answered with the job's R once the processes there ended and the resources are free.
   */
  static final String RELEASE_TOPIC = Rfc51Topics.JOB_MANAGER_RELEASE;

  /** flux-core's job-info lookup, for the job's R and eventlog. */
  static final String LOOKUP_TOPIC = "job-info.lookup";

  /** How long connecting, a lookup, or sending the request may take. */
  static final Duration RPC_TIMEOUT = Duration.ofSeconds(30);

  /** How long the CANCEL answer may take once the cancel is sent. */
  static final Duration CANCEL_WAIT = Duration.ofSeconds(60);

  /** Where Ctrl-C comes from; tests replace it. */
  static Interrupts interrupts = Interrupts.SHUTDOWN_HOOK;

  /** Calls a handler when the user interrupts the command (Ctrl-C). */
  interface Interrupts {
    /** A JVM shutdown hook: SIGINT (and SIGTERM) run it, and the JVM then exits 130 (143). */
    Interrupts SHUTDOWN_HOOK =
        onInterrupt -> {
          Thread t = new Thread(onInterrupt, "fluxdrm-realloc-interrupt");
          Runtime.getRuntime().addShutdownHook(t);
          return () -> {
            try {
              Runtime.getRuntime().removeShutdownHook(t);
            } catch (IllegalStateException shuttingDown) {
              // the hook runs (or ran): nothing to remove
            }
          };
        };

    /** Registers {@code onInterrupt}, which may block until the command has reported. */
    Registration register(Runnable onInterrupt);

    /** Undoes a registration. */
    interface Registration extends AutoCloseable {
      @Override
      void close();
    }
  }

  // ---- the connection ----------------------------------------------------------------------

  /** How a request ended: its answer, and whether we canceled it (timeout, Ctrl-C). */
  record Outcome(Message answer, boolean timedOut, boolean interrupted) {}

  /** One connection to the instance. */
  static final class Session implements AutoCloseable {
    private final Reactor reactor;
    private final FluxHandle h;

    private Session(Reactor reactor, FluxHandle h) {
      this.reactor = reactor;
      this.h = h;
    }

    static Session open(String uri, String from) {
      // the connector waits for a socket that is not there yet (a broker starting): a command
      // should not, when the instance is gone
      if (!(io.fluxdrm.rpc.endpoint.Endpoint.parse(uri).orElse(null)
              instanceof io.fluxdrm.rpc.endpoint.Endpoint.Socket s)
          || !Files.exists(s.socket())) {
        throw new CliError(
            from
                + ": "
                + uri
                + ": no such socket (expected: a running Flux instance there, and access to it)");
      }
      Reactor reactor = Reactor.start("fluxdrm-realloc");
      try {
        return new Session(
            reactor, io.fluxdrm.rpc.endpoint.Connectors.openLocal(reactor, uri, RPC_TIMEOUT));
      } catch (RpcException e) {
        reactor.close();
        String m = e.getMessage() == null ? Errno.name(e.errnum()) : e.getMessage();
        throw new CliError(
            from
                + ": "
                + (m.startsWith(uri) ? "" : uri + ": ")
                + m
                + " (expected: a running Flux instance there, and access to it)");
      }
    }

    /** One key of the job's {@code job-info.lookup}, as the service answers it. */
    JsonNode lookup(long job, String key) throws InterruptedException {
      return ReallocClient.lookup(h, job, key);
    }

    /**
     * Sends the request and waits for its answer; past {@code timeout} (null: none), or on Ctrl-C,
     * cancels it and waits for the CANCEL answer. The returned waiter must be {@link Waiter#finish
     * finished} once the outcome is reported.
     */
    Waiter send(ObjectNode payload, Duration timeout) throws InterruptedException {
      RpcCall call = h.rpcCall(TOPIC, payload, null);
      int tag = await(call.matchtag(), null);
      Waiter w = new Waiter(call, () -> h.send(CANCEL_TOPIC, Json.object().put("matchtag", tag)));
      w.registration = interrupts.register(w::interrupt);
      try {
        w.await(timeout);
      } catch (RuntimeException | InterruptedException e) {
        w.finish();
        throw e;
      }
      return w;
    }

    /**
     * {@code job-manager.release} of the ranks of a granted shrink; waits until it is answered (it
     * has no cancel: Ctrl-C meanwhile lets it finish).
     */
    Message release(long job, IdSet ranks) throws InterruptedException {
      try {
        return h.rpc(RELEASE_TOPIC, new JobManagerRelease(job, ranks).toJson()).get();
      } catch (ExecutionException e) {
        throw rpcError(e.getCause(), null);
      }
    }

    @Override
    public void close() {
      h.close();
      reactor.close();
    }
  }

  /**
   * One key of job {@code job}'s {@code job-info.lookup} on {@code h}, as flux-core answers it (its
   * stored value: a JSON string for {@code R}, JSON lines for {@code eventlog}).
   */
  static JsonNode lookup(FluxHandle h, long job, String key) throws InterruptedException {
    ObjectNode p = Json.object();
    p.set("id", JobId.json(job));
    p.putArray("keys").add(key);
    p.put("flags", 0);
    Message m =
        await(
            h.rpc(LOOKUP_TOPIC, p, RPC_TIMEOUT),
            LOOKUP_TOPIC + " of " + JobId.f58(job) + " " + key);
    JsonNode v = m.json().get(key);
    if (v == null) {
      throw new CliError(
          LOOKUP_TOPIC + ": no \"" + key + "\" in the answer for job " + JobId.f58(job));
    }
    return v;
  }

  /** A sent request, until its outcome is reported. */
  static final class Waiter {
    private final RpcCall call;
    private final Runnable sendCancel;
    private final CountDownLatch reported = new CountDownLatch(1);
    private Interrupts.Registration registration;
    private boolean canceled;
    private boolean timedOut;
    private boolean interrupted;
    private boolean lateInterrupt;
    private boolean done;
    private Outcome outcome;

    Waiter(RpcCall call, Runnable sendCancel) {
      this.call = call;
      this.sendCancel = sendCancel;
    }

    Outcome outcome() {
      return outcome;
    }

    /** Whether Ctrl-C came after the answer, while the command went on. */
    synchronized boolean lateInterrupt() {
      return lateInterrupt;
    }

    /** Sends the cancel once, unless the answer is in. */
    private synchronized void cancel(boolean byInterrupt) {
      if (done) {
        lateInterrupt |= byInterrupt;
        return;
      }
      if (byInterrupt) {
        interrupted = true;
      } else {
        timedOut = true;
      }
      if (!canceled) {
        canceled = true;
        sendCancel.run();
      }
    }

    /** Ctrl-C: cancel, then hold the JVM's exit until the command has reported. */
    void interrupt() {
      cancel(true);
      try {
        if (!reported.await(CANCEL_WAIT.toSeconds() + 5, TimeUnit.SECONDS)) {
          System.err.println(
              "fluxdrm realloc: interrupted; no answer in " + CANCEL_WAIT.toSeconds() + " s");
          System.err.flush();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    void await(Duration timeout) throws InterruptedException {
      Message m;
      try {
        if (timeout == null) {
          m = call.response().get();
        } else {
          try {
            m = call.response().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
          } catch (TimeoutException e) {
            cancel(false);
            try {
              m = call.response().get(CANCEL_WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e2) {
              throw new CliError(
                  "still waiting after the timeout; canceled, but no answer to the cancel came in "
                      + CANCEL_WAIT.toSeconds()
                      + " s");
            }
          }
        }
      } catch (ExecutionException e) {
        throw rpcError(e.getCause(), null);
      }
      synchronized (this) {
        done = true;
        outcome = new Outcome(m, timedOut, interrupted);
      }
    }

    /** The outcome is reported: an interrupted JVM may exit; stop listening for Ctrl-C. */
    void finish() {
      synchronized (this) {
        done = true;
      }
      reported.countDown();
      if (registration != null) {
        registration.close();
      }
    }
  }

  /**
   * Waits for a lookup's answer, or the matchtag of the request.
   *
   * @param what names the RPC in an error line, e.g. {@code job-info.lookup of ƒ2 R}; null for the
   *     request itself, whose errors are the plugin's own lines
   */
  static <T> T await(CompletableFuture<T> f, String what) throws InterruptedException {
    try {
      return f.get(RPC_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw rpcError(e.getCause(), what);
    } catch (TimeoutException e) {
      throw new CliError(
          (what == null ? TOPIC : what) + ": no answer in " + RPC_TIMEOUT.toSeconds() + " s");
    }
  }

  /**
   * An RPC's failure as the one line the user sees: the service's own text (the plugin's start
   * {@code realloc: }), after {@code what} when given; a job manager without the plugin gets a
   * hint.
   */
  static CliError rpcError(Throwable c, String what) {
    if (c instanceof RpcException r) {
      String text =
          r.getMessage() == null || r.getMessage().isEmpty()
              ? Errno.name(r.errnum()) + " (errno " + r.errnum() + ")"
              : r.getMessage();
      if (what != null) {
        return new CliError(what + ": " + text);
      }
      if (r.errnum() == Errno.ENOSYS && !text.startsWith("realloc:")) {
        return new CliError(
            TOPIC
                + ": "
                + text
                + " (expected: the realloc jobtap plugin loaded: flux jobtap load"
                + " PATH/realloc.so)");
      }
      return new CliError(text);
    }
    return new CliError(c.getClass().getSimpleName() + ": " + Main.firstLine(c.getMessage()));
  }
}
