/**
 * The PMIx-shaped allocation API of one job (decisions D9, D10, D80 and D129–D136): {@code
 * PMIx_Allocation_request(directive, info[])} as a Java call and as the RPC service {@code
 * <uid>-pmix-<f58plain jobid>}, bound to the job's RFC 51 shell plugin. It translates with {@link
 * io.fluxdrm.bridge.translate.RequestTranslator}, forwards through {@link
 * io.fluxdrm.shell.ShellPlugin#realloc}, answers with {@link
 * io.fluxdrm.bridge.translate.AnswerTranslator}, and keeps the requester-side maps: pending
 * requests by {@code PMIX_ALLOC_REQ_ID} and the job's reservations by {@code PMIX_ALLOC_ID}.
 *
 * <p>Entry point: {@link io.fluxdrm.bridge.alloc.PmixAllocator}.
 */
package io.fluxdrm.bridge.alloc;
