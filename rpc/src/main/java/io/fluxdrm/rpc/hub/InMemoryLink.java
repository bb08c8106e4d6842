package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.transport.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory transport: a handle and the hub's router on the same loop. Both directions go
 * through the loop's queue, so delivery is FIFO, deterministic and never reentrant.
 */
final class InMemoryLink {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryLink.class);
  private final String id;
  private final Credentials credentials;
  private final EventLoop loop;
  private final Router router;
  private Connector.Inbound inbound;
  private boolean closed;

  final Peer peer = new PeerEnd();
  final Connector connector = new ClientEnd();

  InMemoryLink(String id, Credentials credentials, EventLoop loop, Router router) {
    this.id = id;
    this.credentials = credentials;
    this.loop = loop;
    this.router = router;
  }

  /**
   * Queues a delivery on the loop. A loop that has stopped takes nothing more: the link went down
   * with it, so the message is dropped as a closed connection would drop it.
   */
  private void deliver(Message m, Runnable delivery) {
    try {
      loop.execute(delivery);
    } catch (IllegalStateException stopped) {
      LOG.debug("in-memory link {}: {} dropped, the loop has stopped", id, m.topic());
    }
  }

  private final class PeerEnd implements Peer {
    @Override
    public String id() {
      return id;
    }

    @Override
    public Credentials credentials() {
      return credentials;
    }

    @Override
    public void send(Message m) {
      deliver(
          m,
          () -> {
            if (!closed) {
              inbound.onMessage(m);
            }
          });
    }

    @Override
    public void close(String why) {
      if (!closed) {
        closed = true;
        router.disconnected(this);
        inbound.onClosed(new RpcException(Errno.ECONNRESET, why));
      }
    }
  }

  private final class ClientEnd implements Connector {
    @Override
    public void start(Connector.Inbound in) {
      inbound = in;
      router.connected(peer);
    }

    @Override
    public void send(Message m) {
      deliver(
          m,
          () -> {
            if (!closed) {
              router.received(peer, m);
            }
          });
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        loop.execute(() -> router.disconnected(peer));
      }
    }
  }
}
