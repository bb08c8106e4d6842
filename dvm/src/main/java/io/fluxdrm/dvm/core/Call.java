package io.fluxdrm.dvm.core;

/** A call to the scheduler: a forwarded request, a spawn's allocation, or a notice. */
record Call(long requestId, boolean spawnAlloc) {}
