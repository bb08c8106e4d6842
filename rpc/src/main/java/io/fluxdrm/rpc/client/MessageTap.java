package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Message;

/** Sees every message crossing an endpoint; called on the loop, must not block. */
@FunctionalInterface
public interface MessageTap {
  /** Which way a message crossed the endpoint. */
  enum Direction {
    /** Received by the endpoint. */
    IN,
    /** Sent by the endpoint. */
    OUT
  }

  /** Called for each message. */
  void onMessage(Direction direction, Message message);
}
