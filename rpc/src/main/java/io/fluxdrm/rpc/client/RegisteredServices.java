package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceDispatcher;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The services registered on a {@link FluxHandle}, by name: {@code service.add} and {@code
 * service.remove}, and the dispatcher that serves each one's requests (issue 31, scope 7; decision
 * D542). Used on the handle's loop only.
 */
final class RegisteredServices {
  private final FluxHandle handle;
  private final Map<String, ServiceDispatcher> services = new HashMap<>();

  RegisteredServices(FluxHandle handle) {
    this.handle = handle;
  }

  /** Registers a service, completing {@code f} once {@code service.add} succeeds. */
  void register(Service service, CompletableFuture<Void> f) {
    if (services.containsKey(service.name())) {
      f.completeExceptionally(
          new RpcException(Errno.EEXIST, "service " + service.name() + ": registered"));
      return;
    }
    ServiceDispatcher d = new ServiceDispatcher(service, handle.loop(), handle::sendResponse);
    services.put(service.name(), d);
    handle
        .rpc("service.add", Json.object().put("service", service.name()))
        .whenComplete(
            (m, e) -> {
              if (e != null) {
                services.remove(service.name(), d);
                f.completeExceptionally(e);
              } else {
                f.complete(null);
              }
            });
  }

  /** Unregisters a service, dropping its pending requests; completes {@code f} with the answer. */
  void unregister(String name, CompletableFuture<Void> f) {
    ServiceDispatcher d = services.remove(name);
    if (d != null) {
      d.clear();
    }
    handle
        .rpc("service.remove", Json.object().put("service", name))
        .whenComplete((m, e) -> complete(f, e));
  }

  private static void complete(CompletableFuture<Void> f, Throwable e) {
    if (e != null) {
      f.completeExceptionally(e);
    } else {
      f.complete(null);
    }
  }

  /** Returns how many requests the service {@code name} holds unanswered (0 for none). */
  int pending(String name) {
    ServiceDispatcher d = services.get(name);
    return d == null ? 0 : d.pendingCount();
  }

  /** Hands a request to its service's dispatcher; returns false when no such service is here. */
  boolean dispatch(Message m) {
    ServiceDispatcher d = services.get(m.service());
    if (d == null) {
      return false;
    }
    d.dispatch(m);
    return true;
  }

  /** Drops every service and its pending requests (the handle is closed). */
  void clear() {
    services.values().forEach(ServiceDispatcher::clear);
    services.clear();
  }
}
