/**
 * JMH benchmarks of the demo's world: the R delta of a grow to the reference DVM's ready event
 * (issue 14), and {@code fluxdrm plot} on a 1,000-job synthetic transcript (issue 17).
 */
package io.fluxdrm.showcase.bench;
