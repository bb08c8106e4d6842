package io.fluxdrm.protocol;

/** The Flux broker services fluxdrm calls besides RFC 27 and RFC 51 (flux-core's own topics). */
public final class FluxTopics {

  /** Publish an event (RFC 3 events are published through the broker's {@code event} service). */
  public static final String EVENT_PUB = "event.pub";

  public static final String EVENT_SUBSCRIBE = "event.subscribe";
  public static final String EVENT_UNSUBSCRIBE = "event.unsubscribe";

  /** flux-core's resource module: the stream of resources a scheduler may use (RFC 28). */
  public static final String RESOURCE_ACQUIRE = "resource.acquire";

  public static final String KVS_COMMIT = "kvs.commit";
  public static final String KVS_LOOKUP = "kvs.lookup";

  private FluxTopics() {}
}
