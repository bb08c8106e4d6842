package io.fluxdrm.rpc.service;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Service} on a handle: dispatch by topic, cancel, disconnect, answers. The handle
 * ({@code io.fluxdrm.rpc.client.FluxHandle}) makes one per registered service and gives it its loop
 * and the way out for responses; this package knows no handle.
 */
public final class ServiceDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceDispatcher.class);

  private final Service service;
  private final EventLoop loop;
  private final Consumer<Message> responses;
  private final Map<String, Set<ServiceRequest>> pending = new HashMap<>();

  /**
   * Makes the dispatcher of {@code service}.
   *
   * @param loop the handle's loop, on which requests arrive and answers leave
   * @param responses sends a response (on the loop)
   */
  public ServiceDispatcher(Service service, EventLoop loop, Consumer<Message> responses) {
    this.service = service;
    this.loop = loop;
    this.responses = responses;
  }

  /** Dispatches a request (on the loop). */
  public void dispatch(Message m) {
    String topic = m.topic();
    Service.Method method = service.method(topic);
    if (method == null && topic.equals(service.name() + ".cancel")) {
      cancel(m, null);
      return;
    }
    if (method == null && topic.endsWith(Service.CANCEL_SUFFIX)) {
      // a streaming method's own cancel, when the service does not define it (D520)
      String of = topic.substring(0, topic.length() - Service.CANCEL_SUFFIX.length());
      Service.Method streamed = service.method(of);
      if (streamed != null && streamed.streaming()) {
        cancel(m, of);
        return;
      }
    }
    if (method == null && topic.equals(service.name() + ".disconnect")) {
      disconnect(m.sender() == null ? "" : m.sender());
      return;
    }
    if (method == null) {
      reject(m, Errno.ENOSYS, "unknown service method '" + topic + "'");
      return;
    }
    if (method.streaming() && !m.has(Flags.STREAMING)) {
      reject(
          m,
          Errno.EPROTO,
          topic + ": streaming method called without flag STREAMING (expected: STREAMING)");
      return;
    }
    ServiceRequest r = new ServiceRequest(m, this, method.streaming());
    if (r.expectsResponse()) {
      pending.computeIfAbsent(senderOf(m), k -> new LinkedHashSet<>()).add(r);
    }
    try {
      method.handler().handle(r);
    } catch (RpcException e) {
      r.fail(e.errnum(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("handler of {} failed", topic, e);
      r.fail(Errno.EIO, topic + ": internal error (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static String senderOf(Message m) {
    return m.sender() == null ? "" : m.sender();
  }

  private void reject(Message m, int errnum, String text) {
    if (!m.has(Flags.NORESPONSE)) {
      responses.accept(Message.response(m, errnum, Json.text(text)));
    }
  }

  /**
   * Cancels the sender's request with the payload's matchtag (of topic {@code only}, when given):
   * the service's cancel hook, else the request ends, a stream with ENODATA (its normal end, as
   * flux-core's streams end when canceled), any other with ECANCELED.
   */
  private void cancel(Message m, String only) {
    int tag;
    try {
      tag = m.json().path("matchtag").asInt(-1);
    } catch (RpcException e) {
      LOG.debug("{}.cancel: {}", service.name(), e.getMessage());
      return;
    }
    Set<ServiceRequest> set = pending.get(senderOf(m));
    if (set == null || tag <= 0) {
      return;
    }
    for (ServiceRequest r : List.copyOf(set)) {
      if (r.matchtag() == tag && !r.isDone() && (only == null || only.equals(r.topic()))) {
        Consumer<ServiceRequest> hook = service.onCancel();
        if (hook != null) {
          hook.accept(r);
        } else if (only != null && r.streaming()) {
          r.end();
        } else {
          r.fail(Errno.ECANCELED, service.name() + ": request canceled");
        }
        return;
      }
    }
  }

  private void disconnect(String sender) {
    Set<ServiceRequest> set = pending.remove(sender);
    if (set != null) {
      for (ServiceRequest r : set) {
        r.markDone();
      }
    }
    if (service.onDisconnect() != null) {
      service.onDisconnect().accept(sender);
    }
  }

  /** Sends an answer from any thread. */
  void answer(ServiceRequest r, int errnum, byte[] payload, boolean fin) {
    if (!loop.inLoop()) {
      loop.execute(() -> answer(r, errnum, payload, fin));
      return;
    }
    if (r.isDone()) {
      LOG.debug("{}: answer after the request was finished, canceled or dropped", r.topic());
      return;
    }
    if (!r.expectsResponse()) {
      if (fin) {
        r.markDone();
      }
      return;
    }
    if (fin) {
      finish(r);
    }
    responses.accept(Message.response(r.message(), errnum, payload));
  }

  /** Forgets a request without answering it, from any thread. */
  void drop(ServiceRequest r) {
    if (!loop.inLoop()) {
      loop.execute(() -> drop(r));
      return;
    }
    if (!r.isDone()) {
      finish(r);
    }
  }

  private void finish(ServiceRequest r) {
    r.markDone();
    Set<ServiceRequest> set = pending.get(senderOf(r.message()));
    if (set != null) {
      set.remove(r);
      if (set.isEmpty()) {
        pending.remove(senderOf(r.message()));
      }
    }
  }

  /** Drops everything pending (handle closing). */
  public void clear() {
    List<ServiceRequest> all = new ArrayList<>();
    pending.values().forEach(all::addAll);
    all.forEach(ServiceRequest::markDone);
    pending.clear();
  }

  public int pendingCount() {
    return pending.values().stream().mapToInt(Set::size).sum();
  }
}
