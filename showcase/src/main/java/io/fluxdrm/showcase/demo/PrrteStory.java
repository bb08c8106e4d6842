package io.fluxdrm.showcase.demo;

import io.fluxdrm.bridge.dvm.PmixToolProvider;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

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
 * <p>Its parts (decision D541), package-private: {@link PrrteSteps} tells the story in order,
 * {@link PrrteRequests} makes the allocation requests and checks them, and {@link PrrteRun} holds
 * what they share and records each step.
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

  static Optional<PmixToolProvider> provider(ClassLoader loader) {
    return ServiceLoader.load(PmixToolProvider.class, loader).findFirst();
  }

  private final PrrteRun state;
  private final PrrteSteps story;
  private final Thread reaper = new Thread(this::reap, "fluxdrm-demo-prrte-reaper");

  private PrrteStory(Config config, Consumer<Step> sink) throws IOException {
    this.state = new PrrteRun(config, sink);
    this.story = new PrrteSteps(state);
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
      s.story.story();
    } catch (Waits.Stopped e) {
      stopped = "story stopped: " + e.getMessage();
    } catch (IOException | RuntimeException e) {
      stopped = "story stopped: " + e;
    }
    for (Step st : s.state.steps) {
      if (!st.ok()) {
        differences.add(
            (st.name() + ": " + st.outcome() + " (expected: " + st.expected() + ") " + st.detail())
                .strip());
      }
    }
    if (stopped != null) {
      differences.add(stopped);
    } else if (s.state.steps.size() < STEPS.size()) {
      differences.add("story stopped after " + s.state.steps.size() + " steps");
    }
    if (!differences.isEmpty()) {
      differences.add("the processes' logs are in " + s.state.dir);
    } else if (s.state.temporary) {
      Demo.delete(s.state.dir);
    }
    return new Demo.Result(s.state.steps, differences);
  }

  /** The directory of the processes' state and logs. */
  public Path dir() {
    return state.dir;
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
    if (state.port != null) {
      DvmPort p = state.port;
      state.port = null;
      try {
        p.disconnect().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the process ends anyway
      }
    }
    FluxHandle h = state.hub;
    state.hub = null;
    if (h != null && state.reactor != null) {
      state.reactor.runAndWait(h::close, Duration.ofSeconds(5));
    }
    state.procs.reap(state.prte, state.uriFile);
    if (state.reactor != null) {
      state.reactor.close();
      state.reactor = null;
    }
    state.toolLoop.shutdownNow();
  }
}
