package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Message;

/** A connection as the hub's router sees it; every method runs on the loop. */
interface Peer {
  /** The route identity the router pushes for messages from this peer. */
  String id();

  /** The credentials the transport vouches for. */
  Credentials credentials();

  /** Queues a message to the peer. */
  void send(Message m);

  /** Closes the connection; the transport then reports the disconnect to the router. */
  void close(String why);
}
