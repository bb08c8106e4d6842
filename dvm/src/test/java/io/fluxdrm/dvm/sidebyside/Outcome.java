package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a scenario observed, normalised so the two DVMs compare: status names, the keys of the infos
 * (values only for the keys whose value the scenario chose: request, session and control ids),
 * events in order, daemons. Ids and namespaces differ by design and are shown as their key only.
 */
public final class Outcome {
  /** Keys whose value is the scenario's own, so it is compared. */
  static final Set<String> VALUED =
      Set.of(PmixKey.PMIX_ALLOC_REQ_ID, PmixKey.PMIX_SESSION_ID, PmixKey.PMIX_SESSION_CTRL_ID);

  /**
   * The keys of an event that are compared: what the event says about the request. Others (PRRTE's
   * {@code pmix.evname}, {@code prte.notify.donotloop}) are how it routes events, not what it says.
   */
  static final Set<String> EVENT_KEYS =
      Set.of(
          PmixKey.PMIX_ALLOC_ID,
          PmixKey.PMIX_ALLOC_REQ_ID,
          PmixKey.PMIX_SESSION_ID,
          PmixKey.PMIX_JOB_TERM_STATUS);

  /** The reference DVM's reason text on errors (D358): not PMIx, dropped from the shapes. */
  static final String REASON = "fluxdrm.dvm.reason";

  private final List<String> steps = new ArrayList<>();

  /** Adds a step. */
  public Outcome step(String what) {
    steps.add(what);
    return this;
  }

  /** Adds an answer's shape. */
  public Outcome answer(String call, StatusInfos a) {
    return step(call + " → " + shape(a));
  }

  /** Adds a spawn's shape. */
  public Outcome spawn(String call, SpawnResult r) {
    return step(call + " → " + name(r.status()) + (r.nspace().isPresent() ? " {nspace}" : ""));
  }

  /** Adds the events' shapes ("no event" when none). */
  public Outcome events(List<Event> events) {
    if (events.isEmpty()) {
      return step("no event");
    }
    for (Event e : events) {
      step(
          "event "
              + code(e.status())
              + " "
              + keys(e.infos().stream().filter(i -> EVENT_KEYS.contains(i.key())).toList()));
    }
    return this;
  }

  /**
   * Adds the events' shapes sorted, for requests that overlap and whose events the spec orders not
   * ("no event" when none).
   */
  public Outcome eventsInAnyOrder(List<Event> events) {
    Outcome o = new Outcome().events(events);
    o.steps.stream().sorted().forEach(steps::add);
    return this;
  }

  /** Adds where a plain {@code prun --map-by ppr:1:node} lands: the pool's nodes with a daemon. */
  public Outcome daemons(List<String> hosts) {
    return step("prun on " + String.join(",", hosts));
  }

  /** The outcome as one line. */
  public String text() {
    return String.join("; ", steps);
  }

  @Override
  public String toString() {
    return text();
  }

  /** An answer: its status, and for a success the keys (an error's infos are not compared). */
  static String shape(StatusInfos a) {
    if (!a.succeeded()) {
      return name(a.status());
    }
    String k = keys(a.infos());
    return name(a.status()) + (k.equals("{}") ? "" : " " + k);
  }

  static String name(PmixStatus s) {
    return s.name().replaceFirst("^PMIX_", "");
  }

  static String code(int c) {
    return PmixStatus.byCode(c).map(Outcome::name).orElse(Integer.toString(c));
  }

  static String keys(List<Info> infos) {
    TreeSet<String> ks = new TreeSet<>();
    for (Info i : infos) {
      if (i.key().equals(REASON)) {
        continue;
      }
      if (VALUED.contains(i.key())) {
        ks.add(i.key() + "=" + i.value());
      } else {
        ks.add(i.key());
      }
    }
    return "{" + String.join(",", ks) + "}";
  }
}
