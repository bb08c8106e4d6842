/**
 * The reference DVM's pure core (issue 13, decision D17): {@link io.fluxdrm.dvm.core.DvmCore} takes
 * {@link io.fluxdrm.dvm.core.DvmEvent}s (requests from clients through a daemon, daemon and process
 * reports, timers, the scheduler's attachment and answers) and returns {@link
 * io.fluxdrm.dvm.core.DvmDecision}s (answers, calls to the scheduler, daemons to start or stop,
 * jobs to launch or signal, events to deliver, timers to arm), and exposes a read-only {@link
 * io.fluxdrm.dvm.core.DvmView} for invariant checks. It reads no clock, opens no socket and starts
 * no thread: a service (its reactor) feeds it and carries its decisions out, as sched-simple's
 * {@code SchedulerCore} is driven.
 *
 * <p>The model follows PRRTE §7.4.3, §7.4.4 and PRRTE PR #1904: nodes with slots, one daemon per
 * node, the master (HNP) node, the default session whose nodes are the unreserved pool, reserved
 * sessions owning nodes, jobs and child sessions, owner namespaces and the granted user, and the
 * tracker of requests in flight.
 *
 * <p>Driving it: {@code DvmCore.of(config)}, then carry out {@code start()}'s decisions (a
 * StartDaemon per node that gets a daemon); give each request a fresh id and hand it to {@code
 * handle}; carry out each decision in order and report what happens as events: a StartDaemon ends
 * in DaemonStarted or DaemonFailed, a StopDaemon in DaemonLeft (or StopNotSent), a LaunchJob in
 * JobLaunched (or JobLaunchFailed) and then one ProcExited per process, an ArmTimer in TimerFired
 * unless cancelled, a ReadFile in FileRead, a ToScheduler in SchedulerAnswered (or
 * SchedulerDetached). An Answer is the one reply to its request; a Notify goes to the handlers it
 * lists (the references of RegisterEvents requests, which are their request ids). {@link
 * io.fluxdrm.dvm.core.DvmInvariants} checks the view after any step.
 */
package io.fluxdrm.dvm.core;
