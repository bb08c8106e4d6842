package io.fluxdrm.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.dvm.PmixToolProvider;
import io.fluxdrm.cli.replay.DemoReplayProvider;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code fluxdrm demo --prrte} (issue 17, D463): the allocation part of the story against a real
 * PRRTE DVM whose PMIx scheduler is fluxdrm, in the start-up order of docs/prrte.md. {@code fluxdrm
 * sched} holds this host and {@code node1..node3} (2 cores each); {@code fluxdrm bridge
 * --pmix-scheduler} puts the DVM's Flux job on this host and becomes PRRTE's scheduler; then {@code
 * prte} starts elastic with {@code ras_pmix_system_scheduler 1}. This JVM is the PMIx tool (libpmix
 * holds one role per process), reached through the {@link PmixToolProvider} of the JDK 22+ module
 * {@code pmix-native}. The tool grows the DVM by a node list and by a count, has a request larger
 * than the pool denied, releases the nodes again, and {@code prun} shows where daemons are after
 * each change; the scheduler must free a released node only after its daemon left. The end is
 * {@code pterm}, the DVM's job finished (the scheduler's free set is then the pool) and SIGTERM to
 * the bridge and the scheduler. Every process's output is in {@code DIR/NAME.log}; every process is
 * reaped, killed with its children when it does not stop in time, also when the story fails ({@link
 * PrrteProcesses}).
 *
 * <p>Why one class: it is one story told in order, as {@link Demo} is, each step a few lines whose
 * answer the next step stands on (the grant's id, the node the scheduler picked).
 */
public final class PrrteStory implements AutoCloseable {

  /** The first JDK with the final FFM API, which pmix-native needs. */
  public static final int MIN_JDK = 22;

  /** The default installation of PRRTE (the peer's build). */
  public static final String DEFAULT_PRRTE_PREFIX = "/opt/prrte";

  /** The default installation of OpenPMIx (the peer's build). */
  public static final String DEFAULT_PMIX_PREFIX = "/opt/pmix";

  /** The system property pmix-native reads libpmix's prefix from. */
  public static final String PMIX_PREFIX_PROPERTY = "fluxdrm.pmix.prefix";

  /** The system property the PRRTE prefix defaults to, as in pmix-native's tests. */
  public static final String PRRTE_PREFIX_PROPERTY = "fluxdrm.prrte.prefix";

  /** The nodes beside this host, in PRRTE's hostfile and the scheduler's pool. */
  public static final List<String> NODES = List.of("node1", "node2", "node3");

  /** Slots (cores) per node. */
  public static final int SLOTS = 2;

  /** How long one answer, line or command may take. */
  static final Duration WAIT = Duration.ofSeconds(120);

  /** How long a process has to stop after SIGTERM (or {@code prte} after {@code pterm}). */
  static final Duration STOP_GRACE = Duration.ofSeconds(20);

  /** The story's steps, in order. */
  public static final List<String> STEPS =
      List.of(
          "sched-up",
          "bridge-up",
          "prte-up",
          "daemons-at-start",
          "tool-connect",
          "grow-node1",
          "grow-node1-ready",
          "daemons-default",
          "daemons-grown",
          "grow-count",
          "grow-count-ready",
          "daemons-count",
          "release-count",
          "release-count-ready",
          "deny",
          "daemons-after-deny",
          "release-node1",
          "release-node1-ready",
          "free-after-daemon-left",
          "daemons-at-end",
          "tool-disconnect",
          "pterm",
          "dvm-job-finished",
          "stop");

  private static final Pattern STAMP = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) ");

  /**
   * What the story needs.
   *
   * @param prrtePrefix PRRTE's installation ({@code bin/prte}, {@code bin/prun}, {@code bin/pterm})
   * @param pmixPrefix OpenPMIx's installation ({@code lib/libpmix.so})
   * @param sshAgent what {@code prte} reaches the nodes with ({@code plm_ssh_agent}), or empty for
   *     PRRTE's default (ssh)
   * @param dir where the processes' state and logs go (kept), or {@code null} for a temporary
   *     directory, removed after a story that went as expected
   * @param mainClass the command line's main class, which the processes run
   */
  public record Config(
      Path prrtePrefix, Path pmixPrefix, Optional<Path> sshAgent, Path dir, String mainClass) {}

  /**
   * What is missing for the story, checked before anything starts: a JDK {@value #MIN_JDK}+, the
   * pmix-native module, PRRTE's commands, libpmix and the ssh agent.
   *
   * @param feature the running JDK's feature version
   * @param loader where to look for pmix-native
   * @param c the configuration
   * @return a one-line message naming the missing thing, or empty
   */
  public static Optional<String> missing(int feature, ClassLoader loader, Config c) {
    if (feature < MIN_JDK) {
      return Optional.of(
          "--prrte: needs a JDK "
              + MIN_JDK
              + " or later (this is JDK "
              + feature
              + "): run bin/fluxdrm with JAVA_HOME set to one, e.g. a Temurin 25 JDK");
    }
    if (provider(loader).isEmpty()) {
      return Optional.of(
          "--prrte: the pmix-native module is not on the class path (build it on JDK "
              + MIN_JDK
              + "+: mvn -B -Ppmix-native package -DskipTests; bin/fluxdrm then adds"
              + " pmix-native/target/fluxdrm-pmix-native-*.jar)");
    }
    for (String cmd : List.of("prte", "prun", "pterm")) {
      Path p = c.prrtePrefix().resolve("bin").resolve(cmd);
      if (!Files.isExecutable(p)) {
        return Optional.of(
            "--prrte: "
                + p
                + " is missing (--prrte-prefix names PRRTE's installation; build the peer:"
                + " ../shared/tools/build-prrte-peer)");
      }
    }
    Path so = c.pmixPrefix().resolve("lib").resolve("libpmix.so");
    if (!Files.isRegularFile(so)) {
      return Optional.of(
          "--prrte: "
              + so
              + " is missing (--pmix-prefix names OpenPMIx's installation; build the peer:"
              + " ../shared/tools/build-prrte-peer)");
    }
    if (c.sshAgent().isPresent()
        && !(Files.isRegularFile(c.sshAgent().get()) && Files.isExecutable(c.sshAgent().get()))) {
      return Optional.of(
          "--ssh-agent: "
              + c.sshAgent().get()
              + " is not an executable file (expected: what prte reaches the nodes with, e.g."
              + " ../shared/tools/fakessh as root)");
    }
    return Optional.empty();
  }

  private static Optional<PmixToolProvider> provider(ClassLoader loader) {
    return ServiceLoader.load(PmixToolProvider.class, loader).findFirst();
  }

  private final Config config;
  private final Path dir;
  private final boolean temporary;
  private final String head;
  private final Path uriFile;
  private final ResourceSet pool;
  private final PrrteProcesses procs;
  private final Map<String, CompletableFuture<Event>> phase2 = new ConcurrentHashMap<>();
  private final List<Step> steps = new ArrayList<>();
  private final Consumer<Step> sink;
  private final Thread reaper = new Thread(this::reap, "fluxdrm-demo-prrte-reaper");
  private final ExecutorService toolLoop =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "fluxdrm-demo-tool");
            t.setDaemon(true);
            return t;
          });
  private Reactor reactor;
  private FluxHandle hub;
  private DvmPort port;
  private PrrteProcesses.Child sched;
  private PrrteProcesses.Child bridge;
  private PrrteProcesses.Child prte;
  private long dvmJob;
  private int freeNodes;
  private long t0;
  private StatusInfos lastGrow = StatusInfos.of(PmixStatus.PMIX_ERROR);

  private PrrteStory(Config config, Consumer<Step> sink) throws IOException {
    this.config = config;
    this.sink = sink;
    this.temporary = config.dir() == null;
    this.dir =
        (temporary ? Files.createTempDirectory("fluxdrm-demo-prrte-") : config.dir())
            .toAbsolutePath();
    this.head = shortHostname();
    this.uriFile = dir.resolve("dvm.uri");
    this.pool = pool(head);
    this.procs =
        new PrrteProcesses(dir, config.prrtePrefix(), config.pmixPrefix(), config.mainClass());
  }

  /** The pool: this host as rank 0, then {@link #NODES}, cores {@code 0..SLOTS-1} each. */
  public static ResourceSet pool(String head) {
    return DemoReplayProvider.pool(
        Hostlist.parse(head + ",node[1-" + NODES.size() + "]"), IdSet.range(0, SLOTS - 1));
  }

  /**
   * The name PRRTE and the bridge know this host by: its short host name.
   *
   * @return the name
   * @throws IllegalStateException when this host's name is unknown
   */
  public static String shortHostname() {
    String n;
    try {
      n = java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      throw new IllegalStateException("this host's name is unknown: " + e.getMessage(), e);
    }
    int dot = n.indexOf('.');
    return dot > 0 ? n.substring(0, dot) : n;
  }

  /**
   * Plays the story.
   *
   * @param config what it needs (check it first with {@link #missing})
   * @param sink gets each step as it is checked
   * @return the steps and every difference from the story's expectations
   */
  public static Demo.Result run(Config config, Consumer<Step> sink) {
    List<String> differences = new ArrayList<>();
    PrrteStory s;
    try {
      s = new PrrteStory(config, sink);
    } catch (IOException | IllegalStateException e) {
      return new Demo.Result(List.of(), List.of("cannot start: " + e.getMessage()));
    }
    Runtime.getRuntime().addShutdownHook(s.reaper);
    String stopped = null;
    try (s) {
      s.story();
    } catch (Waits.Stopped e) {
      stopped = "story stopped: " + e.getMessage();
    } catch (IOException | RuntimeException e) {
      stopped = "story stopped: " + e;
    }
    for (Step st : s.steps) {
      if (!st.ok()) {
        differences.add(
            (st.name() + ": " + st.outcome() + " (expected: " + st.expected() + ") " + st.detail())
                .strip());
      }
    }
    if (stopped != null) {
      differences.add(stopped);
    } else if (s.steps.size() < STEPS.size()) {
      differences.add("story stopped after " + s.steps.size() + " steps");
    }
    if (!differences.isEmpty()) {
      differences.add("the processes' logs are in " + s.dir);
    } else if (s.temporary) {
      Demo.delete(s.dir);
    }
    return new Demo.Result(s.steps, differences);
  }

  /** The directory of the processes' state and logs. */
  public Path dir() {
    return dir;
  }

  private void story() throws IOException {
    t0 = System.nanoTime();
    reactor = Reactor.start("fluxdrm-demo-prrte");
    String hosts = head + ",node[1-" + NODES.size() + "]";

    // the Flux side: the scheduler holding this host and the nodes
    sched =
        procs.spawnFluxdrm(
            "sched",
            List.of(
                "sched",
                "--listen",
                "unix:" + dir.resolve("hub"),
                "--hosts",
                hosts,
                "--cores",
                "0-" + (SLOTS - 1)));
    procs.await(sched, "listening on ");
    hub = connectHub();
    updateFree();
    step("sched-up", "sched", "fluxdrm sched --hosts " + hosts, "listening", "listening", "");

    // fluxdrm as PRRTE's PMIx scheduler, before prte
    bridge =
        procs.spawnFluxdrm(
            "bridge",
            List.of(
                "bridge",
                "--connect",
                "unix:" + dir.resolve("hub"),
                "--state-dir",
                dir.resolve("jobs").toString(),
                "--pmix-scheduler",
                "--dvm-uri",
                "file:" + uriFile,
                "--dvm-host",
                head));
    String up = procs.await(bridge, "PMIx scheduler up: start prte");
    // the bridge logs job ids in F58, as flux-core does (decision D497)
    Matcher m = Pattern.compile("the DVM's job (\\S+): ([^;]+);").matcher(up);
    boolean found = m.find();
    if (found) {
      dvmJob = io.fluxdrm.rpc.JobId.parse(m.group(1));
    }
    updateFree();
    step(
        "bridge-up",
        "bridge",
        "fluxdrm bridge --pmix-scheduler: the DVM's job on " + head,
        "PMIx scheduler up",
        "PMIx scheduler up",
        found ? "holds " + m.group(2) : "");

    // the DVM
    Files.writeString(
        dir.resolve("hosts"),
        (head + " slots=" + SLOTS + "\n")
            + NODES.stream().map(n -> n + " slots=" + SLOTS + "\n").collect(Collectors.joining()));
    prte = procs.spawn("prte", prteCommand());
    procs.await(prte, "DVM ready");
    step(
        "prte-up",
        "prte",
        "prte elastic, ras_pmix_system_scheduler 1",
        "DVM ready",
        "DVM ready",
        "");
    daemonsStep("daemons-at-start", "", List.of(head));

    // this JVM as the tool
    connectTool();
    step("tool-connect", "tool", "PMIx_tool_init file:dvm.uri", "connected", "connected", "");

    grow("grow-node1", "NEW node1:" + SLOTS, nodeList("node1:" + SLOTS));
    daemonsStep("daemons-default", "", List.of(head));
    String node1Alloc = info(lastGrow, PmixKey.PMIX_ALLOC_ID);
    daemonsStep("daemons-grown", node1Alloc, List.of("node1"));

    grow("grow-count", "NEW 1 node", count(1));
    String countAlloc = info(lastGrow, PmixKey.PMIX_ALLOC_ID);
    String picked = daemonsStep("daemons-count", countAlloc, List.of("node2|node3"));
    release("release-count", picked.matches("node[23]") ? picked : "node2");

    int more = NODES.size() + 5;
    StatusInfos denied =
        request(
            AllocDirective.NEW,
            "deny",
            List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, (long) more)));
    updateFree();
    step(
        "deny",
        "tool",
        "NEW " + more + " nodes (more than the pool)",
        denied.status().name(),
        PmixStatus.PMIX_ERR_OUT_OF_RESOURCE.name(),
        "");
    daemonsStep("daemons-after-deny", node1Alloc, List.of("node1"));

    release("release-node1", "node1");
    freedAfterLeft();
    daemonsStep("daemons-at-end", "", List.of(head));

    // the end
    StatusInfos bye = Waits.await("PMIx_tool_finalize", port.disconnect(), WAIT);
    port = null;
    step(
        "tool-disconnect",
        "tool",
        "PMIx_tool_finalize",
        bye.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        "");
    PrrteProcesses.Ran pterm = procs.run(List.of(bin("pterm"), "--dvm-uri", "file:" + uriFile));
    int prteExit = PrrteProcesses.exitOf(prte, STOP_GRACE);
    step(
        "pterm",
        "prte",
        "pterm --dvm-uri file:dvm.uri",
        "pterm " + pterm.exit() + ", prte " + prteExit,
        "pterm 0, prte 0",
        "");
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(dvmJob));
    Waits.await("bridge.finish", Waits.onLoop(reactor, () -> hub.rpc("bridge.finish", p)), WAIT);
    ResourceSet free = updateFree();
    boolean all = free.diff(pool).isEmpty() && pool.diff(free).isEmpty();
    step(
        "dvm-job-finished",
        "bridge",
        "bridge.finish of the DVM's job",
        all ? "the pool free" : "free " + free.summary(),
        "the pool free",
        "");
    FluxHandle h = hub;
    hub = null;
    Waits.onLoop(
        reactor,
        () -> {
          h.close();
          return null;
        });
    bridge.process().toHandle().destroy();
    int bridgeExit = PrrteProcesses.exitOf(bridge, STOP_GRACE);
    sched.process().toHandle().destroy();
    int schedExit = PrrteProcesses.exitOf(sched, STOP_GRACE);
    step(
        "stop",
        "pool",
        "SIGTERM to the bridge and the scheduler",
        "bridge " + bridgeExit + ", sched " + schedExit,
        "bridge 143, sched 143",
        "");
  }

  private static List<Info> nodeList(String nodes) {
    return List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nodes));
  }

  private static List<Info> count(long n) {
    return List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, n));
  }

  /** A NEW and its second phase: two steps. */
  private StatusInfos grow(String name, String action, List<Info> infos) {
    CompletableFuture<Event> ev = phase2.computeIfAbsent(name, k -> new CompletableFuture<>());
    StatusInfos r = request(AllocDirective.NEW, name, infos);
    updateFree();
    String nodes = info(r, PmixKey.PMIX_ALLOC_NODE_LIST);
    step(
        name,
        "tool",
        action,
        r.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        (nodes.isEmpty() ? "" : "granted " + nodes + " ")
            + "alloc id "
            + info(r, PmixKey.PMIX_ALLOC_ID));
    secondPhase(name, action, r, ev);
    lastGrow = r;
    return r;
  }

  /** A RELEASE and its second phase: two steps. */
  private void release(String name, String node) {
    CompletableFuture<Event> ev = phase2.computeIfAbsent(name, k -> new CompletableFuture<>());
    StatusInfos r = request(AllocDirective.RELEASE, name, nodeList(node));
    updateFree();
    step(name, "tool", "RELEASE " + node, r.status().name(), PmixStatus.PMIX_SUCCESS.name(), "");
    secondPhase(name, "RELEASE " + node, r, ev);
  }

  private void secondPhase(
      String name, String action, StatusInfos r, CompletableFuture<Event> event) {
    String outcome;
    if (!r.succeeded()) {
      outcome = "none (the request failed)";
    } else {
      Event e = Waits.await(name + ": PMIX_DVM_IS_READY", event, WAIT);
      outcome = PmixStatus.byCode(e.status()).map(Enum::name).orElse("event " + e.status());
    }
    phase2.remove(name);
    updateFree();
    step(
        name + "-ready",
        "prte",
        "phase 2 of " + action,
        outcome,
        PmixStatus.PMIX_DVM_IS_READY.name(),
        "");
  }

  private StatusInfos request(AllocDirective d, String reqId, List<Info> infos) {
    List<Info> all = new ArrayList<>(infos);
    all.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "fluxdrm-demo-" + reqId));
    phase2.computeIfAbsent(reqId, k -> new CompletableFuture<>());
    return Waits.await(d + " " + infos, port.allocationRequest(d, all), WAIT);
  }

  private static String info(StatusInfos r, String key) {
    return r.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElse("");
  }

  /**
   * The scheduler logs its {@code sched.free} of node1 (rank 1, no {@code (final)}) no earlier than
   * the bridge logs node1's daemon gone.
   */
  private void freedAfterLeft() {
    String left = procs.await(bridge, "the daemons of node1 left; sched\\.free final: false");
    String free = procs.await(sched, "free \\S+: rank1/core\\[0-" + (SLOTS - 1) + "\\]$");
    Optional<LocalTime> l = stamp(left);
    Optional<LocalTime> f = stamp(free);
    String outcome;
    if (free.contains("(final)")) {
      outcome = "sched.free final:true";
    } else if (l.isEmpty() || f.isEmpty()) {
      outcome = "no time stamps";
    } else if (f.get().isBefore(l.get())) {
      outcome = "sched.free final:false before the daemon left";
    } else {
      outcome = "sched.free final:false after the daemon left";
    }
    updateFree();
    step(
        "free-after-daemon-left",
        "sched",
        "sched.free of node1",
        outcome,
        "sched.free final:false after the daemon left",
        l.map(t -> "left " + t).orElse("") + f.map(t -> ", freed " + t).orElse(""));
  }

  private static Optional<LocalTime> stamp(String line) {
    Matcher m = STAMP.matcher(line);
    return m.find() ? Optional.of(LocalTime.parse(m.group(1))) : Optional.empty();
  }

  /**
   * {@code prun --map-by ppr:1:node hostname}, in the DVM's own allocation or, with {@code
   * allocId}, in a grant's ({@code --alloc-id}): a process on each node of it shows a daemon there.
   * While the tool that asked for a grant is connected, PRRTE keeps the grant's nodes for it: a job
   * without {@code --alloc-id} maps on the DVM's own nodes only.
   *
   * @param expected the hosts, in order; an entry {@code a|b} takes either
   * @return the hosts it ran on, in order, joined by commas
   */
  private String daemonsStep(String name, String allocId, List<String> expected) {
    List<String> cmd = new ArrayList<>(List.of(bin("prun"), "--dvm-uri", "file:" + uriFile));
    if (!allocId.isEmpty()) {
      cmd.addAll(List.of("--alloc-id", allocId));
    }
    cmd.addAll(List.of("--map-by", "ppr:1:node", "hostname"));
    PrrteProcesses.Ran r = procs.run(cmd);
    procs.rememberDaemons(prte);
    String hosts =
        order(
            r.out()
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.contains(" "))
                .toList());
    String outcome = r.exit() != 0 ? "prun exit " + r.exit() : "on " + hosts;
    List<String> got = List.of(hosts.split(","));
    List<String> want = new ArrayList<>(expected);
    for (int i = 0; i < want.size(); i++) {
      if (want.get(i).contains("|")
          && i < got.size()
          && List.of(want.get(i).split("\\|")).contains(got.get(i))) {
        want.set(i, got.get(i));
      }
    }
    updateFree();
    step(
        name,
        "prun",
        "prun "
            + (allocId.isEmpty() ? "" : "--alloc-id " + allocId + " ")
            + "--map-by ppr:1:node hostname",
        outcome,
        "on " + String.join(",", want),
        r.exit() == 0 ? "" : PrrteProcesses.last(r.out()));
    return hosts;
  }

  /** This host first, then the nodes in order. */
  private String order(List<String> hosts) {
    List<String> l = new ArrayList<>(hosts);
    l.sort(
        (a, b) -> a.equals(head) ? (b.equals(head) ? 0 : -1) : b.equals(head) ? 1 : a.compareTo(b));
    return String.join(",", l);
  }

  private void connectTool() {
    PmixToolProvider provider =
        provider(PrrteStory.class.getClassLoader())
            .orElseThrow(
                () -> new Waits.Stopped("the pmix-native module is not on the class path"));
    System.setProperty(PMIX_PREFIX_PROPERTY, config.pmixPrefix().toString());
    try {
      port = provider.connect("file:" + uriFile, Duration.ofSeconds(30), toolLoop);
    } catch (Exception e) {
      throw new Waits.Stopped("the tool: " + e.getMessage());
    }
    Waits.await(
        "PMIx_Register_event_handler",
        port.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            e ->
                e.infos().stream()
                    .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID))
                    .map(Info::stringValue)
                    .filter(r -> r.startsWith("fluxdrm-demo-"))
                    .findFirst()
                    .ifPresent(
                        r ->
                            phase2
                                .computeIfAbsent(
                                    r.substring("fluxdrm-demo-".length()),
                                    k -> new CompletableFuture<>())
                                .complete(e))),
        WAIT);
  }

  private FluxHandle connectHub() {
    try {
      // the scheduler's process may still be starting
      return io.fluxdrm.rpc.endpoint.Connectors.openWhenUp(
          reactor, "local://" + dir.resolve("hub").resolve("local"), Waits.STEP_TIMEOUT);
    } catch (RpcException e) {
      throw new Waits.Stopped("connect to the scheduler's hub: " + e.getMessage());
    }
  }

  /**
   * {@code sched.resource-status}: what the scheduler has free now. The scheduler's service is
   * registered a moment after its hub listens: {@code ENOSYS} is asked again for a while.
   */
  private ResourceSet updateFree() {
    FluxHandle h = hub;
    if (h == null) {
      return pool;
    }
    long deadline = System.nanoTime() + Waits.STEP_TIMEOUT.toNanos();
    JsonNode o;
    while (true) {
      CompletableFuture<io.fluxdrm.rpc.Message> f =
          Waits.onLoop(reactor, () -> h.rpc("sched.resource-status", Json.object()));
      try {
        o = f.get(Waits.STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).json();
        break;
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof RpcException r
            && r.errnum() == Errno.ENOSYS
            && System.nanoTime() < deadline) {
          PrrteProcesses.pause(50);
          continue;
        }
        throw new Waits.Stopped("sched.resource-status: " + e.getCause().getMessage());
      } catch (java.util.concurrent.TimeoutException e) {
        throw new Waits.Stopped(
            "sched.resource-status: no answer within " + Waits.STEP_TIMEOUT.toSeconds() + " s");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Waits.Stopped("interrupted");
      }
    }
    ResourceSet free =
        ResourceSet.fromJson(o.get("all"))
            .diff(ResourceSet.fromJson(o.get("allocated")))
            .diff(ResourceSet.fromJson(o.get("down")));
    freeNodes = free.nnodes();
    return free;
  }

  private void step(
      String name, String actor, String action, String outcome, String expected, String detail) {
    Step s =
        new Step(
            (System.nanoTime() - t0) / 1_000_000,
            name,
            actor,
            actor.equals("sched") || actor.equals("pool") ? 0 : dvmJob,
            action,
            outcome,
            expected,
            detail,
            freeNodes,
            pool.nnodes());
    steps.add(s);
    sink.accept(s);
    if (!s.ok()) {
      // each step stands on the ones before it: after a difference the rest would only wait
      throw new Waits.Stopped(name + " differs, the steps after it depend on it");
    }
  }

  private String bin(String cmd) {
    return procs.bin(cmd);
  }

  private List<String> prteCommand() {
    List<String> cmd = new ArrayList<>(List.of(bin("prte")));
    config
        .sshAgent()
        .ifPresent(
            a -> cmd.addAll(List.of("--prtemca", "plm_ssh_agent", a.toAbsolutePath().toString())));
    cmd.addAll(
        List.of(
            "--prtemca",
            "ras_pmix_system_scheduler",
            "1",
            "--prtemca",
            "prte_elastic_mode",
            "1",
            "--hostfile",
            dir.resolve("hosts").toString(),
            "--report-uri",
            uriFile.toString()));
    return cmd;
  }

  @Override
  public void close() {
    reap();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  /**
   * Stops whatever still runs: the tool, the scheduler's hub connection, then every process ({@link
   * PrrteProcesses#reap}).
   */
  private synchronized void reap() {
    if (port != null) {
      DvmPort p = port;
      port = null;
      try {
        p.disconnect().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the process ends anyway
      }
    }
    FluxHandle h = hub;
    hub = null;
    if (h != null && reactor != null) {
      reactor.runAndWait(h::close, Duration.ofSeconds(5));
    }
    procs.reap(prte, uriFile);
    if (reactor != null) {
      reactor.close();
      reactor = null;
    }
    toolLoop.shutdownNow();
  }
}
