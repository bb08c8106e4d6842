package io.fluxdrm.dvm.exec;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An {@link ExecListener} that queues what it hears as lines, for tests to wait on. */
final class RecordingListener implements ExecListener {
  final BlockingQueue<String> events = new LinkedBlockingQueue<>();

  @Override
  public void daemonUp(String host) {
    events.add("up " + host);
  }

  @Override
  public void daemonFailed(String host, String reason) {
    events.add("failed " + host);
  }

  @Override
  public void daemonLeft(String host) {
    events.add("left " + host);
  }

  @Override
  public void launched(String nspace) {
    events.add("launched " + nspace);
  }

  @Override
  public void launchFailed(String nspace, String reason) {
    events.add("launch-failed " + nspace + ": " + reason);
  }

  @Override
  public void procExited(String nspace, long rank, int status, int termSignal) {
    events.add(
        "exited "
            + nspace
            + " "
            + rank
            + " "
            + status
            + (termSignal == 0 ? "" : " sig" + termSignal));
  }

  /** The next event, waiting up to 30 s. */
  String next() throws InterruptedException {
    String e = events.poll(30, TimeUnit.SECONDS);
    if (e == null) {
      throw new AssertionError("no executor event within 30 s");
    }
    return e;
  }
}
