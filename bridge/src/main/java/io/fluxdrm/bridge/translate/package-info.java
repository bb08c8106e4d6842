/**
 * Translation between PMIx allocation requests and Flux RFC 51: PMIx directives and attributes to
 * {@code sched.realloc} requests with version 1 jobspecs ({@code spec_add}, {@code spec_sub}) and R
 * (decision D9), and {@code sched.realloc} answers back to PMIx statuses and result infos (decision
 * D10). Pure and stateless: the job manager supplies what it knows of the job ({@link
 * io.fluxdrm.bridge.translate.JobView}) and keeps every map (request ids to matchtags, reservations
 * to alloc ids).
 *
 * <p>Entry points: {@link io.fluxdrm.bridge.translate.RequestTranslator} and {@link
 * io.fluxdrm.bridge.translate.AnswerTranslator}; bad input gives {@link
 * io.fluxdrm.bridge.translate.TranslateException}.
 */
package io.fluxdrm.bridge.translate;
