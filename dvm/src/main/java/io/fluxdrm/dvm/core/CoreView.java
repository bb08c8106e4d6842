package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.port.Client;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The read-only {@link DvmView} of a core's model. */
final class CoreView implements DvmView {
  private final DvmModel m;

  CoreView(DvmModel m) {
    this.m = m;
  }

  @Override
  public ElasticView elastic() {
    List<CampaignView> cs = new ArrayList<>();
    for (Campaign c : m.open.values()) {
      Map<Long, String> t = new LinkedHashMap<>();
      c.targets.forEach((r, n) -> t.put(r, n.host));
      List<String> rids = new ArrayList<>();
      c.requesters.forEach(r -> r.reqId().ifPresent(rids::add));
      cs.add(
          new CampaignView(c.id, c.grow, t, c.pending, c.requesters.size(), rids, c.contribution));
    }
    List<String> atMap = new ArrayList<>();
    m.heldAtMap.forEach(j -> atMap.add(j.nspace));
    List<String> l = new ArrayList<>();
    m.heldAtLaunch.forEach(j -> l.add(j.nspace));
    return new ElasticView(m.fence, cs, atMap, l, m.deferredReleases.size());
  }

  @Override
  public String master() {
    return m.config.master();
  }

  @Override
  public String dvmNspace() {
    return m.config.dvmNspace();
  }

  @Override
  public Optional<Client> scheduler() {
    return Optional.ofNullable(m.scheduler);
  }

  @Override
  public List<NodeView> nodes() {
    List<NodeView> l = new ArrayList<>(m.nodes.size());
    for (NodeRec n : m.nodes.values()) {
      l.add(n.view());
    }
    return l;
  }

  @Override
  public Optional<NodeView> node(String host) {
    NodeRec n = m.nodes.get(host);
    return n == null ? Optional.empty() : Optional.of(n.view());
  }

  @Override
  public List<String> pool() {
    return DvmModel.hosts(m.dflt);
  }

  @Override
  public SessionView defaultSession() {
    return m.dflt.view();
  }

  @Override
  public List<SessionView> sessions() {
    List<SessionView> l = new ArrayList<>(m.sessions.size());
    for (SessionRec s : m.sessions.values()) {
      l.add(s.view());
    }
    return l;
  }

  @Override
  public Optional<SessionView> session(long id) {
    if (id == DEFAULT_SESSION) {
      return Optional.of(m.dflt.view());
    }
    SessionRec s = m.sessions.get(id);
    return s == null ? Optional.empty() : Optional.of(s.view());
  }

  @Override
  public List<JobView> jobs() {
    List<JobView> l = new ArrayList<>(m.jobs.size());
    for (JobRec j : m.jobs.values()) {
      l.add(j.view());
    }
    return l;
  }

  @Override
  public Optional<JobView> job(String nspace) {
    JobRec j = m.jobs.get(nspace);
    return j == null ? Optional.empty() : Optional.of(j.view());
  }

  @Override
  public List<PendingRequest> pendingRequests() {
    List<PendingRequest> l = new ArrayList<>(m.pending.size());
    for (Map.Entry<Long, Pending> e : m.pending.entrySet()) {
      Pending p = e.getValue();
      l.add(new PendingRequest(e.getKey(), p.request.from(), p.request.via(), p.what, p.waiting));
    }
    return l;
  }
}
