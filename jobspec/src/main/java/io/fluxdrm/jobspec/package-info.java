/**
 * Flux jobspec: reads RFC 14 canonical and RFC 25 version 1 jobspecs from YAML or JSON, validates
 * them at either level (schema, then the rules a schema cannot express, following flux-core where
 * the RFC schemas and flux-core disagree), derives the counts a scheduler needs, and parses RFC 31
 * constraints into values.
 *
 * <p>Entry points: {@link io.fluxdrm.jobspec.JobspecValidator} (reports for users and tools),
 * {@link io.fluxdrm.jobspec.Jobspec} (the immutable model), {@link io.fluxdrm.jobspec.Counts} (what
 * a scheduler needs), {@link io.fluxdrm.rset.Constraint} (RFC 31, read under flux-core's ingest
 * rules) and {@link io.fluxdrm.jobspec.Documents} (bounded, strict YAML/JSON reading).
 */
package io.fluxdrm.jobspec;
