package io.fluxdrm.jobspec;

/** The two validation levels. */
public enum Level {
  /** RFC 14 canonical jobspec, as flux-core's {@code Jobspec} accepts it. */
  CANONICAL("jobspec-canonical"),
  /** RFC 25 version 1, what schedulers accept (flux-core's {@code JobspecV1} and C validator). */
  V1("jobspec-v1");

  private final String schema;

  Level(String schema) {
    this.schema = schema;
  }

  /** The name of the schema (in the {@code schemas} module) this level starts from. */
  public String schema() {
    return schema;
  }
}
