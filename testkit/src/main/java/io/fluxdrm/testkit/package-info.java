/**
 * Test support shared by every module's tests, consumed in test scope: {@link
 * io.fluxdrm.testkit.InvariantsExtension} checks registered invariants after every step and every
 * test, {@link io.fluxdrm.testkit.StepTable} reads the cores' step tables, {@link
 * io.fluxdrm.testkit.JobspecBuilder} writes RFC 25 jobspecs, and {@link
 * io.fluxdrm.testkit.ClassFiles} reads the strings of a class file's constant pool for the rule
 * that keeps PMIx keys in the typed package.
 */
package io.fluxdrm.testkit;
