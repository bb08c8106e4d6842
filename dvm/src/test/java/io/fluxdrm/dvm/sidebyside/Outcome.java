package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a scenario observed, normalised so the two DVMs compare: status names, the infos with their
 * values, events in order, daemons (where {@code prun} runs: the process state a user sees). A
 * value either DVM names by its own scheme (an allocation id, a namespace) differs by design, so it
 * is shown as a name given in order of first sight within the scenario ({@code #1}, {@code #2}):
 * what is compared is which allocation an answer, an event and a later step name, not the text of
 * the id (issue 28, scope 5; D505). Values with no text form to compare (a data array, an app) are
 * shown as their key only.
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

  /**
   * Keys whose value the DVM names by its own scheme: shown as a name in order of first sight
   * ({@code #1}...), the same value the same name throughout the scenario.
   */
  static final Set<String> NAMED_BY_DVM = Set.of(PmixKey.PMIX_ALLOC_ID, PmixKey.PMIX_NSPACE);

  /** The reference DVM's reason text on errors (D358): not PMIx, dropped from the shapes. */
  static final String REASON = "fluxdrm.dvm.reason";

  private final List<String> steps = new ArrayList<>();
  private final Names names = new Names();

  /** Adds a step. */
  public Outcome step(String what) {
    steps.add(what);
    return this;
  }

  /** Adds an answer's shape. */
  public Outcome answer(String call, StatusInfos a) {
    return step(call + " → " + shape(a, names));
  }

  /** Adds a spawn's shape. */
  public Outcome spawn(String call, SpawnResult r) {
    return step(
        call
            + " → "
            + name(r.status())
            + r.nspace().map(ns -> " {nspace=" + names.of(ns) + "}").orElse(""));
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
              + keys(e.infos().stream().filter(i -> EVENT_KEYS.contains(i.key())).toList(), names));
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

  /**
   * An answer: its status, and for a success its infos (an error's infos are not compared: the
   * reference's reason text is its own, PRRTE gives none).
   */
  static String shape(StatusInfos a, Names names) {
    if (!a.succeeded()) {
      return name(a.status());
    }
    String k = keys(a.infos(), names);
    return name(a.status()) + (k.equals("{}") ? "" : " " + k);
  }

  static String name(PmixStatus s) {
    return s.name().replaceFirst("^PMIX_", "");
  }

  static String code(int c) {
    return PmixStatus.byCode(c).map(Outcome::name).orElse(Integer.toString(c));
  }

  /**
   * Infos as {@code {key=value,...}} sorted by key: a value the DVM names by its own scheme as its
   * name in {@code names}; a process as {@code requester} when it is the one given, else by its
   * namespace's name and rank; a text, number or flag as it is; anything else as its key alone.
   */
  static String keys(List<Info> infos, Names names) {
    TreeSet<String> ks = new TreeSet<>();
    for (Info i : infos) {
      if (i.key().equals(REASON)) {
        continue;
      }
      String v = value(i, names);
      ks.add(v == null ? i.key() : i.key() + "=" + v);
    }
    return "{" + String.join(",", ks) + "}";
  }

  private static String value(Info i, Names names) {
    Object v = i.value();
    if (NAMED_BY_DVM.contains(i.key()) && v instanceof String text) {
      return names.of(text);
    }
    if (v instanceof PmixProc p) {
      return names.who(p);
    }
    if (v instanceof String || v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    return null;
  }

  /**
   * Names for the values a DVM names by its own scheme, given in order of first sight; and who a
   * process is: the one a scenario called the requester, or a namespace's name and a rank.
   */
  static final class Names {
    private final Map<String, String> seen = new HashMap<>();
    private final PmixProc requester;
    private final String requesterName;

    Names() {
      this(null, null);
    }

    /**
     * @param requester the process shown as {@code requesterName} (the tool of an upcall)
     * @param requesterName how it is shown
     */
    Names(PmixProc requester, String requesterName) {
      this.requester = requester;
      this.requesterName = requesterName;
    }

    String of(String value) {
      return seen.computeIfAbsent(value, v -> "#" + (seen.size() + 1));
    }

    String who(PmixProc p) {
      if (p.equals(requester)) {
        return requesterName;
      }
      return of(p.nspace()) + ":" + p.rank();
    }
  }
}
