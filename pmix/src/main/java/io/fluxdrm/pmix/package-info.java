/**
 * The PMIx model the bridge speaks (OpenPMIx {@code pmix_common.h}, seed 000 session control and
 * the allocation request of PMIx Standard v5 §7): attribute keys as their wire strings ({@link
 * io.fluxdrm.pmix.PmixKey}), data types, status codes, allocation directives and inheritance values
 * with their numeric codes, typed info entries ({@link io.fluxdrm.pmix.Info}) and the JSON codec of
 * info arrays used by transports and transcripts ({@link io.fluxdrm.pmix.InfoCodec}).
 *
 * <p>Bad input of every kind raises {@link io.fluxdrm.pmix.PmixException}, whose message locates
 * the problem and states the rule.
 */
package io.fluxdrm.pmix;
