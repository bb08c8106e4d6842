/** JMH benchmarks of the RFC 3 codec and of RFC 6 round trips over each transport. */
package io.fluxdrm.rpc.bench;
