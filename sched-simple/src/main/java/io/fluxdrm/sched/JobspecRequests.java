package io.fluxdrm.sched;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.jobspec.Count;
import io.fluxdrm.jobspec.Counts;
import io.fluxdrm.jobspec.JobspecException;
import io.fluxdrm.rset.Constraint;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.schemas.Violation;

/**
 * Reads the {@link ResourceRequest} of a jobspec as flux-core's sched-simple does ({@code
 * ResourceRequest.from_jobspec}, 08-sched-simple.md §1): the counts of the resource graph (through
 * {@link Counts}), the duration and the RFC 31 constraint.
 *
 * <p>A jobspec the counts cannot be read from is refused with a {@link SchedException} whose
 * message is the DENY note {@code cannot parse jobspec: <where>: <why>}; a stepped or discrete
 * count set ({@code *}, {@code ^}, an operand other than 1, an idset string) or a count beyond what
 * a pool can hold is refused with an {@code unsatisfiable request: ...} note, as flux-core treats
 * it as an infeasible request.
 */
public final class JobspecRequests {

  /** The prefix of the note for a jobspec whose counts cannot be read. */
  public static final String PARSE_PREFIX = "cannot parse jobspec: ";

  /** The prefix of the note for a request no pool can satisfy. */
  public static final String UNSATISFIABLE_PREFIX = "unsatisfiable request: ";

  private JobspecRequests() {}

  /**
   * The request of a jobspec document.
   *
   * @throws SchedException with the DENY note when the jobspec cannot be read or names a count set
   *     the scheduler does not serve
   */
  public static ResourceRequest of(JsonNode jobspec) {
    Counts c;
    try {
      c = Counts.of(jobspec);
    } catch (JobspecException e) {
      Violation v = e.violations().get(0);
      throw new SchedException(PARSE_PREFIX + location(v) + v.message());
    }
    Constraint constraint = null;
    if (c.constraint().isPresent()) {
      try {
        constraint = Constraint.parse(c.constraint().get().toJson());
      } catch (RsetException e) {
        throw new SchedException(PARSE_PREFIX + e.getMessage());
      }
    }
    boolean hasNode = !(c.nnodes() instanceof Count.Fixed f && f.value() == 0);
    ResourceRequest.Count slots = count("slot", c.nslots(), 1);
    int slotSize = (int) Math.min(Integer.MAX_VALUE, plain("core", c.slotSize()).min());
    if (c.slotGpus() > Integer.MAX_VALUE) {
      throw unsatisfiable(
          "gpu count " + c.slotGpus() + " (expected: at most " + Integer.MAX_VALUE + ")");
    }
    ResourceRequest.Count nodes = null;
    if (hasNode) {
      nodes = count("node", c.nnodes(), Math.max(1, c.nodefactor()));
      slots = ResourceRequest.Count.exactly(slots.min());
    }
    try {
      return new ResourceRequest(
          nodes, slots, slotSize, (int) c.slotGpus(), c.exclusive(), c.duration(), constraint);
    } catch (SchedException e) {
      throw new SchedException(PARSE_PREFIX + e.getMessage());
    }
  }

  private static String location(Violation v) {
    return v.pointer().isEmpty() ? "" : v.pointer() + ": ";
  }

  /** A count as a plain range, refusing stepped and discrete sets. */
  private static Count plain(String what, Count c) {
    if (c instanceof Count.Values v) {
      throw unsatisfiable(
          what + " count \"" + v.idset() + "\" is a set of values (expected: a number or a range)");
    }
    if (c instanceof Count.Range r && (r.operator() != '+' || r.operand() != 1)) {
      throw unsatisfiable(
          what + " count " + r + " is stepped (expected: a number or a range with step 1)");
    }
    return c;
  }

  private static ResourceRequest.Count count(String what, Count c, long factor) {
    Count p = plain(what, c);
    long min = times(what, p.min(), factor);
    long max;
    if (p instanceof Count.Range r) {
      max = r.unbounded() ? ResourceRequest.Count.UNBOUNDED : times(what, r.max(), factor);
    } else {
      max = min;
    }
    if (min > Integer.MAX_VALUE) {
      throw unsatisfiable(
          what + " count " + min + " (expected: at most " + Integer.MAX_VALUE + ")");
    }
    return new ResourceRequest.Count((int) min, (int) Math.min(max, Integer.MAX_VALUE));
  }

  private static long times(String what, long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw unsatisfiable(what + " count " + a + " x " + b + " overflows");
    }
  }

  private static SchedException unsatisfiable(String why) {
    return new SchedException(UNSATISFIABLE_PREFIX + why);
  }
}
