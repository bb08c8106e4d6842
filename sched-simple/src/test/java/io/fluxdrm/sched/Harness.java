package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives a {@link SchedulerCore} step by step with a fake clock, checking the pool's invariants
 * after every step, and keeps every decision for assertions.
 */
final class Harness {

  final SchedulerCore core;
  final List<Decision> log = new ArrayList<>();
  double now = 1000.0;

  Harness(ResourceSet pool, SchedulerOptions options) {
    core = SchedulerCore.of(pool, options);
    core.pool().checkInvariants();
  }

  /** {@code n} nodes {@code node[0-(n-1)]} with {@code cores} cores and {@code gpus} GPUs each. */
  static ResourceSet pool(int n, int cores, int gpus) {
    return ResourceSet.of(
        IdSet.range(0, n - 1),
        IdSet.range(0, cores - 1),
        gpus == 0 ? IdSet.empty() : IdSet.range(0, gpus - 1),
        Hostlist.parse(n == 1 ? "node0" : "node[0-" + (n - 1) + "]"));
  }

  /** Handles one event one second after the previous one; checks the invariants. */
  List<Decision> step(SchedEvent e) {
    now += 1;
    List<Decision> out = core.handle(e, now);
    PoolAssert.assertThatPool(core.pool()).as("after " + e).conserves();
    log.addAll(out);
    return out;
  }

  List<Decision> alloc(long id, ResourceRequest req) {
    return step(new SchedEvent.Alloc(id, 16, 1000, now, req));
  }

  List<Decision> alloc(long id, long priority, ResourceRequest req) {
    return step(new SchedEvent.Alloc(id, priority, 1000, now, req));
  }

  List<Decision> freeAll(long id) {
    return step(new SchedEvent.Free(id, core.pool().allocation(id).orElseThrow(), true));
  }

  List<Decision> cancel(long id) {
    return step(new SchedEvent.Cancel(id));
  }

  List<Decision> realloc(
      long job, long matchtag, ResourceRequest add, ResourceRequest sub, ResourceSet r) {
    return step(new SchedEvent.Realloc(job, matchtag, "jm", 1000, add, sub, r));
  }

  /** The summary granted to {@code id} by an AllocSuccess in {@code out}, or null. */
  static String granted(List<Decision> out, long id) {
    for (Decision d : out) {
      if (d instanceof Decision.AllocSuccess s && s.jobId() == id) {
        return s.resourceSummary();
      }
    }
    return null;
  }

  /** Compact text of each decision, for whole-sequence assertions. */
  static List<String> describe(List<Decision> out) {
    List<String> s = new ArrayList<>();
    for (Decision d : out) {
      s.add(describe(d));
    }
    return s;
  }

  static String describe(Decision d) {
    if (d instanceof Decision.AllocSuccess s) {
      return "success " + s.jobId() + " " + s.resourceSummary();
    }
    if (d instanceof Decision.AllocDeny x) {
      return "deny " + x.jobId() + " " + x.note();
    }
    if (d instanceof Decision.AllocCancel x) {
      return "cancel " + x.jobId();
    }
    if (d instanceof Decision.ReallocResponse x) {
      StringBuilder sb =
          new StringBuilder("realloc " + x.jobId() + " tag " + x.matchtag() + " " + x.type());
      if (x.rDeltaAdd() != null) {
        sb.append(" add ").append(x.rDeltaAdd().summary());
      }
      if (x.rDeltaSub() != null) {
        sb.append(" sub ").append(x.rDeltaSub().summary());
      }
      if (x.note() != null) {
        sb.append(" note ").append(x.note());
      }
      return sb.toString();
    }
    if (d instanceof Decision.Rejected x) {
      return "rejected " + Errno.name(x.errnum()) + " " + x.message();
    }
    if (d instanceof Decision.Freed x) {
      return "freed " + x.jobId() + " " + x.r().summary() + (x.isFinal() ? " final" : "");
    }
    if (d instanceof Decision.Restored x) {
      return "restored " + x.jobId() + " " + x.r().summary();
    }
    if (d instanceof Decision.JobException x) {
      return "exception " + x.jobId() + " " + x.type() + " " + x.note();
    }
    if (d instanceof Decision.ExpirationSet x) {
      return "expiration " + x.jobId() + " " + x.expiration();
    }
    throw new AssertionError(d);
  }

