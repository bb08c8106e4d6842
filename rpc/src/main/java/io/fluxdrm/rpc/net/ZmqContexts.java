package io.fluxdrm.rpc.net;

import org.zeromq.ZContext;

/**
 * The one ZeroMQ context of the process, shared by every reactor that uses ZeroMQ: each reactor
 * gets a shadow (its own socket list on the shared context), and the last one to stop terminates
 * the context. One context means one JeroMQ I/O thread in the process instead of one per reactor:
 * fewer threads to wake per message, which on a machine with few cores shortens the tail (see
 * docs/performance.md).
 */
final class ZmqContexts {
  private static final Object LOCK = new Object();
  private static ZContext shared;
  private static int users;

  private ZmqContexts() {}

  /** Returns a new shadow of the shared context, creating the context for its first user. */
  static ZContext acquire() {
    synchronized (LOCK) {
      if (shared == null) {
        shared = new ZContext(1);
        shared.setLinger(0);
      }
      ZContext shadow = shared.shadow();
      shadow.setLinger(0);
      users++;
      return shadow;
    }
  }

  /** Closes a shadow (and its sockets); the last release terminates the shared context. */
  static void release(ZContext shadow) {
    synchronized (LOCK) {
      try {
        shadow.close();
      } finally {
        users--;
        if (users == 0 && shared != null) {
          ZContext last = shared;
          shared = null;
          last.close();
        }
      }
    }
  }
}
