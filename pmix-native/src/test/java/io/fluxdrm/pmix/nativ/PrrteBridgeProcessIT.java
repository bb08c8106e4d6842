package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * docs/prrte.md "As processes", as processes: {@code bin/fluxdrm sched} holding the head node and
 * node1..node3, {@code bin/fluxdrm bridge --pmix-scheduler --dvm-uri file:...} (the cli jar and the
 * pmix-native jar on the class path, as {@code bin/fluxdrm} puts them), then {@code prte} with
 * fakessh, a tool ({@link ToolMain}) growing the DVM by one node, {@code prun --map-by ppr:1:node
 * hostname} on it, a RELEASE whose {@code sched.free final: false} the scheduler logs only after
 * the bridge logged the daemon gone, and a clean stop (pterm 0, then SIGTERM: 143 for bridge and
 * sched, docs/cli.md). Also the failure modes of peers/prrte/README: a second {@code
 * --pmix-scheduler} on the host, a DVM whose URI file never appears, and PRRTE with {@code
 * ras_pmix_system_scheduler} but no scheduler up. Every wait is on a line of output or a process's
 * end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrrteBridgeProcessIT {
  private static final Duration WAIT = Duration.ofSeconds(120);

  /** The time stamp slf4j-simple puts first with the options of {@link #fluxdrm}. */
  private static final Pattern STAMP = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) ");

  @TempDir static Path dir;

  private static String skipped;
  private static Path root;
  private static Path nativeJar;
  private static Path prrte;
  private static Path fakessh;
  private static String head;
  private static Path uriFile;
  private static Watched sched;
  private static Watched bridge;
  private static Watched prte;

  /**
   * A process whose merged output is read line by line; waits are on its lines or its end. Signals
   * go through its {@link ProcessHandle}: {@link Process#destroy()} also closes the pipes, and the
   * lines it logs on its way out would be lost.
   */
  static final class Watched {
    final String name;
    final Process process;
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<Map.Entry<Pattern, CompletableFuture<String>>> waits = new ArrayList<>();
    private final CompletableFuture<Integer> ended = new CompletableFuture<>();

    Watched(String name, ProcessBuilder pb) throws Exception {
      this.name = name;
      this.process = pb.redirectErrorStream(true).start();
      Thread t =
          new Thread(
              () -> {
                try (BufferedReader r =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = r.readLine()) != null) {
                    System.err.println(name + ": " + line);
                    seen(line);
                  }
                } catch (Exception e) {
                  System.err.println(name + ": " + e);
                }
                int code;
                try {
                  code = process.waitFor();
                } catch (InterruptedException e) {
                  code = -1;
                }
                synchronized (this) {
                  for (var w : waits) {
                    w.getValue()
                        .completeExceptionally(
                            new AssertionError(
                                name
                                    + " ended ("
                                    + code
                                    + ") before a line matching "
                                    + w.getKey()));
                  }
                  waits.clear();
                }
                ended.complete(code);
              },
              name + "-output");
      t.setDaemon(true);
      t.start();
    }

    private synchronized void seen(String line) {
      lines.add(line);
      waits.removeIf(
          w -> {
            if (w.getKey().matcher(line).find()) {
              w.getValue().complete(line);
              return true;
            }
            return false;
          });
    }

    /** The first line matching {@code regex}, waiting for it. */
    String await(String regex) throws Exception {
      Pattern p = Pattern.compile(regex);
      CompletableFuture<String> f = new CompletableFuture<>();
      synchronized (this) {
        for (String l : lines) {
          if (p.matcher(l).find()) {
            return l;
          }
        }
        if (ended.isDone()) {
          throw new AssertionError(name + " ended before a line matching " + regex);
        }
        waits.add(Map.entry(p, f));
      }
      return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The exit status, waiting for the end of the output too. */
    int exit() throws Exception {
      return ended.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    String text() {
      return String.join("\n", lines);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    try {
      needPeer();
    } catch (org.opentest4j.TestAbortedException e) {
      skipped = e.getMessage().replaceFirst("^Assumption failed: ", "");
      return;
    }
    head = Peer.run(List.of("hostname"), dir).strip();
    uriFile = dir.resolve("dvm.uri");
    Files.writeString(
        dir.resolve("hosts"), head + " slots=2\nnode1 slots=2\nnode2 slots=2\nnode3 slots=2\n");
    sched =
        new Watched(
            "sched",
            fluxdrm(
                "sched",
                "--listen",
                "unix:" + dir.resolve("hub"),
                "--hosts",
                head + ",node[1-3]",
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
    prte = new Watched("prte", prteCommand(uriFile));
    prte.await("DVM ready");
  }

  @BeforeEach
  void peerHere() {
    org.junit.jupiter.api.Assumptions.assumeTrue(skipped == null, skipped);
  }

  static void needPeer() throws Exception {
    prrte = Peer.prrtePrefix();
    fakessh = Peer.needPrrte(dir);
    root = Path.of(System.getProperty("fluxdrm.root", "..")).toAbsolutePath().normalize();
    Peer.need(
        Files.isRegularFile(root.resolve("cli/target/fluxdrm.jar")),
        root.resolve("cli/target/fluxdrm.jar") + " is missing (mvn -Ppmix-native package)");
    try (var s = Files.list(root.resolve("pmix-native/target"))) {
      nativeJar =
          s.filter(
                  p -> {
                    String n = p.getFileName().toString();
                    return n.startsWith("fluxdrm-pmix-native-")
                        && n.endsWith(".jar")
                        && !n.endsWith("-tests.jar");
                  })
              .findFirst()
              .orElse(null);
    }
    Peer.need(
        nativeJar != null,
        root.resolve("pmix-native/target") + " has no pmix-native jar (mvn -Ppmix-native package)");
  }

  /** {@code bin/fluxdrm ARGS} on this JDK, its log lines time-stamped to the millisecond. */
  static ProcessBuilder fluxdrm(String... args) {
    return Peer.fluxdrm(
        root,
        dir,
        "-Dorg.slf4j.simpleLogger.showDateTime=true"
            + " -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
        args);
  }

  static ProcessBuilder prteCommand(Path uri) {
    return Peer.prte(dir, fakessh, dir.resolve("hosts"), uri, true);
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

  /** The tool, a process of its own: its PHASE lines. */
  static List<String> tool(Path uri, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-D" + Libpmix.PREFIX_PROPERTY + "=" + Peer.pmixPrefix(),
                "-cp",
                System.getProperty(
                    "surefire.test.class.path", System.getProperty("java.class.path")),
                ToolMain.class.getName(),
                "file:" + uri));
    cmd.addAll(List.of(args));
    String out = run(cmd);
    System.err.println("tool " + List.of(args) + ":\n" + out);
    return out.lines().filter(l -> l.startsWith("PHASE")).collect(Collectors.toList());
  }

  /** The nodes with a daemon, as {@code prun --map-by ppr:1:node hostname} prints them. */
  static List<String> daemons(Path uri) throws Exception {
    String out =
        run(
            List.of(
                prrte.resolve("bin/prun").toString(),
                "--dvm-uri",
                "file:" + uri,
                "--map-by",
                "ppr:1:node",
                "hostname"));
    return out.lines().map(String::strip).filter(l -> !l.isEmpty()).sorted().toList();
  }

  static LocalTime stamp(String line) {
    Matcher m = STAMP.matcher(line);
    assertThat(m.find()).as("a time stamp on: %s", line).isTrue();
    return LocalTime.parse(m.group(1));
  }

  @AfterAll
  static void stop() throws Exception {
    for (Watched w : new Watched[] {prte, bridge, sched}) {
      if (w != null && w.process.isAlive()) {
        w.process.toHandle().destroy();
        if (!w.process.waitFor(30, TimeUnit.SECONDS)) {
          w.process.destroyForcibly();
        }
      }
    }
  }

  /**
   * A second {@code fluxdrm bridge --pmix-scheduler} on this host (its own hub and Flux side): the
   * rendezvous file is the first one's, so it exits 1 with one line naming the file; a DVM whose
   * URI file never appears is a message naming the file and the wait (here the shrink agent's, the
   * scheduler's own tool).
   */
  @Test
  @Order(1)
  void secondScheduler_exits1NamingTheRendezvousFile_missingDvm_timeoutNamingTheUri()
      throws Exception {
    Path never = dir.resolve("never.uri");
    ProcessBuilder agentPb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-D" + Libpmix.PREFIX_PROPERTY + "=" + Peer.pmixPrefix(),
                "-cp",
                root.resolve("cli/target/fluxdrm.jar") + ":" + nativeJar,
                ShrinkAgentMain.class.getName(),
                "file:" + never)
            .directory(dir.toFile());
    Peer.prrteEnv(agentPb);
    Watched agent = new Watched("agent", agentPb);

    Watched sched2 =
        new Watched(
            "sched2",
            fluxdrm(
                "sched",
                "--listen",
                "unix:" + dir.resolve("hub2"),
                "--hosts",
                head,
                "--cores",
                "0-1"));
    sched2.await("listening on ");
    Watched bridge2 =
        new Watched(
            "bridge2",
            fluxdrm(
                "bridge",
                "--connect",
                "unix:" + dir.resolve("hub2"),
                "--state-dir",
                dir.resolve("jobs2").toString(),
                "--pmix-scheduler",
                "--dvm-uri",
                "file:" + dir.resolve("dvm2.uri")));
    assertThat(bridge2.exit()).isEqualTo(1);
    assertThat(bridge2.text())
        .contains("fluxdrm bridge: --pmix-scheduler: PMIx_server_init as scheduler: ")
        .contains("another PMIx scheduler runs on this host, its rendezvous file ")
        .contains("pmix.sched.");
    sched2.process.toHandle().destroy();
    assertThat(sched2.exit()).isEqualTo(143);

    assertThat(agent.exit()).isEqualTo(1);
    assertThat(agent.text())
        .contains("shrink agent: PMIx_tool_init file:" + never + ": ")
        .contains("no DVM: its URI file " + never + " did not appear within 30 s");
  }

  /** The grow, the run on it, the release freed only after the daemon left. */
  @Test
  @Order(2)
  void growByOneNode_prunRunsThere_releaseFreedOnlyAfterTheDaemonLeft() throws Exception {
    assertThat(daemons(uriFile)).containsExactly(head);
    List<String> grow = tool(uriFile, "NEW", "count=1", "req=proc-grow");
    assertThat(grow).hasSize(2);
    assertThat(grow.get(0)).startsWith("PHASE1 PMIX_SUCCESS").contains("pmix.alloc.id");
    assertThat(grow.get(1)).startsWith("PHASE2 -195");
    sched.await("realloc \\S+ alloc_id=\\d+: SUCCESS add rank\\d");
    List<String> now = daemons(uriFile);
    assertThat(now).hasSize(2).contains(head);
    String node = now.stream().filter(n -> !n.equals(head)).findFirst().orElseThrow();
    assertThat(node).isIn("node1", "node2", "node3");

    List<String> release = tool(uriFile, "RELEASE", "nodes=" + node, "req=proc-release");
    assertThat(release.get(0)).startsWith("PHASE1 PMIX_SUCCESS");
    assertThat(release).hasSize(2);
    assertThat(release.get(1)).startsWith("PHASE2 -195").contains("proc-release");
    assertThat(daemons(uriFile)).containsExactly(head);
    String left = bridge.await("the daemons of " + node + " left; sched\\.free final: false");
    String free = sched.await("free \\S+: rank\\d/core\\[0-1\\]$");
    assertThat(free).doesNotContain("(final)");
    assertThat(stamp(free)).as("free after: %s", left).isAfterOrEqualTo(stamp(left));
  }

  /** pterm, then SIGTERM to the bridge and the scheduler: 0, 143, 143 (docs/cli.md). */
  @Test
  @Order(3)
  void cleanStop_ptermThenSigterm() throws Exception {
    String out =
        run(List.of(prrte.resolve("bin/pterm").toString(), "--dvm-uri", "file:" + uriFile));
    assertThat(out).contains("TERMINATING DVM");
    assertThat(prte.exit()).isZero();
    bridge.process.toHandle().destroy();
    assertThat(bridge.exit()).isEqualTo(143);
    assertThat(bridge.text()).contains("stopping");
    sched.process.toHandle().destroy();
    assertThat(sched.exit()).isEqualTo(143);
  }

  /**
   * PRRTE started with {@code ras_pmix_system_scheduler 1} and no scheduler up (this host's
   * rendezvous file gone with the bridge): a tool's grow is {@code PMIX_ERR_NOT_SUPPORTED} and the
   * DVM stays as it is.
   */
  @Test
  @Order(4)
  void noSchedulerUp_toolGetsNotSupported_dvmUnchanged() throws Exception {
    assertThat(PmixScheduler.rendezvousInUse()).as("the bridge's rendezvous file").isEmpty();
    Path lonely = dir.resolve("lonely.uri");
    Watched alone = new Watched("prte-alone", prteCommand(lonely));
    try {
      alone.await("DVM ready");
      assertThat(tool(lonely, "NEW", "nodes=node2:2", "req=lonely"))
          .hasSize(1)
          .first()
          .asString()
          .startsWith("PHASE1 PMIX_ERR_NOT_SUPPORTED");
      assertThat(daemons(lonely)).containsExactly(head);
    } finally {
      run(List.of(prrte.resolve("bin/pterm").toString(), "--dvm-uri", "file:" + lonely));
      assertThat(alone.exit()).isZero();
    }
  }
}
