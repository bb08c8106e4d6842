package io.fluxdrm.dvm.exec;

import io.fluxdrm.rpc.reactor.EventLoop;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The daemons of the nodes, by the {@link DaemonPolicy}: timers on the loop, one per node. */
final class Daemons {
  private final EventLoop loop;
  private final DaemonPolicy policy;
  private final ExecListener listener;
  private final Map<String, EventLoop.Cancellable> pending = new HashMap<>();
  private boolean closed;

  Daemons(EventLoop loop, DaemonPolicy policy, ExecListener listener) {
    this.loop = loop;
    this.policy = policy;
    this.listener = listener;
  }

  void start(String host) {
    after(
        host,
        policy.startLatency(),
        () -> {
          if (policy.failsToStart().test(host)) {
            listener.daemonFailed(host, "daemon on " + host + " failed to start (injected)");
          } else {
            listener.daemonUp(host);
          }
        });
  }

  void stop(String host) {
    after(host, policy.stopLatency(), () -> listener.daemonLeft(host));
  }

  private void after(String host, Duration d, Runnable report) {
    if (closed) {
      return;
    }
    EventLoop.Cancellable old = pending.remove(host);
    if (old != null) {
      old.cancel();
    }
    Runnable task =
        () -> {
          pending.remove(host);
          if (!closed) {
            report.run();
          }
        };
    if (d.isZero()) {
      loop.execute(task);
      // an immediate report needs no handle: nothing can be cancelled in between
    } else {
      pending.put(host, loop.schedule(d, task));
    }
  }

  void close() {
    closed = true;
    pending.values().forEach(EventLoop.Cancellable::cancel);
    pending.clear();
  }
}
