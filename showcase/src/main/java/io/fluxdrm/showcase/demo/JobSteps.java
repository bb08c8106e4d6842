package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.DemoRun.nodelist;
import static io.fluxdrm.showcase.demo.DemoRun.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import io.fluxdrm.showcase.demo.DemoRun.FluxJob;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The job steps of a {@link Demo} (decision D541): a job submitted with its shell plugin and
 * facade, its application's allocation requests, a request the story expects to wait, and the steps
 * whose outcome is a {@code sched.free}.
 */
final class JobSteps {
  private final DemoRun st;

  JobSteps(DemoRun st) {
    this.st = st;
  }

  // ---- jobs -------------------------------------------------------------------------------------

  /** Submits a job, waits for its alloc, starts its shell plugin and facade. */
  FluxJob submit(String name, String label, int uid, int nodes, String what) {
    World.Job j = Waits.await(name, st.world.submit(uid, nodes));
    if (j.r().isEmpty()) {
      throw new Waits.Stopped(name + ": job " + Step.f58(j.id()) + " holds no resources");
    }
    ShellPlugin plugin = ShellPlugin.create(j.id(), uid, j.r());
    PmixAllocator pmix = PmixAllocator.create(plugin);
    FluxHandle shell = st.world.schedHub(uid);
    st.world.recordShell(plugin);
    Waits.await(name + " shell", plugin.start(shell));
    Waits.await(name + " facade", pmix.start(shell));
    FluxJob job = new FluxJob(j, label, plugin, pmix, st.world.schedHub(uid));
    st.step(
        name,
        label,
        j.id(),
        "job "
            + label
            + (what.isEmpty() ? "" : " (" + what + ")")
            + " submitted, "
            + nodes
            + " node(s)",
        "allocated",
        "allocated",
        nodelist(j.r()));
    return job;
  }

  /** {@code PMIx_Allocation_request} from {@code j}'s application, over the facade's RPC. */
  CompletableFuture<PmixAnswer> ask(FluxJob j, AllocDirective d, List<Info> infos) {
    ObjectNode p = Json.object().put("directive", d.code());
    p.set("info", InfoCodec.encode(infos));
    return j.app()
        .rpc(j.pmix().serviceName() + "." + PmixAllocator.METHOD, p)
        .thenApply(JobSteps::decode);
  }

  private static PmixAnswer decode(Message m) {
    ObjectNode o = m.json();
    int code = o.path("status").asInt();
    PmixStatus s =
        PmixStatus.byCode(code)
            .orElseThrow(() -> new IllegalStateException("status " + code + ": not a PMIx status"));
    return new PmixAnswer(s, InfoCodec.decode(o.get("info")), o.path("message").asText(""));
  }

  /** A request the story expects to wait: unanswered, and queued where the scheduler is seen. */
  void waiting(String name, FluxJob j, String action, CompletableFuture<PmixAnswer> f) {
    boolean queued =
        st.world.pendingReallocs().isEmpty()
            || Waits.until(() -> f.isDone() || st.world.pendingReallocs().getAsInt() > 0);
    String outcome;
    String detail;
    if (f.isDone()) {
      PmixAnswer x = f.join();
      outcome = x.status().name();
      detail = x.message();
    } else if (queued) {
      outcome = "waiting";
      detail =
          st.world.pendingReallocs().isPresent()
              ? "in the scheduler's realloc FIFO ("
                  + st.world.pendingReallocs().getAsInt()
                  + " pending)"
              : "unanswered: the pool is short";
    } else {
      outcome = "no answer";
      detail = "not queued at the scheduler";
    }
    st.step(name, j.label(), j.id(), action, outcome, "waiting", detail);
  }

  int freesSoFar() {
    return st.world.freesSent().map(List::size).orElse(0);
  }

  /**
   * A step whose outcome is a {@code sched.free}: the job manager's request where it is tapped,
   * otherwise the scheduler having {@code hosts} free again while the job goes on ({@code
   * final:false}) or after it ended.
   */
  void freed(
      String name,
      String actor,
      FluxJob j,
      String action,
      List<String> hosts,
      boolean fin,
      int before,
      String note) {
    freed(name, actor, j, action, hosts, fin, before, note, false);
  }

  /** As above; with {@code departure}, also that the DVM had no daemon there any more. */
  void freed(
      String name,
      String actor,
      FluxJob j,
      String action,
      List<String> hosts,
      boolean fin,
      int before,
      String note,
      boolean departure) {
    String expected = "sched.free final:" + fin;
    String outcome;
    String detail = note;
    Optional<List<JsonNode>> sent = st.world.freesSent();
    if (hosts.isEmpty()) {
      // nothing was granted that could be freed: no wait
      outcome = "nothing freed";
    } else if (sent.isPresent()) {
      boolean seen = Waits.until(() -> st.world.freesSent().orElseThrow().size() > before);
      if (!seen) {
        outcome = "no sched.free";
      } else {
        JsonNode p = st.world.freesSent().orElseThrow().get(before);
        outcome = "sched.free final:" + p.path("final").asBoolean();
        detail = (freedNodes(p) + " " + note).strip();
        if (departure) {
          // the DVM as it was when the job manager sent the free: the daemons there gone
          List<String> still =
              st.world.dvmHostsAtFree(before).orElse(java.util.Set.of()).stream()
                  .filter(hosts::contains)
                  .toList();
          if (!still.isEmpty()) {
            outcome = "sched.free before departure";
            detail = (detail + " while " + Hostlist.of(still) + " still in the DVM").strip();
          } else {
            detail = (detail + " after their daemons left (shrink campaign over)").strip();
          }
        }
      }
    } else {
      // final:false: the job's shell saw the job manager take them (its R shrank); final:true:
      // the scheduler has them free
      boolean back =
          fin
              ? Waits.until(() -> freeHas(hosts))
              : Waits.until(
                  st.world.reactor(),
                  () -> j.plugin().r().nodelist().expand().stream().noneMatch(hosts::contains));
      outcome = back ? expected : "not freed";
      detail =
          (Hostlist.of(hosts)
                  + (fin ? " free at the scheduler " : " gone from the job's R ")
                  + note)
              .strip();
    }
    st.step(name, actor, j.id(), action, outcome, expected, detail);
  }

  private boolean freeHas(List<String> hosts) {
    ResourceSet free = Waits.await("free", st.world.free());
    return free.nodelist().expand().containsAll(hosts);
  }

  private static String freedNodes(JsonNode p) {
    try {
      return nodelist(ResourceSet.fromJson(p.get("R")));
    } catch (RuntimeException e) {
      return "R unreadable: " + e.getMessage();
    }
  }
}
