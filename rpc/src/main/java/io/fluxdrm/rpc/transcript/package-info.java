/**
 * Transcripts of RFC 3 message traffic: every message crossing an endpoint as one JSON line (schema
 * {@code https://fluxdrm.io/schemas/transcript-line.schema.json}), and the replay of recorded
 * requests against a fresh RFC 6 service with a unified diff of its responses.
 */
package io.fluxdrm.rpc.transcript;
