package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;

/** The client end of a transport, driven on the loop. */
public interface Connector {
  /** What the connector delivers. */
  interface Inbound {
    void onMessage(Message m);

    void onClosed(RpcException cause);
  }

  /** Starts delivering inbound messages (on the loop). */
  void start(Inbound inbound);

  /** Sends a message (on the loop). */
  void send(Message m);

  /** Closes the transport (on the loop); no onClosed follows. */
  void close();
}
