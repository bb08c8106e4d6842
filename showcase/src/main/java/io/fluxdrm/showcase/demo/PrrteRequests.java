package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.PrrteStory.SLOTS;
import static io.fluxdrm.showcase.demo.PrrteStory.WAIT;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The allocation requests of a {@link PrrteStory} and their checks (decision D541): a NEW or a
 * RELEASE from the tool and its second phase, the scheduler's free of a released node no earlier
 * than its daemon left, and {@code prun} showing where daemons are.
 */
final class PrrteRequests {
  private static final Pattern STAMP = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) ");

  private final PrrteRun st;

  PrrteRequests(PrrteRun st) {
    this.st = st;
  }

  static List<Info> nodeList(String nodes) {
    return InfoWriter.create().nodeList(nodes).infos();
  }

  static List<Info> count(long n) {
    return InfoWriter.create().numNodes(n).infos();
  }

  /** A NEW and its second phase: two steps. */
  StatusInfos grow(String name, String action, List<Info> infos) {
    CompletableFuture<Event> ev = st.phase2.computeIfAbsent(name, k -> new CompletableFuture<>());
    StatusInfos r = request(AllocDirective.NEW, name, infos);
    st.updateFree();
    AllocationAnswer answer = AllocationAnswer.parse(r.infos());
    String nodes = answer.nodeList().orElse("");
    st.step(
        name,
        "tool",
        action,
        r.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        (nodes.isEmpty() ? "" : "granted " + nodes + " ")
            + "alloc id "
            + answer.allocId().orElse(""));
    secondPhase(name, action, r, ev);
    st.lastGrow = r;
    return r;
  }

  /** A RELEASE and its second phase: two steps. */
  void release(String name, String node) {
    CompletableFuture<Event> ev = st.phase2.computeIfAbsent(name, k -> new CompletableFuture<>());
    StatusInfos r = request(AllocDirective.RELEASE, name, nodeList(node));
    st.updateFree();
    st.step(name, "tool", "RELEASE " + node, r.status().name(), PmixStatus.PMIX_SUCCESS.name(), "");
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
    st.phase2.remove(name);
    st.updateFree();
    st.step(
        name + "-ready",
        "prte",
        "phase 2 of " + action,
        outcome,
        PmixStatus.PMIX_DVM_IS_READY.name(),
        "");
  }

  StatusInfos request(AllocDirective d, String reqId, List<Info> infos) {
    List<Info> all = InfoWriter.create().infos(infos).reqId("fluxdrm-demo-" + reqId).infos();
    st.phase2.computeIfAbsent(reqId, k -> new CompletableFuture<>());
    return Waits.await(d + " " + infos, st.port.allocationRequest(d, all), WAIT);
  }

  /** The alloc id of an answer, empty without one. */
  static String allocId(StatusInfos r) {
    return AllocationAnswer.allocIdOf(r.infos()).orElse("");
  }

  /**
   * The scheduler logs its {@code sched.free} of node1 (rank 1, no {@code (final)}) no earlier than
   * the bridge logs node1's daemon gone.
   */
  void freedAfterLeft() {
    String left = st.procs.await(st.bridge, "the daemons of node1 left; sched\\.free final: false");
    String free = st.procs.await(st.sched, "free \\S+: rank1/core\\[0-" + (SLOTS - 1) + "\\]$");
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
    st.updateFree();
    st.step(
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
  String daemonsStep(String name, String allocId, List<String> expected) {
    List<String> cmd = new ArrayList<>(List.of(st.bin("prun"), "--dvm-uri", "file:" + st.uriFile));
    if (!allocId.isEmpty()) {
      cmd.addAll(List.of("--alloc-id", allocId));
    }
    cmd.addAll(List.of("--map-by", "ppr:1:node", "hostname"));
    PrrteProcesses.Ran r = st.procs.run(cmd);
    st.procs.rememberDaemons(st.prte);
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
    st.updateFree();
    st.step(
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
        (a, b) ->
            a.equals(st.head)
                ? (b.equals(st.head) ? 0 : -1)
                : b.equals(st.head) ? 1 : a.compareTo(b));
    return String.join(",", l);
  }
}
