package io.fluxdrm.dvm.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The invariants of issue 13 over a {@link DvmView}, for the core's tests and the service's: no
 * node in two sessions; the pool and the sessions partition the nodes; every job belongs to exactly
 * one session (a live one: no job of a reclaimed session is alive); no node runs more processes
 * than it has slots; and, fed with the requests and decisions, every request got exactly one answer
 * (at most one at any time, exactly one once it is no longer in flight).
 *
 * <p>Use: {@link #requested} for each request handed to the core, {@link #decided} with each list
 * of decisions, {@link #check} whenever the state should hold (after every step). The static {@link
 * #problems(DvmView)} checks the view alone.
 */
public final class DvmInvariants {
  private final Set<Long> requested = new HashSet<>();
  private final Map<Long, Integer> answers = new HashMap<>();
  private final Set<Long> reclaimed = new HashSet<>();
  private final List<String> ledgerProblems = new ArrayList<>();

  /**
   * Notes a request handed to the core.
   *
   * @param requestId its id
   */
  public void requested(long requestId) {
    requested.add(requestId);
  }

  /**
   * Notes the decisions of one call of the core.
   *
   * @param decisions the decisions
   */
  public void decided(List<DvmDecision> decisions) {
    for (DvmDecision d : decisions) {
      if (d instanceof DvmDecision.Answer a) {
        if (!requested.contains(a.requestId())) {
          ledgerProblems.add("answer to request " + a.requestId() + ", which was never made");
        }
        int n = answers.merge(a.requestId(), 1, Integer::sum);
        if (n > 1) {
          ledgerProblems.add("request " + a.requestId() + " answered " + n + " times");
        }
      } else if (d instanceof DvmDecision.SessionReclaimed r) {
        reclaimed.add(r.sessionId());
      } else if (d instanceof DvmDecision.SessionCreated c) {
        reclaimed.remove(c.sessionId());
      }
    }
  }

  /** How many answers request {@code requestId} got. */
  public int answers(long requestId) {
    return answers.getOrDefault(requestId, 0);
  }

  /**
   * Checks every invariant.
   *
   * @param view the core's view
   * @throws IllegalStateException listing every violation
   */
  public void check(DvmView view) {
    List<String> p = new ArrayList<>(ledgerProblems);
    p.addAll(problems(view));
    Set<Long> inFlight = new HashSet<>();
    for (DvmView.PendingRequest r : view.pendingRequests()) {
      inFlight.add(r.requestId());
      if (answers(r.requestId()) > 0) {
        p.add("request " + r.requestId() + " is answered yet still in flight");
      }
    }
    for (long id : requested) {
      if (answers(id) == 0 && !inFlight.contains(id)) {
        p.add("request " + id + " is neither answered nor in flight");
      }
    }
    for (DvmView.JobView j : view.jobs()) {
      if (reclaimed.contains(j.sessionId())) {
        p.add("job " + j.nspace() + " is alive in reclaimed session " + j.sessionId());
      }
    }
    if (!p.isEmpty()) {
      throw new IllegalStateException(String.join("; ", p));
    }
  }

  /**
   * The violations the view alone shows.
   *
   * @param view the view
   * @return one line per violation, empty when all hold
   */
  public static List<String> problems(DvmView view) {
    List<String> p = new ArrayList<>();
    Map<String, Long> holder = new HashMap<>();
    List<DvmView.SessionView> all = new ArrayList<>();
    all.add(view.defaultSession());
    all.addAll(view.sessions());
    Map<Long, DvmView.SessionView> byId = new HashMap<>();
    for (DvmView.SessionView s : all) {
      if (byId.put(s.id(), s) != null) {
        p.add("session " + s.id() + " listed twice");
      }
      for (String h : s.hosts()) {
        Long before = holder.put(h, s.id());
        if (before != null) {
          p.add("node " + h + " is in sessions " + before + " and " + s.id());
        }
      }
    }
    Map<String, DvmView.NodeView> nodes = new HashMap<>();
    for (DvmView.NodeView n : view.nodes()) {
      nodes.put(n.host(), n);
      Long s = holder.get(n.host());
      if (s == null) {
        p.add("node " + n.host() + " is in neither the pool nor a session");
      } else if (s != n.sessionId()) {
        p.add("node " + n.host() + " says session " + n.sessionId() + " but is listed by " + s);
      }
    }
    for (String h : holder.keySet()) {
      if (!nodes.containsKey(h)) {
        p.add("session " + holder.get(h) + " lists node " + h + ", unknown to the DVM");
      }
    }
    if (!view.pool().equals(view.defaultSession().hosts())) {
      p.add("the pool is not the default session's nodes");
    }
    Map<String, Integer> listed = new HashMap<>();
    for (DvmView.SessionView s : all) {
      for (String j : s.jobs()) {
        listed.merge(j, 1, Integer::sum);
      }
    }
    Map<String, Integer> used = new HashMap<>();
    Set<String> jobNames = new HashSet<>();
    for (DvmView.JobView j : view.jobs()) {
      jobNames.add(j.nspace());
      DvmView.SessionView s = byId.get(j.sessionId());
      if (s == null) {
        p.add("job " + j.nspace() + " is in session " + j.sessionId() + ", which does not exist");
      } else if (!s.jobs().contains(j.nspace())) {
        p.add("job " + j.nspace() + " is not listed by its session " + j.sessionId());
      }
      if (listed.getOrDefault(j.nspace(), 0) != 1) {
        p.add("job " + j.nspace() + " is listed by " + listed.get(j.nspace()) + " sessions");
      }
      j.procsPerNode().forEach((h, n) -> used.merge(h, n, Integer::sum));
    }
    for (String j : listed.keySet()) {
      if (!jobNames.contains(j)) {
        p.add("a session lists job " + j + ", which is not alive");
      }
    }
    p.addAll(elasticProblems(view));
    used.forEach(
        (h, n) -> {
          DvmView.NodeView nv = nodes.get(h);
          if (nv != null && n > nv.slots()) {
            p.add("node " + h + " runs " + n + " processes on " + nv.slots() + " slots");
          }
        });
    return p;
  }

  /**
   * The elastic DVM's invariants (PRRTE's elastic-DVM spec, issue 14): the fence is the sum of the
   * open campaigns' contributions, each its target count; every held job is alive, waiting, and in
   * exactly one hold (one held at the map boundary has no map yet); no job is mapped onto a node
   * whose daemon is starting; with no campaign open the fence is 0, no job is held and no release
   * is parked.
   *
   * @param view the view
   * @return one line per violation
   */
  public static List<String> elasticProblems(DvmView view) {
    List<String> p = new ArrayList<>();
    DvmView.ElasticView e = view.elastic();
    int sum = 0;
    Set<Long> ranks = new HashSet<>();
    for (DvmView.CampaignView c : e.campaigns()) {
      sum += c.contribution();
      if (c.contribution() != c.targets().size()) {
        p.add("campaign " + c.id() + " adds " + c.contribution() + " for " + c.targets().size());
      }
      if (!c.targets().keySet().containsAll(c.pending())) {
        p.add("campaign " + c.id() + " waits for ranks it does not target");
      }
      for (Long r : c.targets().keySet()) {
        if (!ranks.add(r)) {
          p.add("daemon rank " + r + " is a target of two campaigns");
        }
      }
    }
    if (sum != e.fence()) {
      p.add("fence " + e.fence() + " but the open campaigns add " + sum);
    }
    Map<String, DvmView.JobView> jobs = new HashMap<>();
    for (DvmView.JobView j : view.jobs()) {
      jobs.put(j.nspace(), j);
    }
    Set<String> held = new HashSet<>();
    for (String j : e.heldAtMap()) {
      held.add(j);
      DvmView.JobView jv = jobs.get(j);
      if (jv == null) {
        p.add("held job " + j + " is not alive");
      } else if (!jv.procsPerNode().isEmpty()) {
        p.add("job " + j + " is held before mapping yet has a map");
      }
    }
    for (String j : e.heldAtLaunch()) {
      if (!held.add(j)) {
        p.add("job " + j + " is in both holds");
      }
      if (!jobs.containsKey(j)) {
        p.add("held job " + j + " is not alive");
      }
    }
    for (String j : held) {
      DvmView.JobView jv = jobs.get(j);
      if (jv != null && jv.state() != DvmView.JobState.WAITING_FOR_DAEMONS) {
        p.add("held job " + j + " shows " + jv.state() + ", not WAITING_FOR_DAEMONS");
      }
    }
    Map<String, DaemonState> daemons = new HashMap<>();
    for (DvmView.NodeView n : view.nodes()) {
      daemons.put(n.host(), n.daemon());
    }
    for (DvmView.JobView j : view.jobs()) {
      for (String h : j.procsPerNode().keySet()) {
        if (daemons.get(h) == DaemonState.STARTING) {
          p.add("job " + j.nspace() + " is mapped onto " + h + ", whose daemon is starting");
        }
      }
    }
    if (e.campaigns().isEmpty()
        && (e.fence() != 0
            || !e.heldAtMap().isEmpty()
            || !e.heldAtLaunch().isEmpty()
            || e.deferredReleases() != 0)) {
      p.add(
          "no campaign is open yet fence "
              + e.fence()
              + ", held "
              + held
              + ", parked releases "
              + e.deferredReleases());
    }
    return p;
  }

  /**
   * Checks the launches of one step against the state after it (PRRTE elastic-DVM spec guarantee 2,
   * §7.3): launch data goes only to nodes whose daemon is up, never to one starting or departing.
   *
   * @param decisions the decisions of the step
   * @param after the view after it
   * @return one line per violation
   */
  public static List<String> launchProblems(List<DvmDecision> decisions, DvmView after) {
    List<String> p = new ArrayList<>();
    for (DvmDecision d : decisions) {
      if (d instanceof DvmDecision.LaunchJob l) {
        for (DvmDecision.Placement pl : l.procs()) {
          Optional<DvmView.NodeView> n = after.node(pl.host());
          if (n.isEmpty() || n.get().daemon() != DaemonState.UP) {
            p.add(
                "job "
                    + l.nspace()
                    + " launched onto "
                    + pl.host()
                    + ", whose daemon is "
                    + n.map(v -> v.daemon().name()).orElse("gone"));
          }
        }
      }
    }
    return p;
  }
}
