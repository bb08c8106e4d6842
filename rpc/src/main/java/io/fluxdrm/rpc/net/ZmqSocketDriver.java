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

  /** One received multipart message. */
  record Multipart(List<byte[]> frames, zmq.io.Metadata metadata) {}

  private final Reactor reactor;
  private final ZMQ.Socket socket;
  private final Consumer<Multipart> onMessage;
  private final Runnable hook = this::drain;
  private SelectionKey key;
  private boolean closed;

  ZmqSocketDriver(Reactor reactor, ZMQ.Socket socket, Consumer<Multipart> onMessage) {
    this.reactor = reactor;
    this.socket = socket;
    this.onMessage = onMessage;
  }

  void start() {
    key = reactor.register(socket.getFD(), SelectionKey.OP_READ, k -> drain());
    reactor.addPollHook(hook);
  }

  ZMQ.Socket socket() {
    return socket;
  }

  void drain() {
    int budget = DRAIN_BUDGET;
    try {
      while (!closed && budget-- > 0 && (socket.getEvents() & ZMQ.Poller.POLLIN) != 0) {
        zmq.Msg first = socket.recvMsg(ZMQ.DONTWAIT);
        if (first == null) {
          return;
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
      }
    } catch (ZMQException e) {
      LOG.warn("zeromq receive: {}", e.getMessage());
    }
  }

  /**
   * Sends frames without blocking.
   *
   * @return false when the message could not be queued (high-water mark or unroutable peer)
   */
  boolean send(List<byte[]> frames) {
    try {
      for (int i = 0; i < frames.size(); i++) {
        int flags = ZMQ.DONTWAIT | (i < frames.size() - 1 ? ZMQ.SNDMORE : 0);
        if (!socket.send(frames.get(i), flags)) {
          return false;
        }
      }
      return true;
    } catch (ZMQException e) {
      LOG.debug("zeromq send: {}", e.getMessage());
      return false;
    }
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
