package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcStream;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import io.fluxdrm.showcase.demo.ProcessWorld;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The chaos soak (issue 29 scope 6, decisions D500–D502): {@code fluxdrm sched}, {@code fluxdrm
 * bridge --dvm} and {@code fluxdrm dvm --elastic --simulated --check-invariants} as processes under
 * a mixed workload that this JVM drives, seeded: jobs submitted ({@code bridge.submit}) and
 * finished ({@code bridge.finish}); grows and shrinks of a job through its shell plugin and PMIx
 * facade (held here, as the demo holds them); a grow that waits in the scheduler's FIFO and is
 * canceled ({@code PMIX_ALLOC_REQ_CANCEL}); a tool's NEW and RELEASE through the DVM (the bridge,
 * the DVM's scheduler, grants them with {@code sched.realloc} of the DVM's job and session controls
 * toward the DVM), and the tool's own session controls PAUSE and RESUME of the session a NEW
 * created. At seeded points, while a request is in flight, one of the three processes is killed
 * with SIGKILL, started again with the same arguments, waited for (the line it prints when it
 * serves), and the survivors reconnect.
 *
 * <p>What is checked, from the outside only:
 *
 * <ul>
 *   <li>no rank handed out twice: a {@code sched.watch} stream follows every allocation decision of
 *       the scheduler (its snapshot, each alloc, grow and free) and fails at once when a rank would
 *       belong to two jobs;
 *   <li>every node in exactly one place, after each step: the scheduler's jobs are disjoint and
 *       inside the pool, its {@code allocated} is their union, the job manager's running jobs
 *       ({@code bridge.list}) are the scheduler's with the same R, and every one of them is a job
 *       this driver knows, or the DVM's job;
 *   <li>every request answered exactly once or failed with a clear error: each request is awaited
 *       (a {@link CompletableFuture} completes once) for {@link #ANSWER_TIMEOUT}; no answer is a
 *       loss, a failure without a message is not clear;
 *   <li>no orphaned process: the killed process is gone and so are its children; at the end no
 *       process this driver started, nor any child of theirs, is alive; no component logged a
 *       broken invariant.
 * </ul>
 *
 * Waits are on events (a line a process prints, an answer, a state the components report); the only
 * sleeps are the seeded pacing of the workload (how long after a request the kill comes).
 */
final class ChaosSoak {
  /** How long any request may take to be answered (or failed) before it counts as lost. */
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

  /** How long the components may take to agree again after a step. */
  static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);

  /** How long a process may take to serve after it is started. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private static final int NODES = 8;
  private static final int MAX_JOBS = 4;

  /** The processes of the soak. */
  enum Part {
    SCHED,
    BRIDGE,
    DVM
  }

  /** How a run went. */
  record Result(
      long seed,
      int kills,
      Map<Part, Integer> killsByPart,
      int requests,
      Map<String, Integer> outcomes,
      int adopted,
      int adoptedSessions,
      Map<String, String> examples,
      List<String> problems,
      long millis) {
    String summary() {
      return "seed "
          + seed
          + ": "
          + kills
          + " kill(s) "
          + killsByPart
          + ", "
          + requests
          + " request(s) "
          + outcomes
          + ", "
          + adopted
          + " job(s) adopted after a lost submit answer, "
          + adoptedSessions
          + " DVM session(s) adopted from the bridge's ledger after a lost answer (D521), "
          + problems.size()
          + " problem(s), "
          + millis
          + " ms";
    }
  }

  /** A job this driver holds: its shell plugin and facade, on a connection of its own. */
  private static final class SoakJob {
    final long id;
    final int uid;
    ShellPlugin plugin;
    PmixAllocator pmix;
    FluxHandle shell;

    /** The node lists of its grows not released yet, as the facade answered them. */
    final List<String> grants = new ArrayList<>();

    SoakJob(long id, int uid) {
      this.id = id;
      this.uid = uid;
    }
  }

  private final long seed;
  private final int kills;
  private final Path dir;
  private final ProcessWorld.Launcher launcher;
  private final Random rnd;
  private final ResourceSet pool;
  private final Reactor reactor = Reactor.start("fluxdrm-chaos");
  private final Map<Part, Process> procs = new HashMap<>();
  private final Map<Part, Integer> incarnation = new HashMap<>();
  private final List<Process> started = new ArrayList<>();
  private final List<ProcessHandle> children = new ArrayList<>();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();

  /** The first message of each kind of refusal or error, for the summary. */
  private final Map<String, String> examples = new TreeMap<>();

  private final Map<Part, Integer> killsByPart = new TreeMap<>();
  private final Map<Long, SoakJob> jobs = new LinkedHashMap<>();

  /** The alloc ids (= session ids) of the tool's NEW grants through the DVM not released yet. */
  private final List<String> sessions = new ArrayList<>();

  /** The scheduler's allocations as its watch stream tells them, on the reactor. */
  private final Map<Long, ResourceSet> watched = new HashMap<>();

  private final int uid;
  private FluxHandle owner;
  private FluxHandle app;
  private FluxHandle toolHandle;
  private HubDvmPort tool;
  private RpcStream watch;
  private long dvmJob;
  private int killsDone;
  private int requests;
  private int lostSubmits;
  private int adopted;
  private int adoptedSessions;

  private int reqIds;

  ChaosSoak(long seed, int kills, Path dir, ProcessWorld.Launcher launcher) {
    this.seed = seed;
    this.kills = kills;
    this.dir = dir;
    this.launcher = launcher;
    this.rnd = new Random(seed);
    this.pool =
        ResourceSet.of(
            IdSet.range(0, NODES - 1),
            IdSet.range(0, 1),
            IdSet.empty(),
            Hostlist.parse("node[0-" + (NODES - 1) + "]"));
    this.uid = uid();
  }

  private static int uid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new IllegalStateException("cannot tell this process's user id: " + e.getMessage());
    }
  }

  // ---- the run ----------------------------------------------------------------------------------

  Result run() {
    long t0 = System.nanoTime();
    try {
      startAll();
      int step = 0;
      while (killsDone < kills) {
        step++;
        workloadStep(step);
        if (!problems.isEmpty()) {
          break;
        }
      }
      if (problems.isEmpty()) {
        drain();
      }
    } catch (Stop e) {
      problems.add(e.getMessage());
    } finally {
      stopAll();
    }
    return new Result(
        seed,
        killsDone,
        Map.copyOf(killsByPart),
        requests,
        Map.copyOf(outcomes),
        adopted,
        adoptedSessions,
        Map.copyOf(examples),
        List.copyOf(problems),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
  }

  /** The soak cannot go on: a process did not start, a check could not be made. */
  static final class Stop extends RuntimeException {
    @java.io.Serial private static final long serialVersionUID = 1L;

    Stop(String message) {
      super(message, null, false, false);
    }
  }

  /** One request of the workload, and, at a seeded point while it is in flight, a kill. */
  private void workloadStep(int step) {
    int free = freeNodes();
    List<String> kinds = new ArrayList<>();
    if (jobs.size() < MAX_JOBS && free >= 1) {
      kinds.add("submit");
    }
    if (!jobs.isEmpty()) {
      kinds.add("finish");
      if (free >= 1) {
        kinds.add("grow");
      }
      if (jobs.values().stream().anyMatch(j -> !j.grants.isEmpty())) {
        kinds.add("shrink");
      }
      kinds.add("cancel");
    }
    if (free >= 1 && sessions.size() < 2) {
      kinds.add("dvm-new");
    }
    if (!sessions.isEmpty()) {
      kinds.add("session-pause-resume");
      kinds.add("dvm-release");
    }
    String kind = kinds.get(rnd.nextInt(kinds.size()));
    // a kill after about every third request, the last ones until all are done
    boolean kill = rnd.nextInt(3) == 0;
    Part victim = Part.values()[rnd.nextInt(Part.values().length)];
    // pacing: how long after the request the kill comes (0 to 150 ms), from the seed
    long pace = rnd.nextInt(150);
    Request r = issue(kind, free);
    if (kill) {
      pause(pace);
      kill(victim);
    }
    r.await();
    if (kill) {
      recover(victim, r);
      System.out.println(
          "chaos soak: kill "
              + killsDone
              + ": "
              + victim
              + " "
              + pace
              + " ms into "
              + kind
              + ": "
              + r.outcome);
    }
    r.apply();
    check("step " + step + " (" + kind + (kill ? ", " + victim + " killed" : "") + ")");
  }

  // ---- requests ---------------------------------------------------------------------------------

  /** A request in flight: its answer, what it means for this driver once answered. */
  private final class Request {
    final String kind;
    final CompletableFuture<?> answer;
    final Runnable onOk;
    final Runnable onFailure;
    String outcome;
    boolean ok;

    /** The job this request ends ({@code bridge.finish}), or 0. */
    long ends;

    Request(String kind, CompletableFuture<?> answer, Runnable onOk, Runnable onFailure) {
      this.kind = kind;
      this.answer = answer;
      this.onOk = onOk;
      this.onFailure = onFailure;
    }

    void await() {
      requests++;
      try {
        Object v = answer.get(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        ok = !(v instanceof Failure);
        outcome = ok ? "ok" : "refused " + ((Failure) v).what;
        if (!ok) {
          examples.putIfAbsent(kind + ": " + outcome, ((Failure) v).message);
        }
        if (!ok && ((Failure) v).message.isBlank()) {
          problems.add(kind + ": refused without a reason: " + ((Failure) v).what);
        }
      } catch (TimeoutException e) {
        problems.add(kind + ": no answer within " + ANSWER_TIMEOUT.toSeconds() + " s (lost)");
        outcome = "lost";
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        String msg = c.getMessage() == null ? "" : c.getMessage();
        if (msg.isBlank()) {
          problems.add(kind + ": failed without a message: " + c);
        }
        examples.putIfAbsent(kind + ": error", msg);
        outcome =
            "error "
                + (c instanceof RpcException x
                    ? io.fluxdrm.rpc.Errno.name(x.errnum())
                    : c.getClass().getSimpleName());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Stop("interrupted");
      }
      outcomes.merge(kind + ": " + outcome, 1, Integer::sum);
    }

    /** Failed without an answer of the service (a connection or provider lost), not refused. */
    boolean lost() {
      return outcome != null && (outcome.startsWith("error") || outcome.equals("lost"));
    }

    void apply() {
      if (ok) {
        onOk.run();
      } else {
        onFailure.run();
      }
    }
  }

  /** A PMIx answer other than success, or a refusal: a request answered, not done. */
  private record Failure(String what, String message) {}

  private Request issue(String kind, int free) {
    return switch (kind) {
      case "submit" -> submit(1 + rnd.nextInt(Math.min(2, free)));
      case "finish" -> finish(pick(jobs.values()));
      case "grow" -> grow(pick(jobs.values()));
      case "shrink" ->
          shrink(pick(jobs.values().stream().filter(j -> !j.grants.isEmpty()).toList()));
      case "cancel" -> cancel(pick(jobs.values()), free + 1);
      case "dvm-new" -> dvmNew();
      case "dvm-release" -> dvmRelease(sessions.get(rnd.nextInt(sessions.size())));
      case "session-pause-resume" -> pauseResume(sessions.get(rnd.nextInt(sessions.size())));
      default -> throw new IllegalStateException(kind);
    };
  }

  private <T> T pick(java.util.Collection<T> c) {
    List<T> l = new ArrayList<>(c);
    return l.get(rnd.nextInt(l.size()));
  }

  private Request submit(int nodes) {
    ObjectNode p = Json.object();
    p.set("jobspec", Jobspecs.nodes(nodes, 1, true));
    CompletableFuture<Message> f = owner.rpc("bridge.submit", p);
    long[] id = {0};
    return new Request(
        "submit",
        f.thenApply(
            m -> {
              id[0] = FluxPayloads.readId(m.json().get("id"), "bridge.submit: /id");
              return m;
            }),
        () -> attach(new SoakJob(id[0], uid), jobR(id[0])),
        () -> lostSubmits++);
  }

  private Request finish(SoakJob j) {
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(j.id));
    Request r =
        new Request(
            "finish",
            owner.rpc("bridge.finish", p),
            () -> forget(j),
            () -> {
              // answer lost with a killed process: the job ended or not, the job manager says which
              if (jobR(j.id) == null) {
                forget(j);
              }
            });
    r.ends = j.id;
    return r;
  }

  private void forget(SoakJob j) {
    jobs.remove(j.id);
    FluxHandle h = j.shell;
    if (h != null) {
      onLoop(
          () -> {
            h.close();
            return null;
          });
    }
  }

  /** A PMIx allocation request of {@code j}'s application to its facade. */
  private CompletableFuture<Object> ask(SoakJob j, AllocDirective d, List<Info> infos) {
    ObjectNode p = Json.object().put("directive", d.code());
    p.set("info", InfoCodec.encode(infos));
    return app.rpc(j.pmix.serviceName() + "." + PmixAllocator.METHOD, p)
        .thenApply(
            m -> {
              ObjectNode o = m.json();
              int code = o.path("status").asInt();
              String message = o.path("message").asText("");
              if (code == PmixStatus.PMIX_SUCCESS.code()) {
                return InfoCodec.decode(o.get("info"));
              }
              String name = PmixStatus.byCode(code).map(PmixStatus::name).orElse("status " + code);
              return new Failure(name, message.isEmpty() ? name : message);
            });
  }

  private Request grow(SoakJob j) {
    List<String> granted = new ArrayList<>();
    CompletableFuture<Object> f =
        ask(j, AllocDirective.EXTEND, List.of(nodes(1), reqId()))
            .thenApply(
                v -> {
                  if (v instanceof List<?> infos) {
                    value(infos, PmixKey.PMIX_ALLOC_NODE_LIST).ifPresent(granted::add);
                  }
                  return v;
                });
    return new Request("grow", f, () -> j.grants.addAll(granted), () -> {});
  }

  private Request shrink(SoakJob j) {
    String list = j.grants.get(rnd.nextInt(j.grants.size()));
    CompletableFuture<Object> f =
        ask(
            j,
            AllocDirective.RELEASE,
            List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list), reqId()));
    return new Request("shrink", f, () -> j.grants.remove(list), () -> j.grants.remove(list));
  }

  /**
   * A grow of more nodes than are free, which waits in the scheduler's FIFO, then its cancel
   * ({@code PMIX_ALLOC_REQ_CANCEL}); both must be answered, the grow with a cancel (or a grant, if
   * nodes came free first).
   */
  private Request cancel(SoakJob j, int n) {
    String label = "chaos-" + (++reqIds);
    CompletableFuture<Object> grow =
        ask(j, AllocDirective.EXTEND, List.of(nodes(n), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, label)));
    CompletableFuture<Object> cancel =
        ask(j, AllocDirective.REQ_CANCEL, List.of(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, label)));
    // both answered (or failed), whatever each said
    CompletableFuture<Object> both =
        grow.handle((v, e) -> e == null ? v : new Failure("error", String.valueOf(e.getMessage())))
            .thenCombine(
                cancel.handle(
                    (v, e) -> e == null ? v : new Failure("error", String.valueOf(e.getMessage()))),
                (g, c) -> c instanceof Failure x ? x : g instanceof Failure y ? y : g);
    return new Request("cancel", both, () -> {}, () -> {});
  }

  private Request dvmNew() {
    String[] id = {null};
    CompletableFuture<Object> f =
        tool.allocationRequest(AllocDirective.NEW, List.of(nodes(1), reqId()))
            .toCompletableFuture()
            .thenApply(
                s -> {
                  if (!s.succeeded()) {
                    return failure(s);
                  }
                  id[0] = value(s.infos(), PmixKey.PMIX_ALLOC_ID).orElse(null);
                  return s;
                });
    return new Request(
        "dvm-new",
        f,
        () -> {
          if (id[0] != null) {
            sessions.add(id[0]);
          }
        },
        () -> {});
  }

  private Request dvmRelease(String allocId) {
    CompletableFuture<Object> f =
        tool.allocationRequest(
                AllocDirective.RELEASE, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, allocId), reqId()))
            .toCompletableFuture()
            .thenApply(s -> s.succeeded() ? s : failure(s));
    // answered either way, the reservation is not the tool's to use any more
    return new Request(
        "dvm-release", f, () -> sessions.remove(allocId), () -> sessions.remove(allocId));
  }

  /** The tool's session controls toward the DVM: PAUSE then RESUME of its NEW's session. */
  private Request pauseResume(String allocId) {
    long session = Long.parseLong(allocId);
    CompletableFuture<Object> f =
        tool.sessionControl(session, List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true)))
            .toCompletableFuture()
            .thenCompose(
                s ->
                    s.succeeded()
                        ? tool.sessionControl(
                                session, List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true)))
                            .toCompletableFuture()
                        : CompletableFuture.completedFuture(s))
            .thenApply(s -> s.succeeded() ? s : failure(s));
    return new Request("session-pause-resume", f, () -> {}, () -> {});
  }

  private static Failure failure(StatusInfos s) {
    String reason =
        s.infos().stream()
            .filter(i -> i.key().equals("fluxdrm.dvm.reason"))
            .map(i -> String.valueOf(i.value()))
            .findFirst()
            .orElse(s.status().name());
    return new Failure(s.status().name(), reason);
  }

  private static Info nodes(int n) {
    return Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, (long) n);
  }

  private Info reqId() {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "chaos-" + (++reqIds));
  }

  private static Optional<String> value(List<?> infos, String key) {
    for (Object o : infos) {
      if (o instanceof Info i && i.key().equals(key)) {
        return Optional.of(String.valueOf(i.value()));
      }
    }
    return Optional.empty();
  }

  // ---- processes --------------------------------------------------------------------------------

  private List<String> args(Part p) {
    return switch (p) {
      case SCHED ->
          List.of(
              "sched",
              "--listen",
              "unix:" + dir.resolve("sched"),
              "--hosts",
              pool.nodelist().toString(),
              "--cores",
              "0-1",
              "--state-dir",
              dir.resolve("sched-state").toString());
      case BRIDGE ->
          List.of(
              "bridge",
              "--connect",
              "unix:" + dir.resolve("sched"),
              "--state-dir",
              dir.resolve("jobs").toString(),
              "--dvm",
              "unix:" + dir.resolve("dvm"));
      case DVM ->
          List.of(
              "dvm",
              "--hosts",
              pool.nodelist().toString(),
              "--slots",
              "2",
              "--simulated",
              "--elastic",
              "--check-invariants",
              "--daemon-latency",
              "20",
              "--stop-latency",
              "20",
              "--listen",
              "unix:" + dir.resolve("dvm"));
    };
  }

  private String name(Part p) {
    return p.name().toLowerCase(java.util.Locale.ROOT) + "-" + incarnation.getOrDefault(p, 0);
  }

  private Process spawn(Part p) {
    incarnation.merge(p, 1, Integer::sum);
    List<String> cmd = new ArrayList<>(launcher.command());
    cmd.addAll(args(p));
    String n = name(p);
    try {
      Process proc =
          new ProcessBuilder(cmd)
              .redirectOutput(dir.resolve(n + ".out").toFile())
              .redirectError(dir.resolve(n + ".err").toFile())
              .start();
      proc.getOutputStream().close();
      started.add(proc);
      procs.put(p, proc);
      return proc;
    } catch (IOException e) {
      throw new Stop("cannot start " + n + ": " + e.getMessage());
    }
  }

  /** The sessions the bridge's ledger names (D521), as alloc ids. */
  private List<String> ledgerSessions() {
    Path f = dir.resolve("jobs").resolve("dvm-ledger.json");
    try {
      JsonNode l = new com.fasterxml.jackson.databind.ObjectMapper().readTree(f.toFile());
      List<String> out = new ArrayList<>();
      l.path("sessions").fieldNames().forEachRemaining(out::add);
      return out;
    } catch (IOException e) {
      throw new Stop("the bridge's ledger " + f + ": " + e.getMessage());
    }
  }

  private String read(String file) {
    try {
      Path f = dir.resolve(file);
      return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /** Waits until {@code part}'s current output has {@code count} lines with {@code text}. */
  private void awaitLine(Part part, String stream, String text, int count) {
    String file = name(part) + "." + stream;
    Process p = procs.get(part);
    boolean seen =
        until(
            START_TIMEOUT,
            () -> {
              if (occurrences(read(file), text) >= count) {
                return true;
              }
              if (!p.isAlive()) {
                throw new Stop(
                    name(part) + " exited with status " + p.exitValue() + ": " + last(read(file)));
              }
              return false;
            });
    if (!seen) {
      throw new Stop(file + ": no \"" + text + "\" in time: " + last(read(file)));
    }
  }

  private static int occurrences(String s, String text) {
    int n = 0;
    for (int i = s.indexOf(text); i >= 0; i = s.indexOf(text, i + 1)) {
      n++;
    }
    return n;
  }

  private static String last(String text) {
    String t = text.strip();
    int nl = t.lastIndexOf('\n');
    return nl < 0 ? t : t.substring(nl + 1);
  }

  private void startAll() {
    spawn(Part.SCHED);
    awaitLine(Part.SCHED, "err", "listening on ", 1);
    spawn(Part.DVM);
    awaitLine(Part.DVM, "out", "listening on ", 1);
    spawn(Part.BRIDGE);
    awaitLine(Part.BRIDGE, "err", "scheduler of the DVM at", 1);
    try {
      dvmJob =
          Long.parseUnsignedLong(
              Files.readString(dir.resolve("jobs").resolve("dvm-job"), StandardCharsets.UTF_8)
                  .strip());
    } catch (IOException | NumberFormatException e) {
      throw new Stop("the DVM's job: " + e.getMessage());
    }
    connectSched();
    connectDvm();
    check("start");
  }

  private void connectSched() {
    owner = connect("sched");
    app = connect("sched");
    watched.clear();
    watch = owner.stream("sched.watch", Json.object(), this::watched, null);
  }

  private void connectDvm() {
    toolHandle = connect("dvm");
    tool = new HubDvmPort(toolHandle, ANSWER_TIMEOUT);
  }

  private FluxHandle connect(String hub) {
    try {
      return FluxHandle.connectWhenUp(
          reactor, "local://" + dir.resolve(hub).resolve("local"), START_TIMEOUT);
    } catch (RpcException e) {
      throw new Stop("connect to the " + hub + " hub: " + e.getMessage());
    }
  }

  /** SIGKILL to {@code part}'s process; its children are remembered, to be checked gone. */
  private void kill(Part part) {
    Process p = procs.get(part);
    p.toHandle().descendants().forEach(children::add);
    p.destroyForcibly();
    try {
      if (!p.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new Stop(name(part) + ": alive after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stop("interrupted");
    }
    killsDone++;
    killsByPart.merge(part, 1, Integer::sum);
  }

  /**
   * Starts {@code part} again with the same arguments and waits until it serves and the survivors
   * are reconnected: after the scheduler, whose hub carried every connection, the job manager is
   * started again too (it does not reconnect to a new hub) and every job's shell plugin and facade
   * are made anew from the job manager's R; after the DVM, the bridge attaches again by itself
   * (D377). A job that {@code inFlight} finished (answered before the kill, or its answer lost with
   * the killed process: it may or may not have been carried out) may be gone from the job manager;
   * any other job missing after the restart is a loss.
   */
  private void recover(Part part, Request inFlight) {
    int attached = occurrences(read(name(Part.BRIDGE) + ".err"), "scheduler of the DVM at");
    switch (part) {
      case SCHED -> {
        Process b = procs.get(Part.BRIDGE);
        b.toHandle().descendants().forEach(children::add);
        stop(b);
        spawn(Part.SCHED);
        awaitLine(Part.SCHED, "err", "listening on ", 1);
        spawn(Part.BRIDGE);
        awaitLine(Part.BRIDGE, "err", "scheduler of the DVM at", 1);
        closeQuietly(owner);
        closeQuietly(app);
        connectSched();
        for (SoakJob j : List.copyOf(jobs.values())) {
          closeQuietly(j.shell);
          ResourceSet r = jobR(j.id);
          if (r == null && inFlight.ends == j.id && (inFlight.ok || inFlight.lost())) {
            jobs.remove(j.id);
          } else if (r == null) {
            jobs.remove(j.id);
            problems.add("job " + j.id + " gone after the scheduler's restart");
          } else {
            attach(j, r);
          }
        }
      }
      case BRIDGE -> {
        spawn(Part.BRIDGE);
        awaitLine(Part.BRIDGE, "err", "scheduler of the DVM at", 1);
      }
      case DVM -> {
        spawn(Part.DVM);
        awaitLine(Part.DVM, "out", "listening on ", 1);
        awaitLine(Part.BRIDGE, "err", "scheduler of the DVM at", attached + 1);
        closeQuietly(toolHandle);
        connectDvm();
        // the DVM's sessions died with it; the bridge gives their nodes back to Flux (D377)
        sessions.clear();
      }
    }
  }

  private void closeQuietly(FluxHandle h) {
    if (h != null) {
      onLoop(
          () -> {
            h.close();
            return null;
          });
    }
  }

  /** A job's shell plugin and facade on a new connection, with the job manager's R. */
  private void attach(SoakJob j, ResourceSet r) {
    if (r == null) {
      problems.add("job " + j.id + ": allocated, but not running at the job manager");
      return;
    }
    j.plugin = ShellPlugin.create(j.id, j.uid, r);
    j.pmix = PmixAllocator.create(j.plugin);
    j.shell = connect("sched");
    await("job " + j.id + " shell", j.plugin.start(j.shell));
    await("job " + j.id + " facade", j.pmix.start(j.shell));
    jobs.put(j.id, j);
  }

  private static void stop(Process p) {
    p.destroy();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
  }

  private void stopAll() {
    try {
      if (owner != null) {
        closeQuietly(owner);
        closeQuietly(app);
        closeQuietly(toolHandle);
        for (SoakJob j : jobs.values()) {
          closeQuietly(j.shell);
        }
      }
    } catch (RuntimeException e) {
      problems.add("closing the connections: " + e.getMessage());
    }
    for (Part p : List.of(Part.BRIDGE, Part.DVM, Part.SCHED)) {
      Process proc = procs.get(p);
      if (proc != null) {
        proc.toHandle().descendants().forEach(children::add);
        stop(proc);
      }
    }
    reactor.close();
    for (Process p : started) {
      if (p.isAlive()) {
        problems.add("process " + p.pid() + " left alive");
        p.destroyForcibly();
      }
    }
    for (ProcessHandle c : children) {
      if (c.isAlive()) {
        problems.add("child process " + c.pid() + " of a component left alive (orphaned)");
      }
    }
    for (String f : logFiles()) {
      String text = read(f);
      if (text.contains("invariant broken")) {
        problems.add(
            f
                + ": "
                + text.lines().filter(l -> l.contains("invariant broken")).findFirst().orElse(""));
      }
    }
  }

  private List<String> logFiles() {
    List<String> l = new ArrayList<>();
    for (Part p : Part.values()) {
      for (int i = 1; i <= incarnation.getOrDefault(p, 0); i++) {
        String n = p.name().toLowerCase(java.util.Locale.ROOT) + "-" + i;
        l.add(n + ".out");
        l.add(n + ".err");
      }
    }
    return l;
  }

  // ---- checks -----------------------------------------------------------------------------------

  /** Every item of the scheduler's watch stream, on the loop: no rank may be in two jobs. */
  private void watched(Message m) {
    JsonNode o = m.json();
    if (o.has("pool")) {
      watched.clear();
      for (JsonNode j : o.get("jobs")) {
        hold(j.get("id").asLong(), ResourceSet.fromJson(j.get("R")), "snapshot");
      }
      return;
    }
    String topic = o.path("topic").asText();
    JsonNode p = o.path("payload");
    switch (topic) {
      case "job-manager.sched-hello" -> {
        // what is held after a job manager's hello, whose R wins (D502, D521)
        watched.clear();
        for (JsonNode j : p.get("jobs")) {
          hold(j.get("id").asLong(), ResourceSet.fromJson(j.get("R")), "hello");
        }
      }
      case "sched.alloc" -> {
        if (p.path("type").asInt() == 0 && p.has("R")) {
          hold(p.get("id").asLong(), ResourceSet.fromJson(p.get("R")), "alloc");
        }
      }
      case "sched.realloc" -> {
        if (p.path("type").asInt() == 0 && p.has("R_delta_add")) {
          hold(o.get("id").asLong(), ResourceSet.fromJson(p.get("R_delta_add")), "grow");
        }
      }
      case "sched.free" -> {
        long id = p.get("id").asLong();
        ResourceSet had = watched.getOrDefault(id, ResourceSet.empty());
        ResourceSet left = had.diff(ResourceSet.fromJson(p.get("R")));
        if (p.path("final").asBoolean() || left.isEmpty()) {
          watched.remove(id);
        } else {
          watched.put(id, left);
        }
      }
      default -> {}
    }
  }

  private void hold(long id, ResourceSet r, String how) {
    for (Map.Entry<Long, ResourceSet> e : watched.entrySet()) {
      if (e.getKey() != id && !e.getValue().intersect(r).isEmpty()) {
        problems.add(
            how
                + " of job "
                + id
                + ": "
                + r.summary()
                + " overlaps job "
                + e.getKey()
                + "'s "
                + e.getValue().summary()
                + " (a rank handed out twice)");
      }
    }
    watched.merge(id, r, ResourceSet::union);
  }

  /** The job manager's running jobs and their R. */
  private Map<Long, ResourceSet> jobManagerJobs() {
    Message m = await("bridge.list", owner.rpc("bridge.list", Json.object()));
    Map<Long, ResourceSet> l = new TreeMap<>();
    for (JsonNode j : m.json().get("jobs")) {
      l.put(j.get("id").asLong(), ResourceSet.fromJson(j.get("R")));
    }
    return l;
  }

  /** The job's R at the job manager, null when it is not running. */
  private ResourceSet jobR(long id) {
    return jobManagerJobs().get(id);
  }

  /** The scheduler's jobs (its watch snapshot) and its allocated set. */
  private record SchedView(Map<Long, ResourceSet> jobs, ResourceSet allocated, ResourceSet free) {}

  private SchedView schedView() {
    // the snapshot on a connection of its own, closed after it: that ends the watch
    FluxHandle h = connect("sched");
    Message snap;
    try {
      CompletableFuture<Message> first = new CompletableFuture<>();
      RpcStream s = h.stream("sched.watch", Json.object(), first::complete, ANSWER_TIMEOUT);
      s.done()
          .whenComplete((v, e) -> first.completeExceptionally(e != null ? e : new Stop("ended")));
      snap = await("sched.watch", first);
    } finally {
      closeQuietly(h);
    }
    Map<Long, ResourceSet> jobs = new TreeMap<>();
    for (JsonNode j : snap.json().get("jobs")) {
      jobs.put(j.get("id").asLong(), ResourceSet.fromJson(j.get("R")));
    }
    JsonNode st =
        await("sched.resource-status", owner.rpc("sched.resource-status", Json.object())).json();
    ResourceSet all = ResourceSet.fromJson(st.get("all"));
    ResourceSet allocated = ResourceSet.fromJson(st.get("allocated"));
    ResourceSet down = ResourceSet.fromJson(st.get("down"));
    return new SchedView(jobs, allocated, all.diff(allocated).diff(down));
  }

  private int freeNodes() {
    return schedView().free().nnodes();
  }

  private static boolean same(ResourceSet a, ResourceSet b) {
    return a.diff(b).isEmpty() && b.diff(a).isEmpty();
  }

  /**
   * The invariants after a step: the scheduler's jobs disjoint and in the pool (at once), and, once
   * the components have settled, its allocated set their union, the job manager's running jobs the
   * scheduler's with the same R, each one known here or the DVM's job.
   */
  private void check(String when) {
    String[] why = {""};
    boolean settled =
        until(
            SETTLE_TIMEOUT,
            () -> {
              SchedView s = schedView();
              List<Long> ids = new ArrayList<>(s.jobs().keySet());
              ResourceSet union = ResourceSet.empty();
              for (int a = 0; a < ids.size(); a++) {
                ResourceSet ra = s.jobs().get(ids.get(a));
                if (!ra.diff(pool).isEmpty()) {
                  problems.add(
                      when
                          + ": job "
                          + ids.get(a)
                          + " holds "
                          + ra.summary()
                          + " outside the pool");
                }
                for (int b = a + 1; b < ids.size(); b++) {
                  ResourceSet rb = s.jobs().get(ids.get(b));
                  if (!ra.intersect(rb).isEmpty()) {
                    problems.add(
                        when
                            + ": jobs "
                            + ids.get(a)
                            + " and "
                            + ids.get(b)
                            + " both hold "
                            + ra.intersect(rb).summary());
                  }
                }
                union = union.union(ra);
              }
              if (!same(union, s.allocated())) {
                why[0] =
                    "the scheduler's allocated "
                        + s.allocated().summary()
                        + " is not its jobs' "
                        + union.summary();
                return false;
              }
              Map<Long, ResourceSet> jm = jobManagerJobs();
              if (!jm.keySet().equals(s.jobs().keySet())) {
                why[0] = "job manager's jobs " + jm.keySet() + ", scheduler's " + s.jobs().keySet();
                return false;
              }
              for (Map.Entry<Long, ResourceSet> e : jm.entrySet()) {
                if (!same(e.getValue(), s.jobs().get(e.getKey()))) {
                  why[0] =
                      "job "
                          + e.getKey()
                          + ": "
                          + e.getValue().summary()
                          + " at the job manager, "
                          + s.jobs().get(e.getKey()).summary()
                          + " at the scheduler";
                  return false;
                }
              }
              Set<Long> unknown = new HashSet<>(jm.keySet());
              unknown.removeAll(jobs.keySet());
              unknown.remove(dvmJob);
              if (!unknown.isEmpty()) {
                if (lostSubmits >= unknown.size()) {
                  // a submit whose answer went with a killed process: the job exists, the
                  // submitter did not learn its id; it is adopted (and ended later) here
                  for (long id : unknown) {
                    lostSubmits--;
                    adopted++;
                    attach(new SoakJob(id, uid), jm.get(id));
                  }
                } else {
                  why[0] = "jobs nobody submitted: " + unknown;
                  return false;
                }
              }
              Set<Long> missing = new HashSet<>(jobs.keySet());
              missing.removeAll(jm.keySet());
              if (!missing.isEmpty()) {
                why[0] = "jobs lost: " + missing;
                return false;
              }
              if (!jm.containsKey(dvmJob)) {
                why[0] = "the DVM's job " + dvmJob + " is not running";
                return false;
              }
              return true;
            });
    if (!settled) {
      problems.add(when + ": not settled in " + SETTLE_TIMEOUT.toSeconds() + " s: " + why[0]);
    }
    for (ProcessHandle c : children) {
      if (c.isAlive()) {
        problems.add(when + ": child process " + c.pid() + " of a killed component alive");
      }
    }
  }

  /** The end: every job finished, every DVM reservation released; the pool whole but the DVM's. */
  private void drain() {
    // a NEW whose answer went with a killed bridge may have been carried out (D502): the bridge's
    // ledger (D521) names every session it holds for the DVM, and the tool releases those too
    for (String s : ledgerSessions()) {
      if (!sessions.contains(s)) {
        sessions.add(s);
        adoptedSessions++;
      }
    }
    for (String s : List.copyOf(sessions)) {
      Request r = dvmRelease(s);
      r.await();
      r.apply();
    }
    for (SoakJob j : List.copyOf(jobs.values())) {
      Request r = finish(j);
      r.await();
      r.apply();
    }
    check("the end");
    String[] why = {""};
    boolean whole =
        until(
            SETTLE_TIMEOUT,
            () -> {
              SchedView s = schedView();
              ResourceSet dvm = s.jobs().getOrDefault(dvmJob, ResourceSet.empty());
              why[0] = "jobs " + s.jobs().keySet() + ", the DVM's job holds " + dvm.summary();
              return s.jobs().keySet().equals(Set.of(dvmJob))
                  && dvm.nnodes() == 1
                  && same(s.free().union(dvm), pool);
            });
    if (!whole) {
      problems.add("the end: the pool is not whole but the DVM's job's node: " + why[0]);
    }
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  private <T> T onLoop(Supplier<T> f) {
    return await("loop", reactor.submit(() -> CompletableFuture.completedFuture(f.get())));
  }

  private static <T> T await(String what, java.util.concurrent.CompletionStage<T> f) {
    try {
      return f.toCompletableFuture().get(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new Stop(what + ": no answer within " + ANSWER_TIMEOUT.toSeconds() + " s");
    } catch (ExecutionException e) {
      throw new Stop(what + ": " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stop(what + ": interrupted");
    }
  }

  /** Polls {@code cond} every 20 ms until it holds or {@code limit} passes. */
  private static boolean until(Duration limit, BooleanSupplier cond) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      pause(20);
    }
    return true;
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stop("interrupted");
    }
  }
}
