package io.fluxdrm.jobmanager.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.jobmanager.JobManagerException;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.testkit.InvariantsExtension;
import io.fluxdrm.testkit.StepTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Drives a {@link JobManagerCore} step by step with a fake clock, as sched-simple's harness drives
 * the scheduler core: each step is one input, its decisions and the state after it are compared
 * with a step table's row, and the registered invariants are checked after every step. The harness
 * keeps what the core asked to append, per job: the eventlog a service would have written, from
 * which {@code restart} rebuilds the core (flux-core's restart).
 *
 * <p>Table rows are {@code event | decisions ("; " between, log lines left out) | state}. Events:
 *
 * <ul>
 *   <li>{@code submit UID}, {@code register ID UID RANKS}, {@code finish ID}, {@code raise ID
 *       NOTE};
 *   <li>the scheduler: {@code hello}, {@code ready}, {@code down WHY}, {@code success ID RANKS
 *       [ANNOTATIONS-JSON]}, {@code annotate ID ANNOTATIONS-JSON}, {@code deny ID NOTE}, {@code
 *       cancel ID}, {@code badalloc ID} (type 7);
 *   <li>RFC 51 answers to a forwarded realloc: {@code grow ID RANKS} (SUCCESS, R_delta_add the
 *       pool's RANKS), {@code shrink ID RANKS} (SUCCESS, R_delta_sub the job's RANKS), {@code rdeny
 *       ID NOTE}, {@code rcancel ID}, {@code rfail ID ERRNO}; {@code release ID RANKS};
 *   <li>{@code restart}: a new core recovered from the eventlogs kept so far.
 * </ul>
 *
 * A refused input is shown as {@code refused ERRNO: message} (or {@code refused: message} for a
 * {@link JobManagerException}), and the harness checks it changed nothing.
 */
final class Harness {
  final ResourceSet pool;
  final InvariantsExtension inv;
  JobManagerCore core = JobManagerCore.recover(Map.of());
  final Map<Long, List<JobEvent>> eventlogs = new TreeMap<>(Long::compareUnsigned);
  List<Decision> last = List.of();
  double now = 1000.0;

  static final JsonNode JOBSPEC = Json.object().put("version", 1);

  Harness(ResourceSet pool, InvariantsExtension inv) {
    this.pool = pool;
    this.inv = inv;
    Invariants.register(inv, this);
  }

  /** {@code n} nodes {@code node[0-(n-1)]} of {@code cores} cores. */
  static ResourceSet pool(int n, int cores) {
    return ResourceSet.of(
        IdSet.range(0, n - 1),
        IdSet.range(0, cores - 1),
        IdSet.empty(),
        Hostlist.parse(n == 1 ? "node0" : "node[0-" + (n - 1) + "]"));
  }

  /** Runs one input one second after the previous one; keeps its appends; checks invariants. */
  List<Decision> step(Input in, String where) {
    now += 1;
    List<Decision> out = core.handle(in, now);
    for (Decision d : out) {
      if (d instanceof Decision.Append a) {
        eventlogs.computeIfAbsent(a.jobId(), k -> new ArrayList<>()).add(a.entry());
      }
    }
    last = out;
    inv.check(where);
    return out;
  }

  void run(String table) {
    for (StepTable.Row row : StepTable.parse(table, 3)) {
      String where = row.where();
      String before = state();
      String got;
      if (row.cell(0).equals("restart")) {
        core = JobManagerCore.recover(eventlogs);
        last = List.of();
        inv.check(where);
        got = "";
      } else {
        try {
          got = describe(step(input(row.cell(0)), where));
        } catch (RpcException e) {
          got = "refused " + Errno.name(e.errnum()) + ": " + e.getMessage();
          assertThat(state()).as(where + ": a refused input changes nothing").isEqualTo(before);
        } catch (JobManagerException e) {
          got = "refused: " + e.getMessage();
          assertThat(state()).as(where + ": a refused input changes nothing").isEqualTo(before);
        }
      }
      assertThat(got).as(where + " (decisions)").isEqualTo(row.cell(1));
      assertThat(state()).as(where + " (state after)").isEqualTo(row.cell(2));
    }
  }

  private Input input(String op) {
    String[] t = op.split("\\s+", 4);
    long id = t.length > 1 && t[1].matches("\\d+") ? Long.parseLong(t[1]) : 0;
    switch (t[0]) {
      case "submit":
        return new Input.Submit(JOBSPEC, Integer.parseInt(t[1]));
      case "register":
        return new Input.Register(id, Integer.parseInt(t[2]), ranks(pool, t[3]));
      case "finish":
        return new Input.Finish(id);
      case "raise":
        return new Input.Raise(id, "test", 1, rest(op, 2));
      case "hello":
        return new Input.Hello();
      case "ready":
        return new Input.Ready();
      case "down":
        return new Input.SchedulerDown(rest(op, 1));
      case "success":
        {
          ObjectNode p = alloc(id, 0);
          p.set("R", ranks(pool, t[2]).toJson());
          if (t.length > 3) {
            p.set("annotations", parse(t[3]));
          }
          return new Input.AllocResponse(id, p);
        }
      case "annotate":
        return new Input.AllocResponse(id, alloc(id, 1).set("annotations", parse(rest(op, 2))));
      case "deny":
        return new Input.AllocResponse(id, alloc(id, 2).put("note", rest(op, 2)));
      case "cancel":
        return new Input.AllocResponse(id, alloc(id, 3));
      case "badalloc":
        return new Input.AllocResponse(id, alloc(id, 7));
      case "grow":
        return new Input.ReallocAnswer(
            id,
            realloc(ReallocResponseType.SUCCESS).set("R_delta_add", ranks(pool, t[2]).toJson()));
      case "shrink":
        return new Input.ReallocAnswer(
            id,
            realloc(ReallocResponseType.SUCCESS)
                .set("R_delta_sub", ranks(core.job(id).orElseThrow().r(), t[2]).toJson()));
      case "rdeny":
        return new Input.ReallocAnswer(
            id, realloc(ReallocResponseType.DENY).put("note", rest(op, 2)));
      case "rcancel":
        return new Input.ReallocAnswer(id, realloc(ReallocResponseType.CANCEL));
      case "rfail":
        return new Input.ReallocFailed(id, errno(t[2]), t[2] + " from the scheduler");
      case "release":
        return new Input.Release("job-manager.release", id, IdSet.parse(t[2]), null);
      default:
        throw new IllegalArgumentException("unknown step event: " + op);
    }
  }

  private static int errno(String name) {
    switch (name) {
      case "ENOSYS":
        return Errno.ENOSYS;
      case "ENOENT":
        return Errno.ENOENT;
      case "EIO":
        return Errno.EIO;
      default:
        throw new IllegalArgumentException(
            "step table: errno " + name + " (expected: ENOSYS, ENOENT or EIO)");
    }
  }

  private static String rest(String op, int words) {
    String[] t = op.split("\\s+", words + 1);
    return t.length > words ? t[words] : "";
  }

  private static ResourceSet ranks(ResourceSet of, String ranks) {
    return of.copyRanks(IdSet.parse(ranks));
  }

  private static JsonNode parse(String json) {
    try {
      return Json.mapper().readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException("step table: not JSON: " + json, e);
    }
  }

  private static ObjectNode alloc(long id, int type) {
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(id));
    p.put("type", type);
    return p;
  }

  private static ObjectNode realloc(ReallocResponseType type) {
    return Json.object().put("alloc_id", 1).put("type", type.code());
  }

  /** Compact text of the decisions, log lines left out. */
  static String describe(List<Decision> out) {
    List<String> s = new ArrayList<>();
    for (Decision d : out) {
      if (!(d instanceof Decision.Log)) {
        s.add(describe(d));
      }
    }
    return String.join("; ", s);
  }

  static String describe(Decision d) {
    if (d instanceof Decision.Append a) {
      return "log " + a.jobId() + " " + a.entry().name();
    }
    if (d instanceof Decision.SendAlloc s) {
      return "sched.alloc " + s.jobId();
    }
    if (d instanceof Decision.SendFree f) {
      return "sched.free " + f.jobId() + " " + f.r().summary() + (f.isFinal() ? " final" : "");
    }
    if (d instanceof Decision.Submitted s) {
      return "submitted " + s.jobId();
    }
    if (d instanceof Decision.Allocated a) {
      return "allocated " + a.jobId();
    }
    if (d instanceof Decision.AllocFailed f) {
      return "failed " + f.jobId() + ": " + f.message();
    }
    if (d instanceof Decision.HelloJob h) {
      return "hello "
          + h.payload().get("id")
          + " "
          + ResourceSet.fromJson(h.payload().get("R")).summary();
    }
    if (d instanceof Decision.Respond r) {
      return "respond " + payload(r.payload());
    }
    if (d instanceof Decision.Fail f) {
      return "fail " + Errno.name(f.errnum()) + ": " + f.message();
    }
    throw new AssertionError(d);
  }

  private static String payload(ObjectNode p) {
    Map<String, String> parts = new LinkedHashMap<>();
    p.properties()
        .forEach(
            e ->
                parts.put(
                    e.getKey(),
                    e.getKey().startsWith("R")
                        ? ResourceSet.fromJson(e.getValue()).summary()
                        : e.getKey().equals("type")
                            ? ReallocResponseType.of(e.getValue().asInt()).orElseThrow().name()
                            : e.getValue().toString()));
    List<String> s = new ArrayList<>();
    parts.forEach((k, v) -> s.add(k + "=" + v));
    return s.isEmpty() ? "{}" : String.join(" ", s);
  }

  /**
   * The state: {@code online} or {@code offline}, then each job: {@code ID queued}, {@code ID
   * pending} (alloc in flight), {@code ID held R [releasing R]}, {@code ID ended}.
   */
  String state() {
    List<String> s = new ArrayList<>();
    s.add(core.online() ? "online" : "offline");
    for (Job j : core.jobs()) {
      String id = Long.toUnsignedString(j.id());
      if (j.ended()) {
        s.add(id + " ended");
      } else if (j.allocated()) {
        s.add(
            id
                + " held "
                + j.r().summary()
                + (j.releasing().isEmpty() ? "" : " releasing " + j.releasing().summary()));
      } else {
        s.add(id + (core.allocPending().contains(j.id()) ? " pending" : " queued"));
      }
    }
    return String.join("; ", s);
  }
}