  /**
   * Runs a step table, one step a line: {@code operation | decisions ("; " between) | free set
   * after}; blank lines and lines starting with {@code #} are skipped. Operations:
   *
   * <ul>
   *   <li>{@code alloc ID [p=PRIO] SHAPE}, {@code free ID} (final), {@code pfree ID RANKS} (the
   *       job's resources on those ranks, not final), {@code cancel ID}, {@code prio ID=P,...},
   *       {@code up RANKS}, {@code down RANKS}, {@code expire ID T};
   *   <li>{@code grow JOB TAG SHAPE [r=RANKS]}, {@code shrink JOB TAG SHAPE [r=RANKS]} (R = the
   *       job's resources on RANKS), {@code rcancel TAG}, {@code disconnect SENDER} (reallocs are
   *       sent by {@code jm} unless {@code from=SENDER} is given);
   * </ul>
   *
   * SHAPE tokens: {@code n=NODES s=SLOTS c=CORES g=GPUS x} (exclusive) {@code t=DURATION} {@code
   * req=CONSTRAINT-JSON}.
   */
  void run(String table) {
    int lineNo = 0;
    for (String line : table.split("\n")) {
      lineNo++;
      if (line.isBlank() || line.strip().startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\\|", -1);
      if (cols.length != 3) {
        throw new IllegalArgumentException("step " + lineNo + ": expected 3 columns: " + line);
      }
      List<Decision> out = step(parse(cols[0].strip()));
      String where = "step " + lineNo + ": " + cols[0].strip();
      assertThat(String.join("; ", describe(out))).as(where).isEqualTo(cols[1].strip());
      assertThat(free()).as(where + " (free after)").isEqualTo(cols[2].strip());
    }
  }

  private SchedEvent parse(String op) {
    String[] t = op.split("\\s+");
    switch (t[0]) {
      case "alloc":
        {
          long prio = 16;
          int from = 2;
          if (t.length > 2 && t[2].startsWith("p=")) {
            prio = Long.parseLong(t[2].substring(2));
            from = 3;
          }
          return new SchedEvent.Alloc(Long.parseLong(t[1]), prio, 1000, now, shape(t, from));
        }
      case "free":
        {
          long id = Long.parseLong(t[1]);
          return new SchedEvent.Free(
              id, core.pool().allocation(id).orElse(ResourceSet.empty()), true);
        }
      case "pfree":
        {
          long id = Long.parseLong(t[1]);
          return new SchedEvent.Free(
              id, core.pool().allocation(id).orElseThrow().copyRanks(IdSet.parse(t[2])), false);
        }
      case "cancel":
        return new SchedEvent.Cancel(Long.parseLong(t[1]));
      case "prio":
        {
          List<SchedEvent.JobPriority> jp = new ArrayList<>();
          for (String kv : t[1].split(",")) {
            String[] x = kv.split("=");
            jp.add(new SchedEvent.JobPriority(Long.parseLong(x[0]), Long.parseLong(x[1])));
          }
          return new SchedEvent.Prioritize(jp);
        }
      case "up":
        return new SchedEvent.ResourceUpdate(IdSet.parse(t[1]), IdSet.empty());
      case "down":
        return new SchedEvent.ResourceUpdate(IdSet.empty(), IdSet.parse(t[1]));
      case "expire":
        return new SchedEvent.Expiration(Long.parseLong(t[1]), Double.parseDouble(t[2]));
      case "grow":
      case "shrink":
        {
          long job = Long.parseLong(t[1]);
          long tag = Long.parseLong(t[2]);
          ResourceRequest req = shape(t, 3);
          ResourceSet r = null;
          String sender = "jm";
          for (String tok : t) {
            if (tok.startsWith("r=")) {
              IdSet ranks = IdSet.parse(tok.substring(2));
              r =
                  t[0].equals("shrink")
                      ? core.pool().allocation(job).orElseThrow().copyRanks(ranks)
                      : core.pool().all().copyRanks(ranks);
            } else if (tok.startsWith("from=")) {
              sender = tok.substring(5);
            }
          }
          return t[0].equals("grow")
              ? new SchedEvent.Realloc(job, tag, sender, 1000, req, null, r)
              : new SchedEvent.Realloc(job, tag, sender, 1000, null, req, r);
        }
      case "rcancel":
        return new SchedEvent.ReallocCancel(
            t.length > 2 ? t[2].substring(5) : "jm", Long.parseLong(t[1]));
      case "disconnect":
        return new SchedEvent.Disconnect(t[1]);
      default:
        throw new IllegalArgumentException("unknown step operation: " + op);
    }
  }

  /** A request from SHAPE tokens {@code t[from..]}; tokens it does not know are skipped. */
  static ResourceRequest shape(String[] t, int from) {
    Integer nodes = null;
    int slots = 1;
    int cores = 1;
    int gpus = 0;
    boolean excl = false;
    double dur = 0;
    io.fluxdrm.rset.Constraint c = null;
    for (int i = from; i < t.length; i++) {
      String tok = t[i];
      if (tok.equals("x")) {
        excl = true;
      } else if (tok.startsWith("n=")) {
        nodes = Integer.parseInt(tok.substring(2));
      } else if (tok.startsWith("s=")) {
        slots = Integer.parseInt(tok.substring(2));
      } else if (tok.startsWith("c=")) {
        cores = Integer.parseInt(tok.substring(2));
      } else if (tok.startsWith("g=")) {
        gpus = Integer.parseInt(tok.substring(2));
      } else if (tok.startsWith("t=")) {
        dur = Double.parseDouble(tok.substring(2));
      } else if (tok.startsWith("req=")) {
        c = io.fluxdrm.rset.Constraint.parse(tok.substring(4));
      }
    }
    return new ResourceRequest(
        nodes == null ? null : ResourceRequest.Count.exactly(nodes),
        ResourceRequest.Count.exactly(slots),
        cores,
        gpus,
        excl,
        dur,
        c);
  }

  String free() {
    return core.pool().free().summary();
  }

  String held(long id) {
    return core.pool().allocation(id).map(ResourceSet::summary).orElse("");
  }

  void assertFree(String summary) {
    PoolAssert.assertThatPool(core.pool()).hasFree(summary);
  }
}
