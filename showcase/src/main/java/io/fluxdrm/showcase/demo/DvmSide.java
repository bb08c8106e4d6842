package io.fluxdrm.showcase.demo;

import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.rset.Hostlist;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the story reads of the DVM: the events of the application's registration, and, where the DVM
 * runs in this JVM, its own view (the fence and held jobs, where a job's procs sit, whether a
 * node's daemon has left). Where the DVM is a process, the view is not there and the story's answer
 * comes from the connection alone (D440, D442).
 */
final class DvmSide {
  private final World world;
  private final Queue<Event> events;

  DvmSide(World world, Queue<Event> events) {
    this.world = world;
    this.events = events;
  }

  /** The next event of the application's registration, or null after {@link Waits#STEP_TIMEOUT}. */
  Event awaitEvent(Predicate<Event> which) {
    Event[] got = new Event[1];
    Waits.until(
        () -> {
          Event e = events.poll();
          if (e != null && which.test(e)) {
            got[0] = e;
            return true;
          }
          return false;
        });
    return got[0];
  }

  /** The keys the timeline shows by their PMIx name; any other key shows as its string. */
  private static final Set<String> NAMED =
      Set.of("PMIX_ALLOC_ID", "PMIX_ALLOC_REQ_ID", "PMIX_JOB_TERM_STATUS");

  /** The PMIx name of the keys the timeline shows ({@code pmix.alloc.id} → PMIX_ALLOC_ID). */
  private static String keyName(String key) {
    return PmixKey.nameOf(key).filter(NAMED::contains).orElse(key);
  }

  static String statusName(int code) {
    return PmixStatus.byCode(code).map(PmixStatus::name).orElse("status " + code);
  }

  /** An event's particulars: to whom, and its infos. */
  String eventDetail(Event e, int uid) {
    StringBuilder b = new StringBuilder("to the requester");
    for (Info i : e.infos()) {
      String v = String.valueOf(i.value());
      if (i.key().equals(PmixKey.PMIX_JOB_TERM_STATUS) && i.value() instanceof Number n) {
        v = statusName(n.intValue());
      }
      b.append(' ').append(keyName(i.key())).append('=').append(v);
    }
    return b.toString();
  }

  /** Where the DVM holds the spawned job of {@code allocId}, where the DVM is seen. */
  String heldState(String allocId) {
    Optional<Supplier<DvmView>> v = world.dvmView();
    if (v.isEmpty()) {
      return "the DVM had it before its ready event";
    }
    return Waits.onLoop(
        world.reactor(),
        () -> {
          DvmView view = v.get().get();
          DvmView.ElasticView el = view.elastic();
          return "fence "
              + el.fence()
              + ", "
              + el.heldAtMap().size()
              + " job(s) held at map ("
              + DvmView.JobState.WAITING_FOR_DAEMONS
              + ")";
        });
  }

  /** The nodes a job's procs sit on, where the DVM is seen. */
  String placement(String nspace) {
    Optional<Supplier<DvmView>> v = world.dvmView();
    if (v.isEmpty()) {
      return "in its allocation";
    }
    return Waits.onLoop(
        world.reactor(),
        () ->
            v.get()
                .get()
                .job(nspace)
                .map(
                    j ->
                        "on "
                            + Hostlist.of(
                                new ArrayList<>(new TreeSet<>(j.procsPerNode().keySet()))))
                .orElse("gone"));
  }

  boolean landedOn(String nspace, String nodeList) {
    Optional<Supplier<DvmView>> v = world.dvmView();
    if (v.isEmpty()) {
      return true; // spawned into the allocation of those nodes only
    }
    List<String> grown = hostsOf(nodeList);
    return Waits.onLoop(
        world.reactor(),
        () ->
            v.get()
                .get()
                .job(nspace)
                .map(j -> grown.containsAll(j.procsPerNode().keySet()))
                .orElse(false));
  }

  /** The hosts of a {@code PMIX_ALLOC_NODE_LIST} ({@code host[:slots],...}). */
  static List<String> hostsOf(String nodeList) {
    List<String> l = new ArrayList<>();
    if (nodeList.isEmpty()) {
      return l;
    }
    for (String e : nodeList.split(",")) {
      int colon = e.lastIndexOf(':');
      l.addAll(Hostlist.parse(colon > 0 ? e.substring(0, colon) : e).expand());
    }
    return l;
  }
}
