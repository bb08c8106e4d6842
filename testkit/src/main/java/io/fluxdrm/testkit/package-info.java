/**
 * Test support shared by every module's tests, consumed in test scope: {@link
 * io.fluxdrm.testkit.InvariantsExtension} checks registered invariants after every step and every
 * test, {@link io.fluxdrm.testkit.StepTable} reads the cores' step tables, and {@link
 * io.fluxdrm.testkit.JobspecBuilder} writes RFC 25 jobspecs.
 */
package io.fluxdrm.testkit;
