/**
 * The PMIx model the bridge speaks (OpenPMIx {@code pmix_common.h}, PRRTE §7.4.4 Session Control
 * and PMIx Standard v5.0 PMIx_Allocation_request): attribute keys as their wire strings ({@link
 * io.fluxdrm.pmix.PmixKey}), data types, status codes, allocation directives and inheritance values
 * with their numeric codes, typed info entries ({@link io.fluxdrm.pmix.Info}) and the JSON codec of
 * info arrays used by transports and transcripts ({@link io.fluxdrm.pmix.InfoCodec}).
 *
 * <p>Bad input of every kind raises {@link io.fluxdrm.pmix.PmixException}, whose message locates
 * the problem and states the rule.
 */
package io.fluxdrm.pmix;
