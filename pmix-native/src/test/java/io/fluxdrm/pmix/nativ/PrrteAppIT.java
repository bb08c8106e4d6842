package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.pmix.nativ.PrrteBridgeProcessIT.Watched;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications, not tools, growing through PRRTE with fluxdrm as its scheduler (issue 27,
 * docs/prrte.md "Applications"): {@code fluxdrm sched} holding the head node and node[1-7] (2 cores
 * each), {@code fluxdrm bridge --pmix-scheduler} (grant timeout 20 s), {@code prte} elastic with
 * fakessh, and the C application {@code app-requester.c} launched inside the DVM with {@code prun}:
 * its rank 0 extends its own session, asks for a new allocation and spawns into it, releases part
 * of what it has, recursively to three levels; another job extends an allocation it does not own
 * (B8). Every grant PRRTE does not apply goes back to Flux: the test asks the scheduler ({@code
 * sched.resource-status}) that the node is free again. Each application prints what it was
 * answered; each test reads those lines and what the DVM then holds ({@code prun --map-by
 * ppr:1:node hostname}). Every wait is on a line of output or a process's end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrrteAppIT {
  private static final Duration WAIT = Duration.ofSeconds(180);

  /** The bridge's grant timeout (fluxdrm.prrte.grant-timeout). */
  private static final int GRANT_TIMEOUT = 20;

  @TempDir static Path dir;

  private static String skipped;
  private static Path root;
  private static Path prrte;
  private static Path fakessh;
  private static Path app;
  private static Path out;
  private static String head;
  private static Path uriFile;
  private static Watched sched;
  private static Watched bridge;
  private static Watched prte;
  private static Reactor reactor;
  private static FluxHandle flux;

  /** The application rows of docs/dvm.md, as this run saw them. */
  static final List<String> ROWS = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Path realSsh;
    try {
      prrte = Peer.prrtePrefix();
      realSsh = Peer.needPrrte(dir);
      root = Path.of(System.getProperty("fluxdrm.root", "..")).toAbsolutePath().normalize();
      Peer.need(
          Files.isRegularFile(root.resolve("cli/target/fluxdrm.jar")),
          root.resolve("cli/target/fluxdrm.jar") + " is missing (mvn -Ppmix-native package)");
    } catch (org.opentest4j.TestAbortedException e) {
      skipped = e.getMessage().replaceFirst("^Assumption failed: ", "");
      return;
    }
    // node7's daemon never starts: the launcher fails for it (the other nodes go through fakessh)
    fakessh = dir.resolve("ssh-but-node7");
    Files.writeString(
        fakessh,
        "#!/bin/sh\n"
            + "case \"$1\" in node7) echo 'node7: no route' >&2; exit 255;; esac\n"
            + "exec '"
            + realSsh
            + "' \"$@\"\n");
    fakessh.toFile().setExecutable(true);
    app = Peer.compile("app-requester.c", dir, true);
    out = Files.createDirectories(dir.resolve("out"));
    head = Peer.run(List.of("hostname"), dir).strip();
    uriFile = dir.resolve("dvm.uri");
    StringBuilder hosts = new StringBuilder(head + " slots=2\n");
    for (int i = 1; i <= 7; i++) {
      hosts.append("node").append(i).append(" slots=2\n");
    }
    Files.writeString(dir.resolve("hosts"), hosts.toString());
    sched =
        new Watched(
            "sched",
            fluxdrm(
                "sched",
                "--listen",
                "unix:" + dir.resolve("hub"),
                "--hosts",
                head + ",node[1-7]",
                "--cores",
                "0-1"));
    sched.await("listening on ");
    bridge =
        new Watched(
            "bridge",
            fluxdrm(
                "bridge",
                "--connect",
                "unix:" + dir.resolve("hub"),
                "--state-dir",
                dir.resolve("jobs").toString(),
                "--pmix-scheduler",
                "--dvm-uri",
                "file:" + uriFile));
    bridge.await("PMIx scheduler up: start prte");
    prte = new Watched("prte", Peer.prte(dir, fakessh, dir.resolve("hosts"), uriFile, true));
    prte.await("DVM ready");
    reactor = Reactor.start("app-it");
    flux = FluxHandle.connect(reactor, "local://" + dir.resolve("hub").resolve("local"), WAIT);
  }

  @BeforeEach
  void peerHere() {
    org.junit.jupiter.api.Assumptions.assumeTrue(skipped == null, skipped);
  }

  @AfterAll
  static void stop() throws Exception {
    if (prte != null && prte.process.isAlive()) {
      ProcessBuilder pb =
          new ProcessBuilder(prrte.resolve("bin/pterm").toString(), "--dvm-uri", "file:" + uriFile)
              .directory(dir.toFile());
      Peer.prrteEnv(pb);
      Peer.runFor(pb, Duration.ofSeconds(60));
    }
    if (flux != null) {
      flux.close();
    }
    if (reactor != null) {
      reactor.close();
    }
    for (Watched w : new Watched[] {prte, bridge, sched}) {
      if (w != null && w.process.isAlive()) {
        w.process.toHandle().destroy();
        if (!w.process.waitFor(30, TimeUnit.SECONDS)) {
          w.process.destroyForcibly();
        }
      }
    }
    if (prte != null) {
      prte.process.descendants().forEach(Peer::killTree);
    }
  }

  /** {@code bin/fluxdrm ARGS}, the bridge's grant timeout short for the tests. */
  static ProcessBuilder fluxdrm(String... args) {
    return Peer.fluxdrm(
        root, dir, "-D" + PrrteScheduler.GRANT_TIMEOUT_PROPERTY + "=" + GRANT_TIMEOUT, args);
  }

  /** {@code prun -n NP app 0 STEPS...} inside the DVM, started; its output watched. */
  static Watched launch(String name, int np, String... steps) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                prrte.resolve("bin/prun").toString(),
                "--dvm-uri",
                "file:" + uriFile,
                "-x",
                "APP_OUT",
                "-x",
                "APP_STEP_TIMEOUT",
                "-n",
                Integer.toString(np),
                app.toString(),
                "0"));
    cmd.addAll(List.of(steps));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Peer.prrteEnv(pb);
    pb.environment().put("APP_OUT", out.toString());
    pb.environment().put("APP_STEP_TIMEOUT", "60");
    return new Watched(name, pb);
  }

  /** Runs the application to its end: its {@code APP} lines, in order. */
  static List<String> runApp(String... steps) throws Exception {
    Watched w = launch("app", 1, steps);
    assertThat(w.exit()).as("prun's exit:\n%s", w.text()).isZero();
    return appLines(w);
  }

  static List<String> appLines(Watched w) {
    return w.lines.stream().filter(l -> l.startsWith("APP ")).toList();
  }

  /** The first APP line of depth {@code depth} and step {@code step}. */
  static String line(List<String> lines, int depth, String step) {
    String p = "APP " + depth + " " + step + " ";
    return lines.stream()
        .filter(l -> l.startsWith(p))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no \"" + p + "\" line in " + lines));
  }

  static String value(String line, String key) {
    Matcher m = Pattern.compile(Pattern.quote(key) + "=(\\S+)").matcher(line);
    assertThat(m.find()).as("%s in: %s", key, line).isTrue();
    return m.group(1);
  }

  /** The bare hosts of a {@code PMIX_ALLOC_NODE_LIST} value. */
  static List<String> hosts(String nlist) {
    return java.util.Arrays.stream(nlist.split(",")).map(e -> e.replaceFirst(":.*", "")).toList();
  }

  /** A short command's output (merged), after its end. */
  static String run(List<String> cmd) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Peer.prrteEnv(pb);
    Peer.Ran r = Peer.runFor(pb, WAIT);
    if (r.timedOut()) {
      throw new IllegalStateException(cmd + ": did not end in " + WAIT.toSeconds() + " s");
    }
    return r.out();
  }

  /** The nodes with a daemon ({@code head} for the head node). */
  static Set<String> daemons() throws Exception {
    String o =
        run(
            List.of(
                prrte.resolve("bin/prun").toString(),
                "--dvm-uri",
                "file:" + uriFile,
                "--map-by",
                "ppr:1:node",
                "hostname"));
    return o.lines()
        .map(String::strip)
        .filter(l -> !l.isEmpty())
        .map(l -> l.equals(head) ? "head" : l)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The hosts the Flux scheduler has free now. */
  static Set<String> freeInFlux() throws Exception {
    JsonNode o =
        flux.rpc("sched.resource-status", Json.object())
            .get(WAIT.toSeconds(), TimeUnit.SECONDS)
            .json();
    ResourceSet free =
        ResourceSet.fromJson(o.get("all"))
            .diff(ResourceSet.fromJson(o.get("allocated")))
            .diff(ResourceSet.fromJson(o.get("down")));
    Set<String> hosts = new TreeSet<>();
    free.ranks().stream().forEach(r -> hosts.add(free.host(r)));
    return hosts;
  }

  /** Where the processes of a job ran: the hosts in the files its ranks wrote. */
  static Set<String> ranOn(String nspace) throws Exception {
    Set<String> on = new TreeSet<>();
    try (var s = Files.list(out)) {
      for (Path p : s.filter(f -> f.getFileName().toString().startsWith(nspace + ".")).toList()) {
        on.add(Files.readString(p).strip().split(" ")[2]);
      }
    }
    return on;
  }

  static void row(String id, String scenario, String prrteSaw) {
    ROWS.add("| " + id + " | " + scenario + " | " + prrteSaw + " |");
  }

  /** Gives a node back to Flux through the DVM: an application's RELEASE of it. */
  static void releaseFromDvm(String host) throws Exception {
    List<String> l = runApp("release", "nlist=" + host);
    assertThat(line(l, 0, "RELEASE")).startsWith("APP 0 RELEASE PMIX_SUCCESS");
    assertThat(line(l, 0, "READY")).isEqualTo("APP 0 READY PMIX_DVM_IS_READY");
  }

  // ---- the scenarios -------------------------------------------------------------------------

  /** EXTEND of one's own session by cpus, by nodes, by node list: a daemon there, prun there. */
  @Test
  @Order(1)
  void extendOwnSession_byCpusByNodesByNodeList_theDvmGrowsThere() throws Exception {
    String[] ids = {"A1", "A2", "A3"};
    String[] hows = {"cpus=2", "nodes=1", "nlist=node3:2"};
    for (int i = 0; i < hows.length; i++) {
      String how = hows[i];
      List<String> l = runApp("extend", how, "where");
      String ext = line(l, 0, "EXTEND");
      assertThat(ext).startsWith("APP 0 EXTEND PMIX_SUCCESS");
      String node = hosts(value(ext, "pmix.alloc.nlist")).get(0);
      if (how.startsWith("nlist")) {
        assertThat(node).isEqualTo("node3");
      }
      // PRRTE sends no second phase for a grow of its general pool: fluxdrm's relay
      assertThat(line(l, 0, "READY")).isEqualTo("APP 0 READY PMIX_DVM_IS_READY");
      assertThat(daemons()).contains("head", node);
      String ran =
          run(
              List.of(
                  prrte.resolve("bin/prun").toString(),
                  "--dvm-uri",
                  "file:" + uriFile,
                  "-H",
                  node,
                  "-n",
                  "1",
                  "hostname"));
      assertThat(ran.strip()).isEqualTo(node);
      row(
          ids[i],
          "app: EXTEND of its own session, " + how,
          "`PMIX_SUCCESS` with the grant's node list and `PMIX_ALLOC_SHARE`, then the relayed"
              + " `PMIX_DVM_IS_READY`; a daemon on the node, `prun` runs there");
      releaseFromDvm(node);
      assertThat(daemons()).doesNotContain(node);
    }
  }

  /** NEW, then PMIx_Spawn with PMIX_ALLOC_ID of it: the child runs on the new nodes only. */
  @Test
  @Order(2)
  void newThenSpawnWithAllocId_theChildRunsOnTheNewNodesOnly() throws Exception {
    newThenSpawn("id", "A4");
  }

  /** The same with PMIX_SPAWN_TARGET. */
  @Test
  @Order(3)
  void newThenSpawnWithSpawnTarget_theChildRunsOnTheNewNodesOnly() throws Exception {
    newThenSpawn("target", "A5");
  }

  private void newThenSpawn(String key, String rowId) throws Exception {
    Watched w = launch("app", 1, "new", "cpus=2", "spawn", "np=2", key + "=last", "--", "where");
    assertThat(w.exit()).as("prun:\n%s", w.text()).isZero();
    List<String> l = appLines(w);
    String id = value(line(l, 0, "NEW"), "pmix.alloc.id");
    assertThat(line(l, 0, "NEW")).startsWith("APP 0 NEW PMIX_SUCCESS");
    assertThat(line(l, 0, "READY")).isEqualTo("APP 0 READY PMIX_DVM_IS_READY");
    String spawn = line(l, 0, "SPAWN");
    assertThat(spawn).startsWith("APP 0 SPAWN PMIX_SUCCESS");
    assertThat(line(l, 0, "CHILD-END")).isEqualTo("APP 0 CHILD-END seen");
    Set<String> on = ranOn(value(spawn, "nspace"));
    String granted = bridge.await("PMIX_ALLOC_NEW from \\S+: granted " + id + " on ");
    String node = granted.replaceFirst(".* on ([^:]+):.*", "$1");
    assertThat(on).containsExactly(node);
    row(
        rowId,
        "app: NEW, then spawn with " + (key.equals("id") ? "PMIX_ALLOC_ID" : "PMIX_SPAWN_TARGET"),
        "`PMIX_SUCCESS` with `PMIX_ALLOC_ID` only (PRRTE keeps the node list), `PMIX_DVM_IS_READY`;"
            + " the child's two ranks run on the new node only");
    releaseFromDvm(node);
  }

  /** A spawned job that itself extends and spawns, to three levels. */
  @Test
  @Order(4)
  void recursion_threeLevelsExtendNewAndSpawn_eachOnItsOwnAllocation() throws Exception {
    List<String> l =
        runApp(
            "new", "cpus=2", "spawn", "np=1", "id=last", "--", "extend", "cpus=2", "id=^", "new",
            "cpus=2", "spawn", "np=1", "id=last", "--", "extend", "cpus=2", "id=^^", "where");
    for (int d = 0; d < 3; d++) {
      assertThat(line(l, d, "DONE")).as("level %d ended", d).startsWith("APP " + d + " DONE");
    }
    assertThat(line(l, 1, "EXTEND")).startsWith("APP 1 EXTEND PMIX_SUCCESS");
    assertThat(line(l, 2, "EXTEND")).startsWith("APP 2 EXTEND PMIX_SUCCESS");
    // levels 1 and 2 run on other nodes: PRRTE's second phase does not reach them, fluxdrm's does
    for (String s : List.of("READY")) {
      assertThat(l.stream().filter(x -> x.matches("APP [0-2] " + s + " .*")))
          .hasSize(4)
          .allMatch(x -> x.endsWith("PMIX_DVM_IS_READY"));
    }
    assertThat(line(l, 0, "CHILD-END")).endsWith("seen");
    assertThat(line(l, 1, "CHILD-END")).endsWith("seen");
    String a = value(line(l, 0, "NEW"), "pmix.alloc.id");
    String b = value(line(l, 1, "NEW"), "pmix.alloc.id");
    Set<String> aNodes = grantedNodes(a);
    Set<String> bNodes = grantedNodes(b);
    assertThat(aNodes).hasSize(2);
    assertThat(bNodes).hasSize(2);
    assertThat(ranOn(value(line(l, 0, "SPAWN"), "nspace"))).isSubsetOf(aNodes);
    assertThat(ranOn(value(line(l, 1, "SPAWN"), "nspace"))).isSubsetOf(bNodes);
    assertThat(line(l, 2, "WHERE").split(" ")[3]).isIn(bNodes);
    row(
        "A6",
        "app, 3 levels: NEW, spawn into it; the child EXTENDs its parent's allocation, NEW, spawn;"
            + " the grandchild EXTENDs its parent's",
        "each `PMIX_SUCCESS`; the second phase reaches the levels on other nodes only through"
            + " fluxdrm's relay; each child runs on its allocation's nodes");
    for (String n : aNodes) {
      releaseFromDvm(n);
    }
    for (String n : bNodes) {
      releaseFromDvm(n);
    }
  }

  /** The node a NEW granted as {@code id}, from the bridge's log. */
  static String newNode(String id) throws Exception {
    return bridge
        .await("PMIX_ALLOC_NEW from \\S+: granted " + id + " on ")
        .replaceFirst(".* on ([^:,]+):.*", "$1");
  }

  /** The nodes granted under one PMIX_ALLOC_ID (NEW and EXTENDs), from the bridge's log. */
  static Set<String> grantedNodes(String id) {
    Set<String> s = new TreeSet<>();
    Pattern p = Pattern.compile("PMIX_ALLOC_(NEW|EXTEND) from \\S+: granted " + id + " on (\\S+)");
    for (String l : bridge.lines) {
      Matcher m = p.matcher(l);
      if (m.find()) {
        s.addAll(hosts(m.group(2)));
      }
    }
    return s;
  }

  /** RELEASE of part of one's allocation: that node's daemon leaves, the other stays. */
  @Test
  @Order(5)
  void releaseOfPartOfOnesAllocation_thatNodeLeaves_theOtherStays() throws Exception {
    List<String> l = runApp("extend", "nodes=2", "release", "nlist=last1");
    List<String> two = hosts(value(line(l, 0, "EXTEND"), "pmix.alloc.nlist"));
    assertThat(two).hasSize(2);
    String rel = line(l, 0, "RELEASE");
    assertThat(rel).startsWith("APP 0 RELEASE PMIX_SUCCESS");
    assertThat(l.stream().filter(x -> x.startsWith("APP 0 READY ")))
        .containsExactly("APP 0 READY PMIX_DVM_IS_READY", "APP 0 READY PMIX_DVM_IS_READY");
    Set<String> d = daemons();
    assertThat(d).doesNotContain(two.get(0)).contains(two.get(1));
    assertThat(freeInFlux()).contains(two.get(0)).doesNotContain(two.get(1));
    row(
        "A7",
        "app: EXTEND by 2 nodes, then RELEASE of one",
        "`PMIX_SUCCESS`, then `PMIX_DVM_IS_READY` once its daemon left; the node is free in Flux,"
            + " the other stays");
    releaseFromDvm(two.get(1));
  }

  /** B5: an application's NEW naming an owner: NO_PERMISSIONS, and Flux's grant goes back. */
  @Test
  @Order(6)
  void b5_anApplicationNamingAnOwner_noPermissions_theGrantGoesBackToFlux() throws Exception {
    int mark = bridge.lines.size();
    List<String> l = runApp("new", "cpus=2", "owner=somebody");
    assertThat(line(l, 0, "NEW")).startsWith("APP 0 NEW PMIX_ERR_NO_PERMISSIONS");
    String id = grantAfter(mark);
    droppedAndFree(id);
    row(
        "B5",
        "app process: NEW with ALLOC_TARGET",
        "`PMIX_ERR_NO_PERMISSIONS` (after Flux granted it): fluxdrm finds the node not taken"
            + " and hands it back within the grant timeout");
  }

  /** The id of the first grant the bridge logged after its line {@code mark}. */
  static String grantAfter(int mark) throws Exception {
    Pattern p = Pattern.compile("PMIX_ALLOC_(NEW|EXTEND) from \\S+: granted (\\S+) on ");
    for (String l : bridge.lines.subList(mark, bridge.lines.size())) {
      Matcher m = p.matcher(l);
      if (m.find()) {
        return m.group(2);
      }
    }
    throw new AssertionError("no grant logged after line " + mark);
  }

  /** B8: J2 extends J1's allocation: NO_PERMISSIONS, and Flux's grant goes back. */
  @Test
  @Order(7)
  void b8_anotherJobsAllocation_noPermissions_theGrantGoesBackToFlux() throws Exception {
    Watched j1 = launch("j1", 1, "new", "cpus=2", "pause", "600");
    String id = value(j1.await("^APP 0 NEW "), "pmix.alloc.id");
    j1.await("^APP 0 READY ");
    try {
      List<String> l = runApp("extend", "cpus=2", "id=" + id);
      assertThat(line(l, 0, "EXTEND")).startsWith("APP 0 EXTEND PMIX_ERR_NO_PERMISSIONS");
      String node = droppedAndFree(id);
      row(
          "B8",
          "app process J2: EXTEND J1's allocation",
          "`PMIX_ERR_NO_PERMISSIONS` (after Flux granted it): fluxdrm finds the node not taken"
              + " and hands it back within the grant timeout");
      assertThat(daemons()).doesNotContain(node);
    } finally {
      j1.process.toHandle().destroy();
      j1.exit();
    }
    // J1's node stays in the DVM's general pool after J1: given back
    releaseFromDvm(newNode(id));
  }

  /**
   * The node of a grant PRRTE did not take, once the bridge handed it back: free in Flux.
   *
   * @return the node
   */
  static String droppedAndFree(String id) throws Exception {
    String warn =
        bridge.await(
            "grant " + id + " on (\\S+): (PRRTE did not take it|no daemon of PRRTE's runs there)");
    String node = warn.replaceFirst(".*grant " + id + " on ([^:]+):.*", "$1");
    bridge.await("grant " + id + ": " + node + ":2 back in Flux");
    assertThat(freeInFlux()).contains(node);
    return node;
  }

  /** EXTEND of a reservation PRRTE dropped with its owner: NOT_FOUND, the grant goes back. */
  @Test
  @Order(8)
  void extendOfADroppedReservation_notFound_theGrantGoesBackToFlux() throws Exception {
    List<String> j1 = runApp("new", "cpus=2");
    String id = value(line(j1, 0, "NEW"), "pmix.alloc.id");
    // J1 ended: PRRTE unreserved its allocation into the general pool (PMIX_ALLOC_INHERIT_DEFAULT)
    List<String> l = runApp("extend", "cpus=2", "id=" + id);
    assertThat(line(l, 0, "EXTEND")).startsWith("APP 0 EXTEND PMIX_ERR_NOT_FOUND");
    droppedAndFree(id);
    row(
        "A8",
        "app: EXTEND of an allocation whose owner ended",
        "`PMIX_ERR_NOT_FOUND` (after Flux granted it): handed back within the grant timeout");
    releaseFromDvm(newNode(id));
  }

  /** A spawn PRRTE cannot place, or into an allocation that does not exist: an error, no hang. */
  @Test
  @Order(9)
  void spawnThatCannotBePlaced_orIntoNoAllocation_endsWithAnError() throws Exception {
    Watched w = launch("app", 1, "new", "cpus=2", "spawn", "np=5", "id=last", "--", "where");
    // PRRTE prints why it cannot map and prun exits non-zero, the application having been answered
    int exit = w.exit();
    List<String> l = appLines(w);
    String id = value(line(l, 0, "NEW"), "pmix.alloc.id");
    String spawn = line(l, 0, "SPAWN");
    assertThat(spawn).isEqualTo("APP 0 SPAWN PMIX_ERR_JOB_FAILED_TO_MAP");
    assertThat(w.text()).contains("There are not enough slots available");
    List<String> none = runApp("spawn", "np=1", "id=nosuch", "--", "where");
    assertThat(line(none, 0, "SPAWN")).isEqualTo("APP 0 SPAWN PMIX_ERR_NOT_FOUND");
    row(
        "A9",
        "app: spawn of 5 processes into a 2-core allocation",
        "`" + spawn.split(" ")[3] + "` at once (PRRTE prints why; prun exits non-zero)");
    assertThat(exit).isNotZero();
    row("A10", "app: spawn with an unknown PMIX_ALLOC_ID", "`PMIX_ERR_NOT_FOUND` at once");
    releaseFromDvm(newNode(id));
  }

  /** A grant whose daemon never starts: PMIX_ERR_DVM_MOD relayed, the node back in Flux. */
  @Test
  @Order(10)
  void aDaemonThatNeverStarts_dvmModRelayed_theNodeBackInFlux() throws Exception {
    List<String> l = runApp("extend", "nlist=node7:2");
    String ext = line(l, 0, "EXTEND");
    assertThat(ext).startsWith("APP 0 EXTEND PMIX_SUCCESS");
    String id = value(ext, "pmix.alloc.id");
    assertThat(line(l, 0, "READY")).isEqualTo("APP 0 READY PMIX_ERR_DVM_MOD");
    assertThat(droppedAndFree(id)).isEqualTo("node7");
    row(
        "A11",
        "app: EXTEND onto a node whose daemon never starts",
        "`PMIX_SUCCESS`, then `PMIX_ERR_DVM_MOD`; the node back in Flux within the grant timeout");
  }

  /**
   * docs/dvm.md's table of applications through PRRTE is the one this run produced (rewrite it with
   * {@code -Dfluxdrm.sidebyside.write=true}); also in {@code target/prrte-apps.md}.
   */
  @Test
  @Order(11)
  void theApplicationTableInDocsDvmMd_isTheOneThisRunProduced() throws Exception {
    // the reference DVM's column, in process (ReferenceApps), beside PRRTE's
    Map<String, String> reference = ReferenceApps.run();
    String table =
        "| # | scenario | reference DVM, fluxdrm its scheduler (ReferenceApps) | PRRTE, fluxdrm its"
            + " scheduler (PrrteAppIT) |\n| --- | --- | --- | --- |\n"
            + ROWS.stream()
                .sorted(
                    java.util.Comparator.comparing((String r) -> r.startsWith("| B") ? 0 : 1)
                        .thenComparingInt(
                            r -> Integer.parseInt(r.replaceFirst("^\\| [A-Z]([0-9]+) .*", "$1"))))
                .map(
                    r -> {
                      String id = r.replaceFirst("^\\| (\\S+) .*", "$1");
                      int cut = r.indexOf(" | ", r.indexOf(" | ") + 3);
                      return r.substring(0, cut)
                          + " | "
                          + reference.getOrDefault(id, "not run")
                          + r.substring(cut);
                    })
                .collect(Collectors.joining("\n"))
            + "\n";
    Path target = Path.of("target", "prrte-apps.md");
    Files.createDirectories(target.getParent());
    Files.writeString(target, table);
    assertThat(ROWS).as("every scenario of this class ran").hasSize(13);
    Path doc = Path.of(System.getProperty("fluxdrm.docs.dir", "../docs")).resolve("dvm.md");
    String text = Files.readString(doc);
    String begin = "<!-- prrte-apps:begin -->\n";
    String end = "<!-- prrte-apps:end -->";
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    assertThat(b)
        .as("docs/dvm.md has the markers " + begin.strip() + " and " + end)
        .isNotNegative();
    assertThat(e).isGreaterThan(b);
    if (Boolean.getBoolean("fluxdrm.sidebyside.write")) {
      Files.writeString(doc, text.substring(0, b + begin.length()) + table + text.substring(e));
    } else {
      assertThat(text.substring(b + begin.length(), e))
          .as("docs/dvm.md's application table (rewrite it: -Dfluxdrm.sidebyside.write=true)")
          .isEqualTo(table);
    }
  }
}
