package io.fluxdrm.dvm.core;

/** A timer: a session's time limit or a job's kill grace. */
record Timer(SessionRec session, JobRec job) {}
