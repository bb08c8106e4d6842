package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.Waiting;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.NodeList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * PMIX_ALLOC_ACTIVATE, answered by the DVM itself even under a scheduler (PRRTE §7.4.3
 * Flow-of-Control; PRRTE PRs #2721/#2722): PRRTE {@code --activate} entries and hostfiles resolved
 * to the nodes to start daemons on.
 */
final class Activation {
  private final DvmModel m;
  private final DvmCore core;

  Activation(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  void activate(DvmEvent.AllocationRequest r) {
    List<String> specs = new ArrayList<>();
    List<String> files = new ArrayList<>();
    for (Info i : r.infos()) {
      if (i.key().equals(PmixKey.PMIX_HOST)) {
        for (String part : NodeList.split(i.stringValue())) {
          String p = part.strip();
          if (p.startsWith("file=")) {
            files.add(p.substring(5));
          } else {
            specs.add(p);
          }
        }
      } else if (i.key().equals(PmixKey.PMIX_HOSTFILE)) {
        files.add(i.stringValue());
      }
    }
    if (specs.isEmpty() && files.isEmpty()) {
      throw Refused.badParam("PMIX_ALLOC_ACTIVATE without PMIX_HOST or PMIX_HOSTFILE");
    }
    List<NodeRec> chosen = resolveActivation(r.from(), specs);
    if (files.isEmpty()) {
      finishActivation(r, chosen);
      return;
    }
    Pending p = new Pending(r, "alloc ACTIVATE", Waiting.FILE);
    p.files = new LinkedHashMap<>();
    for (String f : files) {
      if (f.isEmpty()) {
        throw Refused.badParam("PMIX_HOSTFILE \"\": empty path");
      }
      p.files.put(f, null);
    }
    m.pending.put(r.requestId(), p);
    for (String f : p.files.keySet()) {
      m.out.add(new DvmDecision.ReadFile(r.requestId(), f));
    }
  }

  /** The nodes held by {@code from}: the pool and the sessions it controls, in DVM order. */
  private List<NodeRec> held(Client from) {
    List<NodeRec> l = new ArrayList<>();
    for (NodeRec n : m.nodes.values()) {
      if (n.session.isDefault() || m.controls(m.isScheduler(from), from, n.session)) {
        l.add(n);
      }
    }
    return l;
  }

  /**
   * Resolves PRRTE {@code --activate} entries: names, {@code +all}, {@code +n<K>}; slot suffixes
   * and {@code +e} are refused (PRRTE PRs #2721/#2722); all or nothing.
   */
  private List<NodeRec> resolveActivation(Client from, List<String> specs) {
    List<NodeRec> held = held(from);
    LinkedHashSet<NodeRec> chosen = new LinkedHashSet<>();
    for (String s : specs) {
      if (s.isEmpty()) {
        throw Refused.badParam("PMIX_HOST: an empty entry");
      }
      if (s.equals("+all")) {
        for (NodeRec n : held) {
          if (n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
            chosen.add(n);
          }
        }
      } else if (s.startsWith("+e")) {
        throw Refused.badParam("PMIX_HOST " + s + ": empty nodes (+e) cannot be activated");
      } else if (s.startsWith("+n")) {
        String k = s.substring(2);
        if (k.isEmpty() || k.length() > 6 || !k.chars().allMatch(c -> c >= '0' && c <= '9')) {
          throw Refused.badParam("PMIX_HOST " + s + ": expected +n<index>");
        }
        int idx = Integer.parseInt(k);
        if (idx >= held.size()) {
          throw Refused.notFound("PMIX_HOST " + s + ": only " + held.size() + " nodes are held");
        }
        chosen.add(held.get(idx));
      } else {
        for (NodeList.Entry e : Requests.nodes(PmixKey.PMIX_HOST, s, false)) {
          chosen.add(heldNode(from, held, e.host()));
        }
      }
    }
    return new ArrayList<>(chosen);
  }

  private NodeRec heldNode(Client from, List<NodeRec> held, String host) {
    NodeRec n = m.nodes.get(host);
    if (n == null) {
      throw Refused.notFound("PMIX_ALLOC_ACTIVATE: node " + host + " is not allocated to the DVM");
    }
    if (!held.contains(n)) {
      throw Refused.noPermissions(
          "PMIX_ALLOC_ACTIVATE: node "
              + host
              + " is held by session "
              + n.session.id
              + ", not by "
              + from.proc().nspace());
    }
    return n;
  }

  void onFileRead(DvmEvent.FileRead e) {
    Pending p = m.pending.get(e.requestId());
    if (p == null
        || p.files == null
        || !p.files.containsKey(e.path())
        || p.files.get(e.path()) != null) {
      return;
    }
    DvmEvent.AllocationRequest r = (DvmEvent.AllocationRequest) p.request;
    if (e.content().isEmpty()) {
      m.refuse(
          r.requestId(),
          PmixStatus.PMIX_ERR_NOT_FOUND,
          "PMIX_HOSTFILE " + e.path() + ": cannot be read: " + e.error());
      return;
    }
    p.files.put(e.path(), e.content().get());
    if (p.files.containsValue(null)) {
      return;
    }
    try {
      List<String> specs = new ArrayList<>();
      for (Info i : r.infos()) {
        if (i.key().equals(PmixKey.PMIX_HOST)) {
          for (String part : NodeList.split(i.stringValue())) {
            if (!part.strip().startsWith("file=")) {
              specs.add(part.strip());
            }
          }
        }
      }
      for (Map.Entry<String, String> f : p.files.entrySet()) {
        specs.addAll(hostfileNames(f.getKey(), f.getValue()));
      }
      finishActivation(r, resolveActivation(r.from(), specs));
    } catch (Refused ex) {
      m.refuse(r.requestId(), ex, Optional.empty());
    }
  }

  /** The host names of a hostfile: one per line, {@code slots=} and comments ignored. */
  private static List<String> hostfileNames(String path, String text) {
    List<String> l = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      line = line.strip();
      if (line.isEmpty()) {
        continue;
      }
      String name = line.split("\\s+")[0];
      if (name.contains(":") || name.startsWith("+")) {
        throw Refused.badParam(
            "PMIX_HOSTFILE " + path + " line " + (i + 1) + ": \"" + name + "\" is not a host name");
      }
      l.add(name);
    }
    if (l.isEmpty()) {
      throw Refused.badParam("PMIX_HOSTFILE " + path + ": names no host");
    }
    return l;
  }

  private void finishActivation(DvmEvent.AllocationRequest r, List<NodeRec> chosen) {
    List<String> started = new ArrayList<>();
    for (NodeRec n : chosen) {
      if (n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
        m.startDaemon(n);
        started.add(n.host);
      }
    }
    Optional<String> reqId = AllocationAnswer.reqIdOf(r.infos());
    core.campaigns.growCampaign(r.from().proc(), Optional.empty(), reqId, started);
    m.answer(r.requestId(), PmixStatus.PMIX_SUCCESS, InfoWriter.create().reqId(reqId).infos());
  }
}
