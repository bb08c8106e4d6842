package io.fluxdrm.rpc.net;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/** A ZeroMQ DEALER client of the hub: one Flux part per frame; its identity is its route. */
final class ZmqConnector implements Connector {
  private static final Logger LOG = LoggerFactory.getLogger(ZmqConnector.class);

  /** The control type flux-core's overlay uses for a peer that leaves. */
  static final int CONTROL_DISCONNECT = 2;

  /**
   * How long a closed socket keeps trying to deliver the goodbye (D153): a live hub takes it at
   * once, so this only bounds how long a context termination waits when the hub is gone.
   */
  private static final int GOODBYE_LINGER_MS = 2_000;

  private final Reactor reactor;
  private final String endpoint;
  private final String identity;
  private final ZmqClientKeys keys;
  private ZmqSocketDriver driver;
  private final java.util.ArrayDeque<List<byte[]>> pending = new java.util.ArrayDeque<>();

  ZmqConnector(Reactor reactor, String endpoint, String identity, ZmqClientKeys keys) {
    this.reactor = reactor;
    this.endpoint = endpoint;
    this.identity = identity;
    this.keys = keys;
  }

  @Override
  public void start(Connector.Inbound inbound) {
    ZMQ.Socket s = reactor.zmq().createSocket(SocketType.DEALER);
    s.setLinger(GOODBYE_LINGER_MS);
    s.setIdentity(identity.getBytes(StandardCharsets.ISO_8859_1));
    if (keys != null) {
      s.setCurveServerKey(ZMQ.Curve.z85Decode(keys.serverPublicKey()));
      s.setCurvePublicKey(ZMQ.Curve.z85Decode(keys.publicKey()));
      s.setCurveSecretKey(ZMQ.Curve.z85Decode(keys.secretKey()));
    }
    if (!s.connect(endpoint)) {
      s.close();
      inbound.onClosed(new RpcException(Errno.ECONNRESET, endpoint + ": cannot connect"));
      return;
    }
    driver =
        new ZmqSocketDriver(
            reactor,
            s,
            mp -> {
              try {
                inbound.onMessage(MessageCodec.fromParts(mp.frames()));
              } catch (RpcException e) {
                LOG.warn("{}: {}; message dropped", endpoint, e.getMessage());
              }
            });
    driver.onDrain(this::flush);
    driver.start();
  }

  private void flush() {
    while (!pending.isEmpty() && driver.trySend(pending.peek())) {
      pending.poll();
    }
  }

  @Override
  public void send(Message m) {
    if (driver == null) {
      LOG.debug("{}: not connected; {} dropped", endpoint, m.topic());
      return;
    }
    List<byte[]> parts = MessageCodec.toParts(m);
    if (!pending.isEmpty() || !driver.trySend(parts)) {
      // high-water mark: keep order and retry on every drain of the socket
      pending.add(parts);
    }
  }

  @Override
  public void close() {
    if (driver != null) {
      Message bye =
          new Message(
              MessageType.CONTROL,
              0,
              null,
              null,
              Flags.USERID_UNKNOWN,
              Flags.ROLE_NONE,
              CONTROL_DISCONNECT,
              0,
              List.of());
      flush();
      driver.trySend(MessageCodec.toParts(bye));
      driver.close();
      driver = null;
    }
  }
}
