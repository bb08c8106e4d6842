package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.Demo.OWNER;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import io.fluxdrm.showcase.demo.Demo.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the parts of a {@link Demo} share while the story plays (decision D541): the configuration,
 * the world and the DVM's side, the events A's application received, the clock of the timeline and
 * its steps; how a step is recorded and checked, and the small helpers the steps use. Its logger
 * keeps {@link Demo}'s name, so every log line reads as before.
 */
final class DemoRun {
  private static final Logger LOG = LoggerFactory.getLogger(Demo.class);

  /** One job's side: its shell plugin, its facade and its application's handle to the facade. */
  record FluxJob(
      World.Job job, String label, ShellPlugin plugin, PmixAllocator pmix, FluxHandle app) {
    long id() {
      return job.id();
    }
  }

  final Config config;
  final Scenario sc;
  private final Consumer<Step> sink;
  final List<Step> steps = new ArrayList<>();
  final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
  World world;
  DvmSide dvm;
  long t0;
  java.time.Instant started;

  DemoRun(Config config, Consumer<Step> sink) {
    this.config = config;
    this.sc = config.scenario();
    this.sink = sink;
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  int ownerUid() {
    return world instanceof ProcessWorld p ? p.uid() : OWNER;
  }

  /** A request's infos: {@code n} nodes, then its request id. */
  static List<Info> nodes(int n, String reqId) {
    return InfoWriter.create().numNodes(n).reqId(reqId).infos();
  }

  /** A request's infos: the nodes of {@code nodeList}, then its request id. */
  static List<Info> nodes(String nodeList, String reqId) {
    return InfoWriter.create().nodeList(nodeList).reqId(reqId).infos();
  }

  /** What a grant says: its node list, summary and alloc id. */
  String granted(List<Info> infos) {
    AllocationAnswer answer = AllocationAnswer.parse(infos);
    Optional<String> list = answer.nodeList();
    Optional<String> id = answer.allocId();
    if (list.isEmpty()) {
      return "";
    }
    String summary = summaryOf(DvmSide.hostsOf(list.get()));
    return list.get() + summary + id.map(x -> " PMIX_ALLOC_ID=" + x).orElse("");
  }

  /** The pool's {@code rank[..]/core[..]} of {@code hosts}, in parentheses. */
  private String summaryOf(List<String> hosts) {
    try {
      ResourceSet p = world.pool();
      return " (" + p.copyRanks(p.hostsToRanks(Hostlist.of(hosts))).summary() + ")";
    } catch (RuntimeException e) {
      return "";
    }
  }

  static String nodelist(ResourceSet r) {
    return r.hasNodelist() ? r.nodelist() + " (" + r.summary() + ")" : r.summary();
  }

  boolean waitDone(CompletableFuture<?> f) {
    try {
      f.get(Waits.STEP_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  void step(
      String name,
      String actor,
      long job,
      String action,
      String outcome,
      String expected,
      String detail) {
    ResourceSet free = Waits.await("free", world.free());
    Step s =
        new Step(
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
            name,
            actor,
            job,
            action,
            outcome,
            expected,
            detail == null ? "" : detail.strip(),
            free.nnodes(),
            world.pool().nnodes());
    LOG.info("{} {}: {} -> {} {}", s.job(), name, action, outcome, s.detail());
    steps.add(s);
    sink.accept(s);
  }
}
