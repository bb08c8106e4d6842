/**
 * JSON Schemas of the documents and RPC payloads fluxdrm accepts (RFC 14/25 jobspec, RFC 20 R, RFC
 * 27 and RFC 51 payloads), loaded by name from the classpath, with one call to validate a JSON
 * value and get its violations as JSON Pointers.
 *
 * <p>A schema named {@code NAME} lives at {@code io/fluxdrm/schemas/NAME.schema.json} with {@code
 * $id} {@code https://fluxdrm.io/schemas/NAME.schema.json}; schemas refer to each other by that
 * {@code $id}.
 */
package io.fluxdrm.schemas;
