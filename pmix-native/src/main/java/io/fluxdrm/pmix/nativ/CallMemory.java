package io.fluxdrm.pmix.nativ;

import java.lang.foreign.Arena;

/**
 * The memory of one libpmix call's arguments: closed once libpmix is done with it (its callback
 * fired, or it returned without one) and the downcall has returned. libpmix may call the callback
 * from inside the downcall, while the arena is still held by the call and cannot be closed yet.
 */
final class CallMemory {
  private final Arena arena = Arena.ofShared();
  private boolean inCall = true;
  private boolean done;
  private boolean closed;

  Arena arena() {
    return arena;
  }

  /** libpmix no longer needs the memory. */
  synchronized void done() {
    done = true;
    closeIfFree();
  }

  /** The downcall returned. */
  synchronized void returned() {
    inCall = false;
    closeIfFree();
  }

  private void closeIfFree() {
    if (done && !inCall && !closed) {
      closed = true;
      arena.close();
    }
  }
}
