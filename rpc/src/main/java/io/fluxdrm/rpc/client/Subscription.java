package io.fluxdrm.rpc.client;

/** An event subscription by topic prefix; close it to stop receiving. */
public final class Subscription implements AutoCloseable {
  private final FluxHandle handle;
  private final String prefix;
  private final java.util.function.Consumer<io.fluxdrm.rpc.Message> consumer;

  Subscription(
      FluxHandle handle, String prefix, java.util.function.Consumer<io.fluxdrm.rpc.Message> c) {
    this.handle = handle;
    this.prefix = prefix;
    this.consumer = c;
  }

  /** Returns the topic prefix. */
  public String prefix() {
    return prefix;
  }

  boolean matches(String topic) {
    return topic != null && topic.startsWith(prefix);
  }

  void deliver(io.fluxdrm.rpc.Message m) {
    consumer.accept(m);
  }

  /** Stops delivery and sends {@code event.unsubscribe} when no other subscription needs it. */
  @Override
  public void close() {
    handle.unsubscribe(this);
  }
}
