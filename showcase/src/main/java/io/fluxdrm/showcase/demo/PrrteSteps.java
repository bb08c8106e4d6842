package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.PrrteRequests.allocId;
import static io.fluxdrm.showcase.demo.PrrteRequests.count;
import static io.fluxdrm.showcase.demo.PrrteRequests.nodeList;
import static io.fluxdrm.showcase.demo.PrrteStory.NODES;
import static io.fluxdrm.showcase.demo.PrrteStory.PMIX_PREFIX_PROPERTY;
import static io.fluxdrm.showcase.demo.PrrteStory.SLOTS;
import static io.fluxdrm.showcase.demo.PrrteStory.STOP_GRACE;
import static io.fluxdrm.showcase.demo.PrrteStory.WAIT;
import static io.fluxdrm.showcase.demo.PrrteStory.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.dvm.PmixToolProvider;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The story of a {@link PrrteStory} in order (decision D541): the scheduler, the bridge as PRRTE's
 * PMIx scheduler, {@code prte}, this JVM as the tool, the grows, the denial, the releases, then
 * {@code pterm}, the DVM's job finished and SIGTERM to the bridge and the scheduler. Each step
 * stands on the answer of the one before (the grant's id, the node the scheduler picked).
 */
final class PrrteSteps {
  private final PrrteRun st;
  private final PrrteRequests req;

  PrrteSteps(PrrteRun st) {
    this.st = st;
    this.req = new PrrteRequests(st);
  }

  void story() throws IOException {
    st.t0 = System.nanoTime();
    st.reactor = Reactor.start("fluxdrm-demo-prrte");
    String hosts = st.head + ",node[1-" + NODES.size() + "]";

    // the Flux side: the scheduler holding this host and the nodes
    st.sched =
        st.procs.spawnFluxdrm(
            "sched",
            List.of(
                "sched",
                "--listen",
                "unix:" + st.dir.resolve("hub"),
                "--hosts",
                hosts,
                "--cores",
                "0-" + (SLOTS - 1)));
    st.procs.await(st.sched, "listening on ");
    st.hub = connectHub();
    st.updateFree();
    st.step("sched-up", "sched", "fluxdrm sched --hosts " + hosts, "listening", "listening", "");

    // fluxdrm as PRRTE's PMIx scheduler, before prte
    st.bridge =
        st.procs.spawnFluxdrm(
            "bridge",
            List.of(
                "bridge",
                "--connect",
                "unix:" + st.dir.resolve("hub"),
                "--state-dir",
                st.dir.resolve("jobs").toString(),
                "--pmix-scheduler",
                "--dvm-uri",
                "file:" + st.uriFile,
                "--dvm-host",
                st.head));
    String up = st.procs.await(st.bridge, "PMIx scheduler up: start prte");
    // the bridge logs job ids in F58, as flux-core does (decision D497)
    Matcher m = Pattern.compile("the DVM's job (\\S+): ([^;]+);").matcher(up);
    boolean found = m.find();
    if (found) {
      st.dvmJob = io.fluxdrm.rpc.JobId.parse(m.group(1));
    }
    st.updateFree();
    st.step(
        "bridge-up",
        "bridge",
        "fluxdrm bridge --pmix-scheduler: the DVM's job on " + st.head,
        "PMIx scheduler up",
        "PMIx scheduler up",
        found ? "holds " + m.group(2) : "");

    // the DVM
    Files.writeString(
        st.dir.resolve("hosts"),
        (st.head + " slots=" + SLOTS + "\n")
            + NODES.stream().map(n -> n + " slots=" + SLOTS + "\n").collect(Collectors.joining()));
    st.prte = st.procs.spawn("prte", prteCommand());
    st.procs.await(st.prte, "DVM ready");
    st.step(
        "prte-up",
        "prte",
        "prte elastic, ras_pmix_system_scheduler 1",
        "DVM ready",
        "DVM ready",
        "");
    req.daemonsStep("daemons-at-start", "", List.of(st.head));

    // this JVM as the tool
    connectTool();
    st.step("tool-connect", "tool", "PMIx_tool_init file:dvm.uri", "connected", "connected", "");

    req.grow("grow-node1", "NEW node1:" + SLOTS, nodeList("node1:" + SLOTS));
    req.daemonsStep("daemons-default", "", List.of(st.head));
    String node1Alloc = allocId(st.lastGrow);
    req.daemonsStep("daemons-grown", node1Alloc, List.of("node1"));

    req.grow("grow-count", "NEW 1 node", count(1));
    String countAlloc = allocId(st.lastGrow);
    String picked = req.daemonsStep("daemons-count", countAlloc, List.of("node2|node3"));
    req.release("release-count", picked.matches("node[23]") ? picked : "node2");

    int more = NODES.size() + 5;
    StatusInfos denied = req.request(AllocDirective.NEW, "deny", count(more));
    st.updateFree();
    st.step(
        "deny",
        "tool",
        "NEW " + more + " nodes (more than the pool)",
        denied.status().name(),
        PmixStatus.PMIX_ERR_OUT_OF_RESOURCE.name(),
        "");
    req.daemonsStep("daemons-after-deny", node1Alloc, List.of("node1"));

    req.release("release-node1", "node1");
    req.freedAfterLeft();
    req.daemonsStep("daemons-at-end", "", List.of(st.head));

    // the end
    StatusInfos bye = Waits.await("PMIx_tool_finalize", st.port.disconnect(), WAIT);
    st.port = null;
    st.step(
        "tool-disconnect",
        "tool",
        "PMIx_tool_finalize",
        bye.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        "");
    PrrteProcesses.Ran pterm =
        st.procs.run(List.of(st.bin("pterm"), "--dvm-uri", "file:" + st.uriFile));
    int prteExit = PrrteProcesses.exitOf(st.prte, STOP_GRACE);
    st.step(
        "pterm",
        "prte",
        "pterm --dvm-uri file:dvm.uri",
        "pterm " + pterm.exit() + ", prte " + prteExit,
        "pterm 0, prte 0",
        "");
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(st.dvmJob));
    Waits.await(
        "bridge.finish", Waits.onLoop(st.reactor, () -> st.hub.rpc("bridge.finish", p)), WAIT);
    ResourceSet free = st.updateFree();
    boolean all = free.diff(st.pool).isEmpty() && st.pool.diff(free).isEmpty();
    st.step(
        "dvm-job-finished",
        "bridge",
        "bridge.finish of the DVM's job",
        all ? "the pool free" : "free " + free.summary(),
        "the pool free",
        "");
    FluxHandle h = st.hub;
    st.hub = null;
    Waits.onLoop(
        st.reactor,
        () -> {
          h.close();
          return null;
        });
    st.bridge.process().toHandle().destroy();
    int bridgeExit = PrrteProcesses.exitOf(st.bridge, STOP_GRACE);
    st.sched.process().toHandle().destroy();
    int schedExit = PrrteProcesses.exitOf(st.sched, STOP_GRACE);
    st.step(
        "stop",
        "pool",
        "SIGTERM to the bridge and the scheduler",
        "bridge " + bridgeExit + ", sched " + schedExit,
        "bridge 143, sched 143",
        "");
  }

  private void connectTool() {
    PmixToolProvider provider =
        provider(PrrteStory.class.getClassLoader())
            .orElseThrow(
                () -> new Waits.Stopped("the pmix-native module is not on the class path"));
    System.setProperty(PMIX_PREFIX_PROPERTY, st.config.pmixPrefix().toString());
    try {
      st.port = provider.connect("file:" + st.uriFile, Duration.ofSeconds(30), st.toolLoop);
    } catch (Exception e) {
      throw new Waits.Stopped("the tool: " + e.getMessage());
    }
    Waits.await(
        "PMIx_Register_event_handler",
        st.port.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            e ->
                AllocationAnswer.echoOf(e.infos()).stream()
                    .map(Info::stringValue)
                    .filter(r -> r.startsWith("fluxdrm-demo-"))
                    .findFirst()
                    .ifPresent(
                        r ->
                            st.phase2
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
          st.reactor, "local://" + st.dir.resolve("hub").resolve("local"), Waits.STEP_TIMEOUT);
    } catch (RpcException e) {
      throw new Waits.Stopped("connect to the scheduler's hub: " + e.getMessage());
    }
  }

  private List<String> prteCommand() {
    List<String> cmd = new ArrayList<>(List.of(st.bin("prte")));
    st.config
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
            st.dir.resolve("hosts").toString(),
            "--report-uri",
            st.uriFile.toString()));
    return cmd;
  }
}
