/**
 * The {@code fluxdrm} command line: document tools that mirror flux-core's {@code flux R} and
 * {@code flux hostlist} (RFC 20, RFC 29), and the entry points of the project's processes, with
 * {@code keygen} and the CURVE certificates (ZeroMQ RFC 26 keys in RFC 4 ZPL text, as {@code flux
 * keygen} writes them) that let those processes talk across hosts.
 *
 * <p>Results go to stdout, diagnostics to stderr as one line; exit status 0 means success and 1 an
 * error of any kind (bad input, bad usage), as flux-core's commands do; {@code hostlist}, {@code
 * replay} and {@code bridge} exit 2 on a usage error.
 */
package io.fluxdrm.cli;
