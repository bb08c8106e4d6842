package io.fluxdrm.rpc.reactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread of a process that owns all sockets: a selector loop that runs submitted tasks,
 * timers and socket readiness handlers. Handlers never block.
 */
public final class Reactor implements EventLoop, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Reactor.class);

  /** What a registered channel does when it is ready. */
  public interface IoHandler {
    void ready(SelectionKey key);
  }

  private final Selector selector;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final Timers timers = new Timers();
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Thread thread;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean running = true;
  private volatile boolean awake;

  /**
   * The system property naming how long, in microseconds, a reactor polls before it blocks (0, the
   * default: it blocks at once). Spinning saves the wake-up of an idle core on every message, at
   * the price of a busy core while traffic lasts (decision D198).
   */
  public static final String SPIN_PROPERTY = "fluxdrm.reactor.spin-us";

  private final long spinNanos;

  /**
   * What the process does when a reactor dies of a fatal error (an {@link Error} such as {@link
   * OutOfMemoryError} escaping a handler, or a failed selector): a dead reactor serves nothing, so
   * the process must not stay up silently (issue 12, finding 1).
   */
  @FunctionalInterface
  public interface FatalHandler {
    /** Called once, on the dying reactor's thread, after it closed its sockets. */
    void fatal(String reactor, Throwable cause);
  }

  /** The exit status of the default fatal handler (EX_SOFTWARE of sysexits.h). */
  public static final int FATAL_EXIT = 70;

  /** The default: an error log line, one line on stderr, and exit status {@link #FATAL_EXIT}. */
  public static final FatalHandler EXIT_ON_FATAL =
      (name, cause) -> {
        String line = "reactor " + name + " stopped: " + describe(cause);
        LOG.error("{}", line);
        System.err.println("fluxdrm: " + line);
        System.err.flush();
        Runtime.getRuntime().halt(FATAL_EXIT);
      };

  private static volatile FatalHandler fatalHandler = EXIT_ON_FATAL;

  /** Sets what every reactor of this process does when it dies of a fatal error. */
  public static void onFatal(FatalHandler h) {
    fatalHandler = java.util.Objects.requireNonNull(h, "handler");
  }

  /** Returns "ClassName: message" of a throwable, on one line. */
  static String describe(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m.replaceAll("[\\r\\n]+", " "));
  }

  /** How long the accept loop pauses after a failed accept, e.g. no descriptors left. */
  static final Duration ACCEPT_BACKOFF = Duration.ofMillis(200);

  private Throwable fatal;

  private Reactor(String name, long spinNanos) {
    this.spinNanos = spinNanos;
    try {
      selector = Selector.open();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    thread = new Thread(this::loop, name);
    thread.setDaemon(true);
  }

  /** Starts a reactor on a new daemon thread with the given name. */
  public static Reactor start(String name) {
    return start(name, Duration.ofNanos(spinFromProperty(System.getProperty(SPIN_PROPERTY))));
  }

  /**
   * Starts a reactor that polls for up to {@code spin} before it blocks in select (zero: blocks at
   * once).
   */
  public static Reactor start(String name, Duration spin) {
    if (spin.isNegative() || spin.compareTo(Duration.ofMillis(10)) > 0) {
      throw new IllegalArgumentException(
          "reactor spin " + spin.toNanos() / 1000 + " us (expected: 0 to 10000 us)");
    }
    Reactor r = new Reactor(name, spin.toNanos());
    r.thread.start();
    return r;
  }

  /** Returns the spin of {@link #SPIN_PROPERTY}'s value in nanoseconds; 0 when unset or bad. */
  static long spinFromProperty(String value) {
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      long us = Long.parseLong(value.trim());
      if (us >= 0 && us <= 10_000) {
        return us * 1000;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    LOG.warn(
        "{}={}: not a number of microseconds from 0 to 10000; not spinning", SPIN_PROPERTY, value);
    return 0;
  }

  /**
   * Runs {@code task} on the loop and waits for it at most {@code limit}; for closing things from
   * another thread. Returns whether it ran in time (false also when the caller was interrupted,
   * whose flag is then set again). On the loop itself the task runs at once.
   */
  public boolean runAndWait(Runnable task, Duration limit) {
    if (inLoop()) {
      task.run();
      return true;
    }
    CountDownLatch done = new CountDownLatch(1);
    execute(
        () -> {
          try {
            task.run();
          } finally {
            done.countDown();
          }
        });
    try {
      return done.await(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the reactor has stopped (the task would never run)
   */
  @Override
  public void execute(Runnable task) {
    if (!running) {
      throw new IllegalStateException("reactor " + thread.getName() + " has stopped");
    }
    tasks.add(task);
    if (!inLoop()) {
      if (!awake) {
        awake = true;
        selector.wakeup();
      }
    }
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Timers.Timer t = timers.create(System.nanoTime() + delay.toNanos(), task);
    if (inLoop()) {
      timers.add(t);
    } else {
      execute(() -> timers.add(t));
    }
    return t;
  }

  @Override
  public boolean inLoop() {
    return Thread.currentThread() == thread;
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  /** Registers a channel (on the loop only). */
  public SelectionKey register(SelectableChannel ch, int ops, IoHandler handler) {
    assertInLoop();
    try {
      ch.configureBlocking(false);
      return ch.register(selector, ops, handler);
    } catch (ClosedChannelException e) {
      throw new IllegalStateException("channel closed", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Registers a listening channel (on the loop only): each readiness accepts up to 64 connections,
   * so that a burst of them does not starve the loop's other work, and hands each to {@code
   * accept}; a failed accept is logged with {@code name} and waits for the next readiness.
   */
  public void registerListener(
      ServerSocketChannel server, String name, java.util.function.Consumer<SocketChannel> accept) {
    register(
        server,
        SelectionKey.OP_ACCEPT,
        k -> {
          for (int i = 0; i < 64; i++) {
            SocketChannel ch;
            try {
              ch = server.accept();
            } catch (IOException e) {
              // EMFILE, ENFILE and the like last: a pending connection keeps the socket ready, so
              // retrying at once spins; stop accepting, log once, re-arm after a pause (issue 12,
              // finding 9)
              LOG.warn(
                  "{}: accept: {}; not accepting for {} ms",
                  name,
                  e.getMessage(),
                  ACCEPT_BACKOFF.toMillis());
              acceptPauses++;
              k.interestOps(0);
              schedule(
                  ACCEPT_BACKOFF,
                  () -> {
                    if (k.isValid()) {
                      k.interestOps(SelectionKey.OP_ACCEPT);
                    }
                  });
              return;
            }
            if (ch == null) {
              return;
            }
            accept.accept(ch);
          }
        });
  }

  private long acceptPauses;

  /** Returns how often accepting paused after a failure (on the loop only; for tests). */
  public long acceptPauses() {
    return acceptPauses;
  }

  /** Remembers a resource to close when the reactor stops (on the loop only). */
  public void own(AutoCloseable resource) {
    assertInLoop();
    resources.add(resource);
  }

  public void disown(AutoCloseable resource) {
    assertInLoop();
    resources.remove(resource);
  }

  private void assertInLoop() {
    if (!inLoop()) {
      throw new IllegalStateException("not on the reactor thread");
    }
  }

  /**
   * One turn of the loop: due tasks and timers, then what the selector reports. A method of its
   * own, so that the JIT compiles it as any other: the loop that calls it runs once, and would
   * otherwise stay in the interpreter (issue 32).
   */
  private void turn() throws IOException {
    runTasks();
    runTimers();
    long wait = tasks.isEmpty() ? selectWait(timers.nextDeadline(), System.nanoTime()) : -1;
    int n = wait < 0 ? selector.selectNow() : spin();
    if (n < 0) {
      awake = false;
      n = tasks.isEmpty() ? selector.select(wait) : selector.selectNow();
      awake = true;
    }
    if (n > 0) {
      Iterator<SelectionKey> it = selector.selectedKeys().iterator();
      while (it.hasNext()) {
        SelectionKey key = it.next();
        it.remove();
        if (!key.isValid()) {
          continue;
        }
        IoHandler h = (IoHandler) key.attachment();
        try {
          h.ready(key); // not through safely(): a lambda per key costs C1 an allocation call
        } catch (RuntimeException e) {
          LOG.error("reactor task failed", e);
        }
      }
    }
  }

  private void loop() {
    try {
      while (running) {
        turn();
      }
    } catch (IOException | Error e) {
      // a reactor that stops serving must not leave the process up and silent
      fatal = e;
    } finally {
      running = false;
      for (AutoCloseable c : List.copyOf(resources)) {
        try {
          c.close();
        } catch (Exception e) {
          LOG.debug("close on reactor stop", e);
        }
      }
      for (SelectionKey k : selector.keys()) {
        try {
          k.channel().close();
        } catch (IOException e) {
          LOG.debug("close on reactor stop", e);
        }
      }
      try {
        selector.close();
      } catch (IOException e) {
        LOG.debug("selector close", e);
      }
      stopped.countDown();
      if (fatal != null) {
        try {
          fatalHandler.fatal(thread.getName(), fatal);
        } catch (Throwable t) {
          Runtime.getRuntime().halt(FATAL_EXIT);
        }
      }
    }
  }

  /**
   * Polls without blocking for up to the spin time before the loop blocks in select; returns the
   * number of ready keys, 0 when a task arrived, or -1 when nothing came (decision D198).
   */
  private int spin() throws IOException {
    if (spinNanos == 0) {
      return -1;
    }
    // never past the next timer
    long deadline = Math.min(System.nanoTime() + spinNanos, timers.nextDeadline());
    do {
      if (!tasks.isEmpty()) {
        return 0;
      }
      int n = selector.selectNow();
      if (n > 0) {
        return n;
      }
      Thread.onSpinWait();
    } while (System.nanoTime() - deadline < 0);
    return -1;
  }

  /**
   * Returns how long the loop may wait in select for the next timer: -1 not at all, 0 for ever,
   * else milliseconds (rounded up).
   */
  static long selectWait(long nextDeadline, long now) {
    if (nextDeadline == Long.MAX_VALUE) {
      return 0;
    }
    long ns = nextDeadline - now;
    if (ns <= 0) {
      return -1;
    }
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(ns + 999_999));
  }

  private void runTasks() {
    Runnable t;
    int budget = 100_000;
    while (budget-- > 0 && (t = tasks.poll()) != null) {
      safely(t);
    }
  }

  private void runTimers() {
    long now = System.nanoTime();
    Timers.Timer t;
    while ((t = timers.pollDue(now)) != null) {
      safely(t.task);
    }
  }

  /** Runs a handler; an exception is logged and the loop goes on, an {@link Error} ends it. */
  private static void safely(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      LOG.error("reactor task failed", e);
    }
  }

  /** Stops the loop, closing every socket it owns; waits up to five seconds. */
  @Override
  public void close() {
    running = false;
    selector.wakeup();
    if (!inLoop()) {
      try {
        if (!stopped.await(5, TimeUnit.SECONDS)) {
          LOG.warn("reactor {} did not stop within 5 s", thread.getName());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
