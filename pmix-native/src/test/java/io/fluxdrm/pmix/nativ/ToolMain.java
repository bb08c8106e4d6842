package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A PMIx tool over the binding, as a process of its own (libpmix holds one role per process): the
 * integration test's stand-in for a user's tool. {@code ToolMain URI DIRECTIVE KEY=VALUE...} (keys
 * {@code nodes} = PMIX_ALLOC_NODE_LIST, {@code count} = PMIX_ALLOC_NUM_NODES, {@code id} =
 * PMIX_ALLOC_ID, {@code req} = PMIX_ALLOC_REQ_ID; {@code raw} adds {@code fluxdrm.test.unknown}, a
 * key no one knows) registers for PMIX_DVM_IS_READY and PMIX_ERR_DVM_MOD, makes the request and
 * prints {@code PHASE1 STATUS INFOS}, then, after a success, {@code PHASE2 CODE} for the event (or
 * {@code PHASE2 none} when none came within the wait given by {@code wait=SECONDS}, default 60; an
 * event of PRRTE's own that arrived before the answer is printed {@code EVENT-BEFORE-ANSWER CODE},
 * which no test takes for a second phase; an event fluxdrm's agent relayed may come first, D456).
 * Exit 0 once done.
 */
public final class ToolMain {
  private ToolMain() {}

  /**
   * {@code ToolMain URI LOOP N HOST}: N times, grows the DVM by HOST ({@code NEW} of {@code
   * HOST:2}) and waits for its phase two, then releases it; prints {@code CYCLE I STATUS STATUS
   * STATUS} (grow, its event, release) per cycle, {@code RSS KB} (its resident set) after cycle 20
   * and after the last, and {@code LOOP N} at the end. One connection, one event registration,
   * events matched by request id.
   */
  static void loop(String uri, int n, String host) throws Exception {
    var exec = Executors.newSingleThreadExecutor();
    PmixTool.Connected c = connect(uri, exec);
    DvmPort port = c.port();
    java.util.Map<String, CompletableFuture<Event>> phase2 =
        new java.util.concurrent.ConcurrentHashMap<>();
    register(
        port,
        e ->
            e.infos().stream()
                .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID))
                .map(Info::stringValue)
                .findFirst()
                .ifPresent(
                    r -> phase2.computeIfAbsent(r, k -> new CompletableFuture<>()).complete(e)));
    for (int i = 1; i <= n; i++) {
      String g = "loop-grow-" + i;
      CompletableFuture<Event> ev = phase2.computeIfAbsent(g, k -> new CompletableFuture<>());
      StatusInfos grow =
          port.allocationRequest(
                  AllocDirective.NEW,
                  List.of(
                      Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host + ":2"),
                      Info.of(PmixKey.PMIX_ALLOC_REQ_ID, g)))
              .toCompletableFuture()
              .get(120, TimeUnit.SECONDS);
      int event = grow.succeeded() ? ev.get(120, TimeUnit.SECONDS).status() : 0;
      phase2.remove(g);
      StatusInfos rel =
          port.allocationRequest(
                  AllocDirective.RELEASE,
                  List.of(
                      Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host),
                      Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "loop-release-" + i)))
              .toCompletableFuture()
              .get(120, TimeUnit.SECONDS);
      System.out.println("CYCLE " + i + " " + grow.status() + " " + event + " " + rel.status());
      // after cycle 20 and after the last: two lines, the same cycle when N <= 20
      for (int at : new int[] {Math.min(20, n), n}) {
        if (i == at) {
          System.gc();
          System.out.println("RSS " + Peer.rssKb());
        }
      }
      System.out.flush();
    }
    System.out.println("LOOP " + n);
    System.out.flush();
    end(port, exec);
  }

  /**
   * {@code ToolMain URI EXTEND_AFTER_NEW HOST1 HOST2}: one tool connection makes a {@code NEW} of
   * {@code HOST1:2}, then an {@code EXTEND} of the reservation it got ({@code PMIX_ALLOC_ID} from
   * the answer) by {@code HOST2:2}, each waited for to its second phase; prints {@code NEW PHASE1
   * STATUS INFOS}, {@code NEW PHASE2 CODE INFOS}, then the same for {@code EXTEND}. PRRTE tears a
   * reservation down when the tool that made it leaves, so an EXTEND must come from the same
   * connection as its NEW.
   */
  static void extendAfterNew(String uri, String host1, String host2) throws Exception {
    var exec = Executors.newSingleThreadExecutor();
    PmixTool.Connected c = connect(uri, exec);
    DvmPort port = c.port();
    java.util.concurrent.LinkedBlockingQueue<Arrived> events =
        new java.util.concurrent.LinkedBlockingQueue<>();
    java.util.concurrent.atomic.AtomicBoolean answered =
        new java.util.concurrent.atomic.AtomicBoolean();
    register(port, e -> events.add(new Arrived(e, answered.get())));
    StatusInfos grow =
        twoPhases(
            port,
            events,
            answered,
            "NEW",
            AllocDirective.NEW,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host1 + ":2"),
                Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "ext-new")));
    Optional<String> id = value(grow.infos(), PmixKey.PMIX_ALLOC_ID);
    if (grow.succeeded() && id.isPresent()) {
      twoPhases(
          port,
          events,
          answered,
          "EXTEND",
          AllocDirective.EXTEND,
          List.of(
              Info.of(PmixKey.PMIX_ALLOC_ID, id.get()),
              Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host2 + ":2"),
              Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "ext-extend")));
    }
    end(port, exec);
  }

  /** An event and whether the answer to the request in flight had come before it. */
  private record Arrived(Event event, boolean afterAnswer) {}

  private static Optional<String> value(List<Info> infos, String key) {
    return infos.stream().filter(i -> i.key().equals(key)).map(Info::stringValue).findFirst();
  }

  /**
   * One request and its second phase: the first event after the answer that names the request
   * ({@code PMIX_ALLOC_REQ_ID}) or the reservation it grows ({@code PMIX_ALLOC_ID}: PRRTE's event
   * for an EXTEND carries the reservation's ids, its first request id among them).
   */
  private static StatusInfos twoPhases(
      DvmPort port,
      java.util.concurrent.LinkedBlockingQueue<Arrived> events,
      java.util.concurrent.atomic.AtomicBoolean answered,
      String label,
      AllocDirective d,
      List<Info> infos)
      throws Exception {
    String req = value(infos, PmixKey.PMIX_ALLOC_REQ_ID).orElseThrow();
    Optional<String> id = value(infos, PmixKey.PMIX_ALLOC_ID);
    events.clear();
    answered.set(false);
    StatusInfos r =
        port.allocationRequest(d, infos)
            .toCompletableFuture()
            .whenComplete((x, t) -> answered.set(true))
            .get(120, TimeUnit.SECONDS);
    System.out.println(label + " PHASE1 " + r.status() + " " + r.infos());
    System.out.flush();
    if (r.succeeded()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      Arrived got = null;
      while (got == null && System.nanoTime() < deadline) {
        Arrived a = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (a == null) {
          break;
        }
        List<Info> ev = a.event().infos();
        if (value(ev, PmixKey.PMIX_ALLOC_REQ_ID).filter(req::equals).isPresent()
            || (id.isPresent() && value(ev, PmixKey.PMIX_ALLOC_ID).equals(id))) {
          got = a;
        }
      }
      if (got == null) {
        System.out.println(label + " PHASE2 none");
      } else {
        System.out.println(
            label
                + (got.afterAnswer() || relayed(got.event()) ? " PHASE2 " : " EVENT-BEFORE-ANSWER ")
                + got.event().status()
                + " "
                + got.event().infos());
      }
      System.out.flush();
    }
    return r;
  }

  /** {@code ToolMain URI SESSION ID PAUSE|RESUME|TERMINATE}: prints {@code PHASE1 STATUS INFOS}. */
  static void session(String uri, long id, String directive) throws Exception {
    var exec = Executors.newSingleThreadExecutor();
    PmixTool.Connected c = connect(uri, exec);
    String key =
        switch (directive) {
          case "PAUSE" -> PmixKey.PMIX_SESSION_PAUSE;
          case "RESUME" -> PmixKey.PMIX_SESSION_RESUME;
          case "TERMINATE" -> PmixKey.PMIX_SESSION_TERMINATE;
          default -> throw new IllegalArgumentException("directive " + directive);
        };
    StatusInfos r =
        c.port()
            .sessionControl(id, List.of(Info.of(key, true)))
            .toCompletableFuture()
            .get(120, TimeUnit.SECONDS);
    System.out.println("PHASE1 " + r.status() + " " + r.infos());
    System.out.flush();
    end(c.port(), exec);
  }

  /**
   * Whether fluxdrm's shrink agent relayed the event (D456): it travels apart from the answer, so
   * it may arrive first; only PRRTE's own events are held to the order answer, then event.
   */
  private static boolean relayed(Event e) {
    return e.infos().stream().anyMatch(i -> i.key().equals("fluxdrm.relayed"));
  }

  /** Connects this process to the DVM as a tool. */
  private static PmixTool.Connected connect(String uri, ExecutorService exec) throws Exception {
    return PmixTool.connect(uri, Optional.empty(), Duration.ofSeconds(20), exec)
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
  }

  /** Registers {@code handler} for the two second-phase events, PMIX_DVM_IS_READY and _MOD. */
  private static void register(DvmPort port, DvmPort.EventHandler handler) throws Exception {
    port.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            handler)
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  /** Leaves the DVM and ends this process with status 0. */
  private static void end(DvmPort port, ExecutorService exec) throws Exception {
    port.disconnect().toCompletableFuture().get(30, TimeUnit.SECONDS);
    exec.shutdown();
    System.exit(0);
  }

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      // never linger: the test reads this process's output to its end
      System.out.println("ERROR " + t);
      System.out.flush();
      System.exit(1);
    }
  }

  static void run(String[] args) throws Exception {
    String uri = args[0];
    if (args[1].equals("LOOP")) {
      loop(uri, Integer.parseInt(args[2]), args[3]);
      return;
    }
    if (args[1].equals("EXTEND_AFTER_NEW")) {
      extendAfterNew(uri, args[2], args[3]);
      return;
    }
    if (args[1].equals("SESSION")) {
      session(uri, Long.parseLong(args[2]), args[3]);
      return;
    }
    AllocDirective d = AllocDirective.valueOf(args[1]);
    List<Info> infos = new ArrayList<>();
    long wait = 60;
    for (int i = 2; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      switch (kv[0]) {
        case "nodes" -> infos.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, kv[1]));
        case "count" -> infos.add(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, Long.parseLong(kv[1])));
        case "id" -> infos.add(Info.of(PmixKey.PMIX_ALLOC_ID, kv[1]));
        case "req" -> infos.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, kv[1]));
        case "wait" -> wait = Long.parseLong(kv[1]);
        case "raw" -> infos.add(new Info("fluxdrm.test.unknown", PmixDataType.PMIX_INT, 1));
        default -> throw new IllegalArgumentException("argument " + args[i]);
      }
    }
    var exec = Executors.newSingleThreadExecutor();
    PmixTool.Connected c = connect(uri, exec);
    DvmPort port = c.port();
    CompletableFuture<Event> phase2 = new CompletableFuture<>();
    // the order of arrival: an event that comes before the answer is printed as such, so that a
    // test expecting "PHASE2 ..." after "PHASE1 ..." fails on it
    java.util.concurrent.atomic.AtomicBoolean answered =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicBoolean early =
        new java.util.concurrent.atomic.AtomicBoolean();
    register(
        port,
        e -> {
          early.compareAndSet(false, !answered.get());
          phase2.complete(e);
        });
    System.out.println("TOOL " + c.self().nspace() + "." + c.self().rank());
    StatusInfos r =
        port.allocationRequest(d, infos)
            .toCompletableFuture()
            .whenComplete((x, t) -> answered.set(true))
            .get(120, TimeUnit.SECONDS);
    System.out.println("PHASE1 " + r.status() + " " + r.infos());
    System.out.flush();
    if (r.succeeded()) {
      try {
        Event e = phase2.get(wait, TimeUnit.SECONDS);
        System.out.println(
            (early.get() && !relayed(e) ? "EVENT-BEFORE-ANSWER " : "PHASE2 ")
                + e.status()
                + " "
                + e.infos());
      } catch (java.util.concurrent.TimeoutException e) {
        System.out.println("PHASE2 none");
      }
    }
    System.out.flush();
    end(port, exec);
  }
}
