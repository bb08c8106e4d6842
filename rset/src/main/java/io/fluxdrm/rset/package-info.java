/**
 * Resource notations of Flux as immutable values: RFC 22 idsets ({@link io.fluxdrm.rset.IdSet}),
 * RFC 29 hostlists ({@link io.fluxdrm.rset.Hostlist}) and RFC 20 resource sets, R version 1 ({@link
 * io.fluxdrm.rset.ResourceSet}), with the set algebra of flux-core's librlist.
 *
 * <p>Every parser reports bad input with an {@link io.fluxdrm.rset.RsetException} whose message
 * locates the problem and states the rule; no operation mutates its operands.
 */
package io.fluxdrm.rset;
