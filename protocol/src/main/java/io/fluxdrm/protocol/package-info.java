/**
 * One home for the Flux protocol nouns shared by the scheduler, the job manager, the shell plugin
 * and the bridge: the RFC 27, RFC 51 and shell topics, the RFC 27 and RFC 51 response types
 * (different enums, D1), the RFC 27 / RFC 51 payloads around a reallocation and their unsigned
 * 64-bit identifiers (D11), and the one owner/may-act check {@code JobAccess} (D341).
 */
package io.fluxdrm.protocol;
