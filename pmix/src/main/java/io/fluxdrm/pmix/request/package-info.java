/**
 * PMIx requests read once from their infos and written back: the one {@link
 * io.fluxdrm.pmix.request.NodeList}, {@link io.fluxdrm.pmix.request.AllocationRequest}, {@link
 * io.fluxdrm.pmix.request.SessionControl} and {@link io.fluxdrm.pmix.request.SpawnAllocation}, with
 * located {@link io.fluxdrm.pmix.request.RequestException}s (decisions D544–D547). Consumers keep
 * their own rules.
 */
package io.fluxdrm.pmix.request;
