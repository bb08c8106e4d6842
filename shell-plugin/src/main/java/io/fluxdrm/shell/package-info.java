/**
 * The job shell's side of RFC 51 dynamic resource allocation (RFC 51 §Realloc): a per-job shell
 * service {@code <uid>-shell-<f58 jobid>} with the methods {@code realloc}, {@code realloc_cancel},
 * {@code release} and {@code task-exit}, forwarding requests to {@code job-manager.realloc},
 * applying the answers to the shell's view of the job's R and rank → host map, and handing removed
 * resources back with {@code job-manager.release {final: false}} only once the tasks on them have
 * exited.
 *
 * <p>Entry point: {@link io.fluxdrm.shell.ShellPlugin}; answers are {@link io.fluxdrm.shell.Answer}
 * values. The PMIx-shaped facade lives in the bridge, which depends on this module.
 */
package io.fluxdrm.shell;
