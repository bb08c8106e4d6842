package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import java.util.Map;

/**
 * The job manager core's invariants, computed from the eventlogs the harness kept and not from the
 * core's own arithmetic: each is registered on the test's {@link InvariantsExtension} and checked
 * after every step.
 */
final class Invariants {
  private Invariants() {}

  static void register(InvariantsExtension inv, Harness h) {
    inv.register("every job's R = alloc R ∪ grants − releases", () -> rFromEventlog(h));
    inv.register("what a job releases is part of its R", () -> releasingHeld(h));
    inv.register("no alloc pending for an allocated or ended job", () -> allocPending(h));
    inv.register("eventlog order per RFC 21", () -> order(h));
    inv.register("restart from the eventlogs rebuilds the live jobs", () -> restart(h));
    inv.register("eventlog entries are decided before anyone is told (D8)", () -> appendsFirst(h));
  }

  private static boolean same(ResourceSet a, ResourceSet b) {
    return a.diff(b).isEmpty() && b.diff(a).isEmpty();
  }

  private static void fail(String why) {
    throw new AssertionError(why);
  }

  /** R = initial R ∪ every R_delta_add − what each release gave back of the granted shrinks. */
  private static void rFromEventlog(Harness h) {
    for (Job j : h.core.jobs()) {
      ResourceSet r = null;
      ResourceSet sub = ResourceSet.empty();
      for (JobEvent e : h.eventlogs.getOrDefault(j.id(), List.of())) {
        JsonNode c = e.context();
        switch (e.name()) {
          case JobEvent.ALLOC -> r = ResourceSet.fromJson(c.get("R"));
          case JobEvent.RESOURCE_UPDATE -> {
            if (c.has("R_delta_add")) {
              r = r.union(ResourceSet.fromJson(c.get("R_delta_add")));
            }
            if (c.has("R_delta_sub")) {
              sub = sub.union(ResourceSet.fromJson(c.get("R_delta_sub")));
            }
          }
          case JobEvent.RELEASE -> {
            if (!c.get("final").asBoolean()) {
              ResourceSet gone = sub.copyRanks(IdSet.parse(c.get("ranks").asText()));
              r = r.diff(gone);
              sub = sub.diff(gone);
            }
          }
          default -> {}
        }
      }
      if (r == null ? j.r() != null : j.r() == null || !same(r, j.r())) {
        fail(
            "job "
                + j.id()
                + ": R "
                + (j.r() == null ? "none" : j.r().summary())
                + ", its eventlog says "
                + (r == null ? "none" : r.summary()));
      }
      if (!same(sub, j.releasing())) {
        fail(
            "job "
                + j.id()
                + ": releasing "
                + j.releasing().summary()
                + ", eventlog "
                + sub.summary());
      }
    }
  }

  private static void releasingHeld(Harness h) {
    for (Job j : h.core.jobs()) {
      if (!j.releasing().isEmpty() && !j.releasing().diff(j.r()).isEmpty()) {
        fail("job " + j.id() + " releases " + j.releasing().summary() + " it does not hold");
      }
    }
  }

  private static void allocPending(Harness h) {
    for (long id : h.core.allocPending()) {
      Job j = h.core.job(id).orElse(null);
      if (j == null || j.allocated() || j.ended()) {
        fail("alloc pending for job " + id + (j == null ? " unknown" : " allocated or ended"));
      }
    }
    if (!h.core.online() && !h.core.allocPending().isEmpty()) {
      fail("allocs pending while the scheduler is offline: " + h.core.allocPending());
    }
  }

  /**
   * RFC 21: submit first; one alloc, after it resource-update and release; free last, once; an
   * exception before alloc is the last entry; timestamps never go back.
   */
  private static void order(Harness h) {
    for (Map.Entry<Long, List<JobEvent>> en : h.eventlogs.entrySet()) {
      List<JobEvent> ev = en.getValue();
      String job = "job " + en.getKey() + ": ";
      if (!ev.get(0).name().equals(JobEvent.SUBMIT)) {
        fail(job + "first entry " + ev.get(0).name());
      }
      boolean alloc = false;
      boolean over = false;
      double t = 0;
      for (int i = 0; i < ev.size(); i++) {
        JobEvent e = ev.get(i);
        if (e.timestamp() < t) {
          fail(job + "entry " + i + " goes back in time");
        }
        t = e.timestamp();
        if (over) {
          fail(job + e.name() + " after the job ended");
        }
        switch (e.name()) {
          case JobEvent.SUBMIT -> {
            if (i != 0) {
              fail(job + "second submit");
            }
          }
          case JobEvent.ALLOC -> {
            if (alloc) {
              fail(job + "second alloc");
            }
            alloc = true;
          }
          case JobEvent.RESOURCE_UPDATE, JobEvent.RELEASE -> {
            if (!alloc) {
              fail(job + e.name() + " before alloc");
            }
          }
          case JobEvent.FREE -> {
            if (!alloc || !ev.get(i - 1).name().equals(JobEvent.RELEASE)) {
              fail(job + "free without alloc and a final release before it");
            }
            over = true;
          }
          case JobEvent.EXCEPTION -> over = !alloc;
          default -> fail(job + "unknown entry " + e.name());
        }
      }
    }
  }

  private static void restart(Harness h) {
    JobManagerCore again = JobManagerCore.recover(h.eventlogs);
    if (again.jobs().size() != h.core.jobs().size()) {
      fail("restart finds " + again.jobs().size() + " job(s), live " + h.core.jobs().size());
    }
    for (Job j : h.core.jobs()) {
      Job k = again.job(j.id()).orElseThrow(() -> new AssertionError("job " + j.id() + " lost"));
      boolean rSame = j.r() == null ? k.r() == null : k.r() != null && same(j.r(), k.r());
      if (!rSame || !same(j.releasing(), k.releasing()) || j.ended() != k.ended()) {
        fail("job " + j.id() + " differs after a restart");
      }
    }
  }

  private static void appendsFirst(Harness h) {
    boolean told = false;
    for (Decision d : h.last) {
      if (d instanceof Decision.Append && told) {
        fail("an entry is appended after a message: " + h.last);
      }
      told |= !(d instanceof Decision.Append || d instanceof Decision.Log);
    }
  }
}
