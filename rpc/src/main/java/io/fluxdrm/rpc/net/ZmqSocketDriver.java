package io.fluxdrm.rpc.net;

import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * Drives one ZeroMQ socket from the reactor: its notification channel is registered with the
 * reactor's selector, and since that signal is edge-triggered the socket is also drained once per
 * loop iteration. Delivers whole multipart messages as frame lists with the first frame's metadata.
 */
final class ZmqSocketDriver {
  private static final Logger LOG = LoggerFactory.getLogger(ZmqSocketDriver.class);
  private static final int DRAIN_BUDGET = 1000;
  private static final int HWM = 10_000;

  /** One received multipart message. */
  record Multipart(List<byte[]> frames, zmq.io.Metadata metadata) {}

  private final Reactor reactor;
  private final ZMQ.Socket socket;
  private final Consumer<Multipart> onMessage;
  private final Runnable hook = this::drainIfNeeded;
  private SelectionKey key;
  private boolean closed;
  private Runnable afterDrain;
  private boolean unroutable;
  private boolean dirty;
  private boolean draining;
  private long lastDrain;

  ZmqSocketDriver(Reactor reactor, ZMQ.Socket socket, Consumer<Multipart> onMessage) {
    this.reactor = reactor;
    this.socket = socket;
    this.onMessage = onMessage;
  }

  void start() {
    socket.setSndHWM(HWM);
    socket.setRcvHWM(HWM);
    key = reactor.register(socket.getFD(), SelectionKey.OP_READ, k -> signalled());
    reactor.addPollHook(hook);
  }

  /** Adds work to run each time the socket is drained (retrying queued sends). */
  void onDrain(Runnable r) {
    afterDrain = r;
  }

  ZMQ.Socket socket() {
    return socket;
  }

  /**
   * Drains when a send may have swallowed the socket's signal, or as a safety net every 100 ms;
   * checking the socket's events costs a system call, so it is not done on every loop iteration.
   */
  private void drainIfNeeded() {
    if (dirty || reactor.nanoTime() - lastDrain > 100_000_000L) {
      drain();
    }
  }

  /**
   * The socket's signal channel is readable. JeroMQ's mailbox writer (its I/O thread) writes the
   * signal byte before it counts the signal, and the write itself wakes this thread, often on the
   * writer's own core: until the writer runs again the socket shows nothing while the channel stays
   * readable. Spinning here would keep the writer off the processor (a scheduler tick, 4 ms), so a
   * drain that finds nothing sleeps 50 microseconds and tries once more; a task submitted to the
   * reactor meanwhile ends the sleep, so that a request from another thread does not wait for it.
   * (JeroMQ's own I/O thread has no such sleep: when this reactor is the writer and is pushed off
   * the processor between the byte and the count, that thread spins until the reactor runs again;
   * see docs/performance.md.)
   */
  private void signalled() {
    if (drain() == 0) {
      reactor.pause(50_000);
      drain();
    }
  }

  /**
   * Receives every whole message waiting; returns how many. Sends made meanwhile (the retries of
   * {@link #onDrain} and answers sent from the message handler) need no further drain, since this
   * one reads until the socket shows nothing; so a send the high-water mark refuses here is retried
   * at the next signal or safety-net drain, never in a tight loop.
   */
  int drain() {
    dirty = false;
    draining = true;
    try {
      lastDrain = reactor.nanoTime();
      if (afterDrain != null && !closed) {
        afterDrain.run();
      }
      int received = receive();
      if (received >= DRAIN_BUDGET) {
        // more may wait, and no signal will say so
        markDirty();
      }
      return received;
    } finally {
      draining = false;
    }
  }

  private int receive() {
    int budget = DRAIN_BUDGET;
    int received = 0;
    try {
      while (!closed && budget-- > 0 && (socket.getEvents() & ZMQ.Poller.POLLIN) != 0) {
        zmq.Msg first = socket.recvMsg(ZMQ.DONTWAIT);
        if (first == null) {
          return received;
        }
        List<byte[]> frames = new ArrayList<>(6);
        frames.add(first.data());
        zmq.io.Metadata md = first.getMetadata();
        boolean more = first.hasMore();
        while (more) {
          zmq.Msg next = socket.recvMsg(ZMQ.DONTWAIT);
          if (next == null) {
            break;
          }
          frames.add(next.data());
          if (md == null || md.isEmpty()) {
            // a ROUTER's identity frame carries no metadata: take the peer's from its frames
            md = next.getMetadata();
          }
          more = next.hasMore();
        }
        onMessage.accept(new Multipart(frames, md));
        received++;
      }
    } catch (ZMQException e) {
      LOG.warn("zeromq receive: {}", e.getMessage());
    }
    return received;
  }

  /**
   * Sends frames without blocking.
   *
   * @return false when the message could not be queued (high-water mark reached, or an unroutable
   *     peer); nothing of it was sent then
   */
  boolean trySend(List<byte[]> frames) {
    unroutable = false;
    if (!draining) {
      // the send may swallow the socket's signal: drain before the loop waits again
      markDirty();
    }
    try {
      for (int i = 0; i < frames.size(); i++) {
        int flags = ZMQ.DONTWAIT | (i < frames.size() - 1 ? ZMQ.SNDMORE : 0);
        if (!socket.send(frames.get(i), flags)) {
          if (i > 0) {
            throw new IllegalStateException("zeromq refused a frame inside a message");
          }
          unroutable = socket.errno() == ZMQ.Error.EHOSTUNREACH.getCode();
          return false;
        }
      }
      return true;
    } catch (ZMQException e) {
      LOG.debug("zeromq send: {}", e.getMessage());
      unroutable = e.getErrorCode() == ZMQ.Error.EHOSTUNREACH.getCode();
      return false;
    }
  }

  private void markDirty() {
    dirty = true;
    reactor.pollAgain();
  }

  /** Returns whether the last failed send named a peer that is not connected. */
  boolean lastSendUnroutable() {
    return unroutable;
  }

  void close() {
    if (closed) {
      return;
    }
    closed = true;
    reactor.removePollHook(hook);
    if (key != null) {
      key.cancel();
    }
    socket.close();
  }
}
