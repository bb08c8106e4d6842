package io.fluxdrm.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.time.Duration;

/**
 * Standard error of a serving {@code fluxdrm sched} (issue 32, D583): what is written there (the
 * log lines, one or two per job) is written to the file descriptor at most {@link #DELAY} later,
 * many lines in one write, rather than one system call per line. A thread wakes {@link #DELAY}
 * after the first line of a batch and writes it; it sleeps while nothing is written. {@link
 * #flush}, which slf4j-simple calls after every line, only makes sure that thread comes; {@link
 * #drain} writes at once, as the daemons do when they stop and before a fatal exit. At most {@link
 * #BUFFER} bytes wait: a larger burst is written as it comes.
 */
final class LogOutput extends OutputStream {
  /** The longest a line waits before it is written. */
  static final Duration DELAY = Duration.ofMillis(100);

  /** The most bytes that wait. */
  static final int BUFFER = 64 * 1024;

  private final OutputStream out;
  private final long delayMs;
  private boolean pending;
  private volatile boolean discarding;

  LogOutput(OutputStream fd, Duration delay) {
    this.out = new BufferedOutputStream(fd, BUFFER);
    this.delayMs = delay.toMillis();
  }

  /**
   * Makes {@code System.err} a {@link LogOutput} over file descriptor 2, in the charset it had;
   * once per process (a second call does nothing).
   */
  static synchronized void install() {
    if (current != null) {
      return;
    }
    String enc = System.getProperty("sun.stderr.encoding");
    Charset cs = enc == null ? Charset.defaultCharset() : Charset.forName(enc);
    LogOutput log = new LogOutput(new FileOutputStream(FileDescriptor.err), DELAY);
    System.setErr(new Lines(log, cs));
    log.start("fluxdrm-log");
    Runtime.getRuntime().addShutdownHook(new Thread(LogOutput::drain, "fluxdrm-log-drain"));
    current = log;
  }

  /**
   * The print stream over it: a whole line, as slf4j-simple prints each, is encoded in one step and
   * handed over in one write (a {@link PrintStream}'s own {@code println} runs its text through a
   * writer and an encoder, a third of a log line's cost, issue 32).
   */
  static final class Lines extends PrintStream {
    private final Charset charset;
    private final String newline = System.lineSeparator();

    Lines(OutputStream out, Charset charset) {
      super(out, false, charset);
      this.charset = charset;
    }

    @Override
    public void println(String x) {
      byte[] b = (String.valueOf(x) + newline).getBytes(charset);
      write(b, 0, b.length);
    }
  }

  /** The installed one, or null. */
  private static volatile LogOutput current;

  /**
   * Makes the installed {@link LogOutput} drop (true) or keep (false) what is written from now on,
   * from every thread: for the few seconds of a rehearsal, whose lines name jobs that do not exist.
   */
  static void discard(boolean on) {
    LogOutput log = current;
    if (log != null) {
      log.setDiscarding(on);
    }
  }

  /** Drops (true) or keeps (false) what is written from now on. */
  void setDiscarding(boolean on) {
    discarding = on;
  }

  /**
   * Writes what waits in the installed {@link LogOutput} now (nothing when none is installed); it
   * keeps what is written from then on, even while discarding (a fatal error's last line).
   */
  static void drain() {
    discard(false);
    System.err.flush();
    LogOutput log = current;
    if (log != null) {
      try {
        log.writeNow();
      } catch (IOException e) {
        // standard error is gone: nothing is left to tell
      }
    }
  }

  /** Starts the thread that writes each batch {@link #DELAY} after its first byte. */
  void start(String name) {
    Thread t = new Thread(this::writer, name);
    t.setDaemon(true);
    t.start();
  }

  private void writer() {
    try {
      while (true) {
        synchronized (this) {
          while (!pending) {
            wait();
          }
        }
        Thread.sleep(delayMs);
        writeNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // standard error is gone: nothing is left to tell
    }
  }

  private void written() {
    if (!pending) {
      pending = true;
      notifyAll();
    }
  }

  @Override
  public synchronized void write(int b) throws IOException {
    if (discarding) {
      return;
    }
    out.write(b);
    written();
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if (discarding) {
      return;
    }
    out.write(b, off, len);
    written();
  }

  /** Nothing at once: what was written leaves within {@link #DELAY} (see {@link #drain}). */
  @Override
  public void flush() {
    // the writer thread was woken by the first byte of the batch
  }

  /** Writes what waits. */
  synchronized void writeNow() throws IOException {
    pending = false;
    out.flush();
  }

  @Override
  public void close() throws IOException {
    writeNow();
  }
}
