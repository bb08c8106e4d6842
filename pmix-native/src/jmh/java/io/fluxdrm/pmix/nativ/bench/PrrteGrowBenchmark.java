package io.fluxdrm.pmix.nativ.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.nativ.Libpmix;
import io.fluxdrm.pmix.nativ.PmixScheduler;
import io.fluxdrm.pmix.nativ.PrrteScheduler;
import io.fluxdrm.pmix.nativ.ShrinkAgent;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.shell.ShellPlugin;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Issue 16's figure: the allocation request round trip tool → PRRTE → fluxdrm → scheduler → PRRTE →
 * tool for a 1-node grow, against the real PRRTE peer with fakessh nodes (root). Each invocation is
 * one grow of {@code node1} by a tool process ({@link BenchToolMain}); {@code phase1} ends with the
 * request's answer, {@code phase2} with its {@code PMIX_DVM_IS_READY} (the daemon up). The shrink
 * back (through fluxdrm's shrink agent, D434) is the invocation's teardown, not measured. Both
 * include the pipe to the tool process (tens of µs). Run single-shot, e.g. {@code -bm ss -wi 10 -i
 * 200}, for percentiles over 200 requests.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PrrteGrowBenchmark {
  private Path dir;
  private Path prrte;
  private Path uriFile;
  private Reactor reactor;
  private PmixScheduler pmix;
  private ShrinkAgent agent;
  private Process prte;
  private Process tool;
  private Writer toolIn;
  private BufferedReader toolOut;
  private int n;
  private boolean pendingPhase2;

  @Setup(Level.Trial)
  public void start() throws Exception {
    prrte = Path.of(System.getProperty("fluxdrm.prrte.prefix", "/opt/prrte"));
    Path fakessh =
        Path.of(System.getProperty("fluxdrm.shared.tools", "../shared/tools")).resolve("fakessh");
    if (!Files.isExecutable(prrte.resolve("bin/prte")) || !Files.isExecutable(fakessh)) {
      throw new IllegalStateException(
          "needs PRRTE at -Dfluxdrm.prrte.prefix and fakessh at -Dfluxdrm.shared.tools, as root");
    }
    dir = Files.createTempDirectory("prrte-bench");
    uriFile = dir.resolve("dvm.uri");
    String head = run(List.of("hostname")).strip();
    reactor = Reactor.start("prrte-bench");
    Hub hub = new Hub(reactor);
    ResourceSet pool =
        ResourceSet.of(
            IdSet.parse("0-3"),
            IdSet.parse("0-1"),
            IdSet.empty(),
            Hostlist.parse(head + ",node[1-3]"));
    JobManager jm = JobManager.create(dir.resolve("jobs"), () -> System.currentTimeMillis() / 1e3);
    jm.start(hub.attach(Credentials.owner(0))).get(30, TimeUnit.SECONDS);
    SchedService.standalone(pool)
        .build()
        .start(hub.attach(Credentials.owner(0)))
        .get(30, TimeUnit.SECONDS);
    long job = jm.submit(jobspec(head), 0).get(60, TimeUnit.SECONDS);
    ResourceSet r =
        reactor
            .submit(() -> CompletableFuture.completedFuture(jm.jobR(job).orElseThrow()))
            .get(30, TimeUnit.SECONDS);
    ShellPlugin shell = ShellPlugin.create(job, 0, r);
    FluxHandle h = hub.attach(Credentials.owner(0));
    shell.start(h).get(30, TimeUnit.SECONDS);
    PmixAllocator allocator = PmixAllocator.create(shell);
    allocator.start(h).get(30, TimeUnit.SECONDS);
    FluxScheduler.HandBack handBack =
        new FluxScheduler.HandBack() {
          @Override
          public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
            return allocator.handBack(allocId, nodeList);
          }

          @Override
          public CompletionStage<Void> released(String nodeList) {
            return allocator.released(nodeList);
          }
        };
    agent =
        new ShrinkAgent("file:" + uriFile, System.getProperty("java.class.path"), reactor::execute);
    PmixScheduler[] up = new PmixScheduler[1];
    PrrteScheduler sched =
        new PrrteScheduler(allocator::allocationRequest, handBack, agent, () -> up[0].port());
    pmix =
        PmixScheduler.start(
                new PmixProc("fluxdrm-sched", 0),
                sched,
                "file:" + uriFile,
                Duration.ofSeconds(30),
                reactor::execute)
            .toCompletableFuture()
            .get(60, TimeUnit.SECONDS);
    up[0] = pmix;
    Path hosts = dir.resolve("hosts");
    Files.writeString(hosts, head + " slots=2\nnode1 slots=2\nnode2 slots=2\nnode3 slots=2\n");
    ProcessBuilder pb =
        env(
            new ProcessBuilder(
                    prrte.resolve("bin/prte").toString(),
                    "--prtemca",
                    "plm_ssh_agent",
                    fakessh.toString(),
                    "--prtemca",
                    "ras_pmix_system_scheduler",
                    "1",
                    "--prtemca",
                    "prte_elastic_mode",
                    "1",
                    "--hostfile",
                    hosts.toString(),
                    "--report-uri",
                    uriFile.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true));
    prte = pb.start();
    BufferedReader po =
        new BufferedReader(new InputStreamReader(prte.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = po.readLine()) != null && !line.contains("DVM ready")) {
      // until the DVM is up
    }
    Thread drain =
        new Thread(
            () -> {
              try {
                while (po.readLine() != null) {
                  // keep prte's output flowing
                }
              } catch (IOException e) {
                // prte ended
              }
            });
    drain.setDaemon(true);
    drain.start();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    tool =
        env(new ProcessBuilder(
                    java,
                    "--enable-native-access=ALL-UNNAMED",
                    "-D" + Libpmix.PREFIX_PROPERTY + "=" + Libpmix.prefix(),
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-cp",
                    System.getProperty("java.class.path"),
                    BenchToolMain.class.getName(),
                    "file:" + uriFile,
                    "node1")
                .redirectError(ProcessBuilder.Redirect.INHERIT))
            .start();
    toolIn = new OutputStreamWriter(tool.getOutputStream(), StandardCharsets.UTF_8);
    toolOut =
        new BufferedReader(new InputStreamReader(tool.getInputStream(), StandardCharsets.UTF_8));
    expect("READY");
  }

  private ProcessBuilder env(ProcessBuilder pb) {
    Map<String, String> env = pb.environment();
    env.put("PATH", prrte.resolve("bin") + ":" + env.getOrDefault("PATH", ""));
    env.put("LD_LIBRARY_PATH", Libpmix.prefix().resolve("lib") + ":" + prrte.resolve("lib"));
    env.put("PRTE_ALLOW_RUN_AS_ROOT", "1");
    env.put("PRTE_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    return pb;
  }

  private static String run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return s;
  }

  private static ObjectNode jobspec(String head) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    ObjectNode node = Json.object().put("type", "node").put("count", 1).put("exclusive", true);
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("prte");
    task.putObject("count").put("per_slot", 1);
    ObjectNode system = js.putObject("attributes").putObject("system");
    system.put("duration", 0);
    system.putObject("constraints").putArray("hostlist").add(head);
    return js;
  }

  private void send(String line) throws IOException {
    toolIn.write(line + "\n");
    toolIn.flush();
  }

  private String expect(String prefix) throws IOException {
    String line = toolOut.readLine();
    if (line == null || !line.startsWith(prefix)) {
      throw new IllegalStateException("bench tool: \"" + line + "\" (expected: " + prefix + ")");
    }
    return line;
  }

  /** The grow's answer (phase one): tool → PRRTE → fluxdrm → scheduler → PRRTE → tool. */
  @Benchmark
  public String phase1() throws IOException {
    send("GROW " + (++n));
    pendingPhase2 = true;
    return expect("P1 PMIX_SUCCESS");
  }

  /** The grow to its {@code PMIX_DVM_IS_READY} (phase two): the daemon on node1 is up. */
  @Benchmark
  public String phase2() throws IOException {
    send("GROW " + (++n));
    expect("P1 PMIX_SUCCESS");
    return expect("P2 -195");
  }

  /** Finishes the grow (if phase1 only) and shrinks node1 away again, unmeasured. */
  @TearDown(Level.Invocation)
  public void shrinkBack() throws IOException {
    if (pendingPhase2) {
      expect("P2 -195");
      pendingPhase2 = false;
    }
    send("RELEASE " + n);
    expect("R PMIX_SUCCESS");
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    toolIn.close();
    tool.waitFor(30, TimeUnit.SECONDS);
    run(List.of(prrte.resolve("bin/pterm").toString(), "--dvm-uri", "file:" + uriFile));
    prte.waitFor(60, TimeUnit.SECONDS);
    agent.close();
    pmix.close();
    reactor.close();
  }
}
