package io.fluxdrm.showcase.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import java.util.Locale;
import java.util.Objects;

/**
 * One line of the demo's timeline: what a step did and what came back, with the story's expectation
 * and the pool's state right after it.
 *
 * @param elapsedMs milliseconds since the demo's world started
 * @param name the step's name in the story (stable, for machines)
 * @param actor who acts in the step: a job's application ({@code A}, {@code B}), the DVM's
 *     scheduler ({@code bridge}), the DVM ({@code dvm}) or the whole pool ({@code pool})
 * @param jobId the job the step acts for, or 0 for the whole pool
 * @param action what was asked, in words
 * @param outcome what came back: a PMIx status name, {@code allocated}, {@code waiting}, {@code
 *     held}, {@code sched.free final:false}, {@code conserved}..., always read from a real answer
 *     or event
 * @param expected the outcome the story expects
 * @param detail the answer's particulars (node lists, alloc ids, messages)
 * @param freeNodes nodes the scheduler has free after the step
 * @param poolNodes nodes in the pool
 */
public record Step(
    long elapsedMs,
    String name,
    String actor,
    long jobId,
    String action,
    String outcome,
    String expected,
    String detail,
    int freeNodes,
    int poolNodes) {

  public Step {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(detail, "detail");
  }

  /** Whether the outcome is the story's expectation. */
  public boolean ok() {
    return outcome.equals(expected);
  }

  /** The job id in RFC 19 F58 ({@code ƒ2}), as flux prints it, or {@code -} for the pool. */
  public String job() {
    return jobId == 0 ? "-" : f58(jobId);
  }

  /** RFC 19 F58 of an unsigned 64-bit job id, with the {@code ƒ} prefix. */
  static String f58(long id) {
    return JobId.f58(id);
  }

  /** The timeline line for people. */
  public String toLine() {
    String out = outcome + (ok() ? "" : " (expected: " + expected + ")");
    return String.format(
        Locale.ROOT,
        "%6d ms  %-6s %-4s %-50s %-26s %s%s| free %d/%d nodes",
        elapsedMs,
        actor,
        job(),
        action,
        out,
        detail,
        detail.isEmpty() ? "" : " ",
        freeNodes,
        poolNodes);
  }

  /** The line for machines: one JSON object. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("elapsed_ms", elapsedMs);
    o.put("step", name);
    o.put("actor", actor);
    if (jobId != 0) {
      o.put("job", job());
      o.set("id", JobId.json(jobId));
    }
    o.put("action", action);
    o.put("outcome", outcome);
    o.put("expected", expected);
    o.put("ok", ok());
    if (!detail.isEmpty()) {
      o.put("detail", detail);
    }
    o.put("free_nodes", freeNodes);
    o.put("pool_nodes", poolNodes);
    return o;
  }
}
