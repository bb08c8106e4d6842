package io.fluxdrm.rpc.service;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A named service with handlers by topic, registered on a handle with {@code service.add}.
 *
 * <p>Requests to a method without a handler get ENOSYS; a streaming method called without the
 * STREAMING flag gets EPROTO; {@code <name>.cancel} answers the named pending request with
 * ECANCELED (or calls the cancel hook); {@code <name>.disconnect} drops the sender's pending
 * requests (and calls the disconnect hook).
 */
public final class Service {
  /**
   * What a streaming method's own cancel topic ends with, as flux-core's streaming RPCs have it:
   * {@code sched.watch} is canceled by {@code sched.watch-cancel {"matchtag": N}}, sent with
   * NORESPONSE by the stream's sender (D520).
   */
  public static final String CANCEL_SUFFIX = "-cancel";

  record Method(RequestHandler handler, boolean streaming) {}

  private final String name;
  private final Map<String, Method> methods;
  private final Consumer<ServiceRequest> onCancel;
  private final Consumer<String> onDisconnect;

  private Service(Builder b) {
    this.name = b.name;
    this.methods = Map.copyOf(b.methods);
    this.onCancel = b.onCancel;
    this.onDisconnect = b.onDisconnect;
  }

  /** Starts a service named {@code name} (the first topic component, without dots). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Returns the service name. */
  public String name() {
    return name;
  }

  Method method(String topic) {
    return methods.get(topic);
  }

  Consumer<ServiceRequest> onCancel() {
    return onCancel;
  }

  Consumer<String> onDisconnect() {
    return onDisconnect;
  }

  /** Builds a {@link Service}. */
  public static final class Builder {
    private final String name;
    private final Map<String, Method> methods = new LinkedHashMap<>();
    private Consumer<ServiceRequest> onCancel;
    private Consumer<String> onDisconnect;

    private Builder(String name) {
      if (name.isEmpty() || name.contains(".")) {
        throw new IllegalArgumentException(
            "service name \"" + name + "\": (expected: non-empty, without '.')");
      }
      this.name = name;
    }

    /** Handles {@code <name>.<method>} requests that expect at most one response. */
    public Builder on(String method, RequestHandler handler) {
      return add(method, handler, false);
    }

    /** Handles a streaming method: responses until {@link ServiceRequest#end()} or an error. */
    public Builder onStreaming(String method, RequestHandler handler) {
      return add(method, handler, true);
    }

    private Builder add(String method, RequestHandler handler, boolean streaming) {
      String topic = name + "." + method;
      if (methods.putIfAbsent(topic, new Method(handler, streaming)) != null) {
        throw new IllegalArgumentException("topic " + topic + ": has a handler already");
      }
      return this;
    }

    /**
     * Replaces the default answer to {@code <name>.cancel}: the hook gets the pending request the
     * cancel names and must answer it.
     */
    public Builder onCancel(Consumer<ServiceRequest> hook) {
      this.onCancel = hook;
      return this;
    }

    /** Called with the sender's route identity when {@code <name>.disconnect} arrives. */
    public Builder onDisconnect(Consumer<String> hook) {
      this.onDisconnect = hook;
      return this;
    }

    /** Returns the service. */
    public Service build() {
      return new Service(this);
    }
  }
}
