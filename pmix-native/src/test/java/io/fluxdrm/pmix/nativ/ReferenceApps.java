package io.fluxdrm.pmix.nativ;

import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The application rows of docs/dvm.md against the reference DVM (issue 27 scope 5): a {@link
 * DvmService} in simulated, elastic mode on a manual loop, holding the head node, with fluxdrm's
 * {@link FluxScheduler} as its scheduler over a stand-in of Flux that grants node1..node7 (2 cores
 * each, node7's daemon failing) and takes back what is handed back. The applications are clients of
 * kind {@code APPLICATION} with the namespaces of jobs a tool spawned (through the hub every
 * requester is a tool, so they are in-process here). Each scenario runs in a DVM of its own and
 * yields one line: the statuses the application got, the second-phase events it received, and what
 * Flux holds afterwards.
 */
final class ReferenceApps {
  private final ManualEventLoop loop = new ManualEventLoop();
  private final DvmService dvm;
  private final FluxScheduler sched;
  private final DvmPort tool;
  private DvmPort schedPort;
  private DvmPort selfPort;

  /** Flux's free nodes. */
  private final TreeSet<String> free = new TreeSet<>();

  private int nextAlloc;

  private ReferenceApps() {
    for (int i = 1; i <= 7; i++) {
      free.add("node" + i);
    }
    dvm =
        DvmService.builder(
                DvmConfig.of(List.of(new DvmConfig.NodeSpec("head", 2)), "dvm", 0)
                    .withElastic(true),
                loop)
            .daemons(DaemonPolicy.immediate().failing(java.util.Set.of("node7")))
            .checked()
            .start();
    loop.runPending();
    FluxScheduler.HandBack back =
        new FluxScheduler.HandBack() {
          @Override
          public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
            released(nodeList);
            return CompletableFuture.completedFuture(
                new PmixAnswer(
                    PmixStatus.PMIX_SUCCESS,
                    List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nodeList)),
                    ""));
          }

          @Override
          public CompletionStage<Void> released(String nodeList) {
            for (String e : nodeList.split(",")) {
              free.add(e.replaceFirst(":.*", ""));
            }
            return CompletableFuture.completedFuture(null);
          }
        };
    sched = new FluxScheduler(this::flux, back, () -> schedPort, () -> selfPort);
    schedPort =
        await(
            dvm.attachScheduler(
                new Client(new PmixProc("fluxdrm-bridge", 0), 0, 0, Client.Kind.SCHEDULER), sched));
    selfPort =
        await(
            dvm.connect(
                new Client(new PmixProc("fluxdrm-bridge.self", 0), 0, 0, Client.Kind.TOOL),
                "head"));
    tool = await(dvm.connect(new Client(new PmixProc("tool", 0), 0, 0, Client.Kind.TOOL), "head"));
  }

  /** Flux's side: a grow takes the named or the first free nodes; a release is granted. */
  private CompletionStage<PmixAnswer> flux(AllocDirective d, List<Info> infos) {
    Map<String, Info> in = new LinkedHashMap<>();
    infos.forEach(i -> in.put(i.key(), i));
    if (d == AllocDirective.RELEASE) {
      Info nl = in.get(PmixKey.PMIX_ALLOC_NODE_LIST);
      List<Info> out = new ArrayList<>();
      if (nl != null) {
        out.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nl.stringValue()));
      }
      Optional.ofNullable(in.get(PmixKey.PMIX_ALLOC_ID)).ifPresent(out::add);
      return CompletableFuture.completedFuture(new PmixAnswer(PmixStatus.PMIX_SUCCESS, out, ""));
    }
    List<String> take = new ArrayList<>();
    Info nl = in.get(PmixKey.PMIX_ALLOC_NODE_LIST);
    if (nl != null) {
      for (String e : nl.stringValue().split(",")) {
        take.add(e.replaceFirst(":.*", ""));
      }
    } else {
      long n =
          in.containsKey(PmixKey.PMIX_ALLOC_NUM_NODES)
              ? in.get(PmixKey.PMIX_ALLOC_NUM_NODES).longValue()
              : 1;
      take.addAll(free.stream().limit(n).toList());
    }
    if (take.isEmpty() || !free.containsAll(take)) {
      return CompletableFuture.completedFuture(
          new PmixAnswer(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE, List.of(), "denied"));
    }
    free.removeAll(take);
    String id =
        d == AllocDirective.EXTEND && in.containsKey(PmixKey.PMIX_ALLOC_ID)
            ? in.get(PmixKey.PMIX_ALLOC_ID).stringValue()
            : Integer.toString(++nextAlloc);
    String list = String.join(",", take.stream().map(h -> h + ":2").toList());
    return CompletableFuture.completedFuture(
        new PmixAnswer(
            PmixStatus.PMIX_SUCCESS,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_ID, id), Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list)),
            ""));
  }

  private <T> T await(CompletionStage<T> s) {
    loop.runPending();
    CompletableFuture<T> f = s.toCompletableFuture();
    for (int i = 0; i < 100 && !f.isDone(); i++) {
      loop.advance(java.time.Duration.ofSeconds(1));
      loop.runPending();
    }
    if (!f.isDone()) {
      throw new IllegalStateException("the reference DVM did not answer");
    }
    return f.join();
  }

  /** An application: a job the tool spawned into {@code target} (or the default session). */
  private final class AppProc {
    final String nspace;
    final DvmPort port;
    final List<String> events = new ArrayList<>();

    AppProc(Optional<String> target) {
      List<Info> job =
          target.map(t -> List.of(Info.of(PmixKey.PMIX_ALLOC_ID, t))).orElse(List.of());
      SpawnResult r = await(tool.spawn(List.of(sleep()), job));
      if (r.status() != PmixStatus.PMIX_SUCCESS) {
        throw new IllegalStateException("spawn of an application: " + r.status());
      }
      nspace = r.nspace().orElseThrow();
      port =
          await(
              dvm.connect(
                  new Client(new PmixProc(nspace, 0), 0, 0, Client.Kind.APPLICATION), "head"));
      await(
          port.registerEvents(
              List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
              (Event e) -> events.add(PmixStatus.byCode(e.status()).map(Enum::name).orElse("?"))));
    }

    StatusInfos ask(AllocDirective d, Info... infos) {
      return await(port.allocationRequest(d, List.of(infos)));
    }

    SpawnResult spawn(int np, Info target) {
      return await(port.spawn(List.of(sleep(np)), List.of(target)));
    }
  }

  private static App sleep() {
    return sleep(1);
  }

  private static App sleep(int np) {
    return new App("/bin/sleep", List.of("/bin/sleep", "1000"), np, List.of());
  }

  private static String id(StatusInfos s) {
    return s.infos().stream()
        .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_ID))
        .map(Info::stringValue)
        .findFirst()
        .orElse("");
  }

  private String flux() {
    return "Flux free " + free.size() + "/7";
  }

  private static String st(StatusInfos s) {
    return "`" + s.status().name() + "`";
  }

  private static String st(SpawnResult s) {
    return "`" + s.status().name() + "`";
  }

  private String ev(AppProc a) {
    loop.runPending();
    return a.events.isEmpty() ? "no event" : "`" + String.join("`, `", a.events) + "`";
  }

  /**
   * Runs every application scenario, each in a reference DVM of its own.
   *
   * @return row id to outcome
   */
  static Map<String, String> run() {
    Map<String, String> rows = new LinkedHashMap<>();
    {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      StatusInfos s =
          a.ask(
              AllocDirective.NEW,
              Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L),
              Info.of(PmixKey.PMIX_ALLOC_TARGET, "somebody"));
      rows.put("B5", st(s) + ", " + w.ev(a) + "; " + w.flux());
    }
    String[][] extend = {{"A1", "cpus"}, {"A2", "nodes"}, {"A3", "nlist"}};
    for (String[] e : extend) {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      Info how =
          switch (e[1]) {
            case "cpus" -> Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L);
            case "nodes" -> Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L);
            default -> Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3:2");
          };
      StatusInfos s = a.ask(AllocDirective.EXTEND, how);
      rows.put(e[0], st(s) + ", " + w.ev(a) + "; " + w.flux());
    }
    for (String[] n : new String[][] {{"A4", "id"}, {"A5", "target"}}) {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      StatusInfos s = a.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L));
      String id = id(s);
      SpawnResult sp =
          a.spawn(
              2,
              Info.of(n[1].equals("id") ? PmixKey.PMIX_ALLOC_ID : PmixKey.PMIX_SPAWN_TARGET, id));
      String where =
          sp.nspace()
              .map(
                  ns ->
                      w.dvm
                          .view()
                          .job(ns)
                          .map(j -> " on " + new TreeSet<>(j.procsPerNode().keySet()))
                          .orElse(""))
              .orElse("");
      rows.put(n[0], "NEW " + st(s) + ", " + w.ev(a) + "; spawn " + st(sp) + where);
    }
    {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      StatusInfos na = a.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L));
      String idA = id(na);
      AppProc b = w.new AppProc(Optional.of(idA));
      StatusInfos eb =
          b.ask(
              AllocDirective.EXTEND,
              Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L),
              Info.of(PmixKey.PMIX_ALLOC_ID, idA));
      StatusInfos nb = b.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L));
      AppProc c = w.new AppProc(Optional.of(id(nb)));
      StatusInfos ec =
          c.ask(
              AllocDirective.EXTEND,
              Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L),
              Info.of(PmixKey.PMIX_ALLOC_ID, id(nb)));
      rows.put(
          "A6",
          "NEW "
              + st(na)
              + "; level 1: EXTEND "
              + st(eb)
              + ", NEW "
              + st(nb)
              + ", "
              + w.ev(b)
              + "; level 2: EXTEND "
              + st(ec)
              + ", "
              + w.ev(c));
    }
    {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      StatusInfos e = a.ask(AllocDirective.EXTEND, Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L));
      String one =
          e.infos().stream()
              .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_NODE_LIST))
              .map(i -> i.stringValue().replaceFirst("[:,].*", ""))
              .findFirst()
              .orElse("node1");
      a.events.clear();
      StatusInfos r = a.ask(AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, one));
      rows.put("A7", "EXTEND " + st(e) + "; RELEASE " + st(r) + ", " + w.ev(a) + "; " + w.flux());
    }
    {
      ReferenceApps w = new ReferenceApps();
      AppProc j1 = w.new AppProc(Optional.empty());
      String id = id(j1.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L)));
      AppProc j2 = w.new AppProc(Optional.empty());
      StatusInfos s =
          j2.ask(
              AllocDirective.EXTEND,
              Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L),
              Info.of(PmixKey.PMIX_ALLOC_ID, id));
      rows.put("B8", st(s) + ", " + w.ev(j2) + "; " + w.flux());
    }
    {
      ReferenceApps w = new ReferenceApps();
      AppProc j1 = w.new AppProc(Optional.empty());
      String id = id(j1.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L)));
      // J1 ends: its allocation goes with it (PMIX_ALLOC_INHERIT_DEFAULT)
      ((io.fluxdrm.dvm.exec.SimulatedExecutor) w.dvm.executor()).exit(j1.nspace, 0, 0);
      w.loop.runPending();
      AppProc j2 = w.new AppProc(Optional.empty());
      StatusInfos s =
          j2.ask(
              AllocDirective.EXTEND,
              Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L),
              Info.of(PmixKey.PMIX_ALLOC_ID, id));
      rows.put("A8", st(s) + ", " + w.ev(j2) + "; " + w.flux());
    }
    {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      String id = id(a.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L)));
      rows.put("A9", st(a.spawn(5, Info.of(PmixKey.PMIX_ALLOC_ID, id))));
      rows.put("A10", st(a.spawn(1, Info.of(PmixKey.PMIX_ALLOC_ID, "nosuch"))));
    }
    {
      ReferenceApps w = new ReferenceApps();
      AppProc a = w.new AppProc(Optional.empty());
      StatusInfos s =
          a.ask(AllocDirective.EXTEND, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node7:2"));
      rows.put("A11", st(s) + ", " + w.ev(a) + "; " + w.flux());
    }
    return rows;
  }
}
