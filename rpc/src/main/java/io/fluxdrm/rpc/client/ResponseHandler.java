package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Message;
import java.util.function.Consumer;

/**
 * A handler of the responses of one topic that carry matchtag 0 ({@code FLUX_MATCHTAG_NONE}), as a
 * {@code flux_msg_handler} for responses is: the protocol correlates them by their payload, as RFC
 * 27 does {@code sched.alloc} responses by job id. Close it to stop receiving.
 */
public final class ResponseHandler implements AutoCloseable {
  private final FluxHandle handle;
  private final String topic;
  private final Consumer<Message> consumer;

  ResponseHandler(FluxHandle handle, String topic, Consumer<Message> consumer) {
    this.handle = handle;
    this.topic = topic;
    this.consumer = consumer;
  }

  /** Returns the topic whose responses it receives. */
  public String topic() {
    return topic;
  }

  void deliver(Message m) {
    consumer.accept(m);
  }

  /** Stops delivery; responses of the topic with matchtag 0 are then dropped again. */
  @Override
  public void close() {
    handle.removeResponseHandler(this);
  }
}
