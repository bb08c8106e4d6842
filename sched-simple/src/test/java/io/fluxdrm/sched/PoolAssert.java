package io.fluxdrm.sched;

import io.fluxdrm.rset.ResourceSet;
import org.assertj.core.api.AbstractAssert;

/** AssertJ assertions on a {@link ResourcePool}, in the summary notation of flux-core. */
final class PoolAssert extends AbstractAssert<PoolAssert, ResourcePool> {

  private PoolAssert(ResourcePool actual) {
    super(actual, PoolAssert.class);
  }

  static PoolAssert assertThatPool(ResourcePool pool) {
    return new PoolAssert(pool);
  }

  /** The conservation rules hold ({@link ResourcePool#checkInvariants()}). */
  PoolAssert conserves() {
    isNotNull();
    try {
      actual.checkInvariants();
    } catch (IllegalStateException e) {
      failWithMessage(
          "%sexpected the pool to conserve its resources, but %s (free: <%s>, allocated: <%s>)",
          descriptionPrefix(),
          e.getMessage(),
          actual.free().summary(),
          actual.allocated().summary());
    }
    return this;
  }

  /** The free set, as a summary ({@code ""} for none). */
  PoolAssert hasFree(String summary) {
    isNotNull();
    String got = actual.free().summary();
    if (!got.equals(summary)) {
      failWithMessage("%sexpected free <%s> but was <%s>", descriptionPrefix(), summary, got);
    }
    return this;
  }

  /** What {@code job} holds, as a summary. */
  PoolAssert holds(long job, String summary) {
    isNotNull();
    String got = actual.allocation(job).map(ResourceSet::summary).orElse(null);
    if (!summary.equals(got)) {
      failWithMessage(
          "%sexpected job %s to hold <%s> but %s",
          descriptionPrefix(),
          job,
          summary,
          got == null ? "it holds nothing" : "it holds <" + got + ">");
    }
    return this;
  }

  /** What {@code job} is releasing (granted in a shrink, not yet freed), as a summary. */
  PoolAssert releases(long job, String summary) {
    isNotNull();
    String got = actual.releasing(job).summary();
    if (!got.equals(summary)) {
      failWithMessage(
          "%sexpected job %s to be releasing <%s> but was <%s>",
          descriptionPrefix(), job, summary, got);
    }
    return this;
  }

  private String descriptionPrefix() {
    String d = info.descriptionText();
    return d == null || d.isEmpty() ? "" : "[" + d + "] ";
  }
}
