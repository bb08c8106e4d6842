/**
 * The DVM's wire protocol on a fluxdrm hub (issue 13 scope 5: commands as processes): the topics of
 * the {@code dvm} service and of the scheduler's {@code dvm-sched} service ({@link
 * io.fluxdrm.dvm.wire.DvmTopics}), their JSON payloads with info arrays in {@link
 * io.fluxdrm.pmix.InfoCodec}'s form ({@link io.fluxdrm.dvm.wire.DvmWire}, schemas {@code
 * dvm.*.schema.json}), a {@link io.fluxdrm.pmix.port.DvmPort} over a {@link
 * io.fluxdrm.rpc.client.FluxHandle} ({@link io.fluxdrm.dvm.wire.HubDvmPort}), and the scheduler's
 * end ({@link io.fluxdrm.dvm.wire.SchedulerEndpoint}). A requester's identity is its connection
 * (route and uid, decision D16), never a payload field.
 */
package io.fluxdrm.dvm.wire;
