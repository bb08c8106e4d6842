package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.pmix.nativ.PrrteBridgeProcessIT.Watched;
import io.fluxdrm.rset.ResourceSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26: a PRRTE DVM that runs as a job of a real flux-core instance grows by one node through
 * flux-core's job manager and shrinks back. Four brokers named after the DVM's nodes ({@code flux
 * start --test-size=4 --test-hosts=HEAD,node[1-3]}, its R given those names), {@code fluxdrm sched
 * --flux-uri} as the scheduler, the realloc jobtap plugin loaded, the DVM's Flux job on the head
 * node running {@code prte} (fakessh for the other nodes), and {@code fluxdrm bridge
 * --pmix-scheduler --flux-job ID} as PRRTE's scheduler. A tool's NEW and RELEASE go tool → PRRTE →
 * bridge → {@code job-manager.realloc} → plugin → {@code sched.realloc}; after each, flux-core's
 * views are checked: the job's eventlog, {@code job.<id>.R}, {@code flux resource R -s allocated}.
 */
class PrrteFluxJobIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final List<Watched> started = new ArrayList<>();
  private Path flux;
  private String uri;

  private Watched start(Watched w) {
    started.add(w);
    return w;
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = started.size() - 1; i >= 0; i--) {
      Watched w = started.get(i);
      if (w.process.isAlive()) {
        w.process.toHandle().descendants().forEach(ProcessHandle::destroy);
        w.process.toHandle().destroy();
        if (!w.process.waitFor(30, TimeUnit.SECONDS)) {
          w.process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
          w.process.destroyForcibly();
        }
      }
    }
  }

  /** {@code flux ARGS} in the instance: its output, or an assertion error with it. */
  private String flux(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(flux.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("FLUX_URI", uri);
    Peer.Ran r = Peer.runFor(pb, WAIT);
    assertThat(r.timedOut()).as("%s did not end", cmd).isFalse();
    assertThat(r.exit()).as("%s: %s", cmd, r.out()).isZero();
    return r.out();
  }

  private ResourceSet kvsR(String id) throws Exception {
    String key = flux("job", "id", "--to=kvs", id).strip() + ".R";
    return ResourceSet.parse(flux("kvs", "get", key));
  }

  private ResourceSet allocated() throws Exception {
    return ResourceSet.parse(flux("resource", "R", "-s", "allocated"));
  }

  private List<String> events(String id, String name) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line : flux("job", "eventlog", "--format=json", id).split("\n")) {
      if (!line.isBlank()) {
        JsonNode e = JSON.readTree(line);
        if (e.path("name").asText().equals(name)) {
          out.add(e.path("context").toString());
        }
      }
    }
    return out;
  }

  /** The hostnames of an R, in rank order. */
  private static String hosts(ResourceSet r) {
    return r.nodelist().toString();
  }

  /** Polls {@code check} with a deadline (a condition with no event to wait on). */
  private static void within(Duration d, String what, java.util.concurrent.Callable<Boolean> check)
      throws Exception {
    long end = System.nanoTime() + d.toNanos();
    while (!check.call()) {
      assertThat(System.nanoTime() - end).as("%s within %s", what, d).isNegative();
      Thread.sleep(100); // polling with a deadline
    }
  }

  @Test
  void dvmAsAFluxJob_growsByOneNodeThroughTheJobManager_andShrinksBack() throws Exception {
    // the process helpers of PrrteBridgeProcessIT (bin/fluxdrm, the tool, prun) work in its folder
    PrrteBridgeProcessIT.dir = dir;
    PrrteBridgeProcessIT.needPeer();
    Path fakessh = Peer.needPrrte(dir);
    String given = System.getProperty("fluxdrm.flux.prefix", "");
    Path prefix = Path.of(given.isBlank() ? "/opt/flux" : given);
    flux = prefix.resolve("bin/flux");
    Peer.need(Files.isExecutable(flux), flux + " is missing (../shared/tools/build-flux-peer)");
    Path plugin = ReallocPluginBuild.path(prefix, dir);
    String head = Peer.run(List.of("hostname"), dir).strip();

    // the instance: four brokers named after the DVM's nodes
    Files.createDirectories(dir.resolve("run"));
    Watched instance =
        start(
            new Watched(
                "flux",
                new ProcessBuilder(
                        flux.toString(),
                        "start",
                        "--test-size=4",
                        "--test-hosts=" + head + ",node[1-3]",
                        "--test-rundir=" + dir.resolve("run"),
                        "sh",
                        "-c",
                        "echo URI=$FLUX_URI; exec sleep 100000")
                    .directory(dir.toFile())));
    uri = instance.await("^URI=local://").substring("URI=".length()).strip();
    flux("module", "remove", "sched-simple");
    // the resource module's R names every rank after this machine: give it the nodes' names, as
    // the peer's README makes a fake machine (the brokers stay where they are)
    Files.writeString(
        dir.resolve("R.json"),
        flux("R", "encode", "-r", "0-3", "-c", "0-1", "-H", head + ",node[1-3]"));
    flux("resource", "reload", "-f", dir.resolve("R.json").toString());
    flux("module", "reload", "resource", "monitor-force-up", "noverify");
    Watched sched =
        start(new Watched("sched", PrrteBridgeProcessIT.fluxdrm("sched", "--flux-uri", uri)));
    sched.await("ready: attached");
    flux("jobtap", "load", plugin.toString());

    // the DVM's Flux job on the head node: prte, once the bridge is up
    Path uriFile = dir.resolve("dvm.uri");
    Files.writeString(
        dir.resolve("hosts"), head + " slots=2\nnode1 slots=2\nnode2 slots=2\nnode3 slots=2\n");
    ProcessBuilder env = new ProcessBuilder();
    Peer.prrteEnv(env);
    String script =
        "#!/bin/sh\n"
            + "n=0; while [ ! -e "
            + dir.resolve("go")
            + " ] && [ $n -lt 1200 ]; do sleep 0.1; n=$((n+1)); done\n"
            + "unset PMI_FD PMI_RANK PMI_SIZE PMI_SPAWNED\n"
            + "export PATH='"
            + env.environment().get("PATH")
            + "' LD_LIBRARY_PATH='"
            + env.environment().get("LD_LIBRARY_PATH")
            + "' PRTE_ALLOW_RUN_AS_ROOT=1 PRTE_ALLOW_RUN_AS_ROOT_CONFIRM=1\n"
            + "exec prte --prtemca plm_ssh_agent "
            + fakessh
            + " --prtemca ras_pmix_system_scheduler 1 --prtemca prte_elastic_mode 1 --hostfile "
            + dir.resolve("hosts")
            + " --report-uri "
            + uriFile
            + " > "
            + dir.resolve("prte.log")
            + " 2>&1\n";
    Path dvm = dir.resolve("dvm.sh");
    Files.writeString(dvm, script, StandardCharsets.UTF_8);
    dvm.toFile().setExecutable(true);
    String job = flux("submit", "-N1", "--requires=host:" + head, dvm.toString()).strip();
    flux("job", "wait-event", "-t", "60", job, "start");
    String dec = flux("job", "id", "--to=dec", job).strip();
    ResourceSet original = kvsR(job);
    assertThat(hosts(original)).isEqualTo(head);

    Watched bridge =
        start(
            new Watched(
                "bridge",
                PrrteBridgeProcessIT.fluxdrm(
                    "bridge",
                    "--pmix-scheduler",
                    "--connect",
                    uri,
                    "--flux-job",
                    dec,
                    "--dvm-uri",
                    "file:" + uriFile)));
    bridge.await("PMIx scheduler up: start prte");
    Files.writeString(dir.resolve("go"), "");
    within(
        WAIT,
        "prte's DVM ready",
        () ->
            Files.exists(dir.resolve("prte.log"))
                && Files.readString(dir.resolve("prte.log")).contains("DVM ready"));
    assertThat(PrrteBridgeProcessIT.daemons(uriFile)).containsExactly(head);

    // grow by one node: the tool's NEW becomes job-manager.realloc of the DVM's Flux job
    List<String> grow = PrrteBridgeProcessIT.tool(uriFile, "NEW", "count=1", "req=flux-grow");
    assertThat(grow).hasSize(2);
    assertThat(grow.get(0)).startsWith("PHASE1 PMIX_SUCCESS");
    assertThat(grow.get(1)).startsWith("PHASE2 -195");
    List<String> now = PrrteBridgeProcessIT.daemons(uriFile);
    assertThat(now).hasSize(2).contains(head);
    String node = now.stream().filter(n -> !n.equals(head)).findFirst().orElseThrow();
    assertThat(node).isIn("node1", "node2", "node3");
    ResourceSet grown = kvsR(job);
    assertThat(hosts(grown)).isEqualTo(head + "," + node);
    assertThat(events(job, "realloc-grow")).hasSize(1);
    assertThat(allocated().ranks()).isEqualTo(grown.ranks());

    // shrink back: PRRTE's daemon leaves first, then the bridge's job-manager.release frees it
    List<String> release =
        PrrteBridgeProcessIT.tool(uriFile, "RELEASE", "nodes=" + node, "req=flux-release");
    assertThat(release.get(0)).startsWith("PHASE1 PMIX_SUCCESS");
    assertThat(PrrteBridgeProcessIT.daemons(uriFile)).containsExactly(head);
    within(WAIT, "the realloc-release event", () -> events(job, "realloc-release").size() == 1);
    assertThat(hosts(kvsR(job))).isEqualTo(head);
    within(
        WAIT,
        "flux's allocated back to the head",
        () -> allocated().ranks().equals(original.ranks()));
    assertThat(sched.await("free " + java.util.regex.Pattern.quote(job) + ": "))
        .doesNotContain("final");

    // the DVM ends; its Flux job completes and everything is free
    ProcessBuilder pt =
        new ProcessBuilder(
                Peer.prrtePrefix().resolve("bin/pterm").toString(), "--dvm-uri", "file:" + uriFile)
            .directory(dir.toFile());
    Peer.prrteEnv(pt);
    Peer.Ran pterm = Peer.runFor(pt, WAIT);
    assertThat(pterm.exit()).as(pterm.out()).isZero();
    flux("job", "wait-event", "-t", "60", job, "clean");
    assertThat(allocated().isEmpty()).isTrue();
  }
}
