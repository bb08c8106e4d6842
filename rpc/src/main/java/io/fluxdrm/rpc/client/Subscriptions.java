package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Message;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link FluxHandle} delivers that no call owns: events to the subscriptions of their topic
 * prefix, and responses with matchtag 0 to the {@link ResponseHandler}s of their topic (issue 31,
 * scope 7; decision D542). Used on the handle's loop only.
 */
final class Subscriptions {
  /** Logged under the handle's name, as before the subscriptions left it (D542). */
  private static final Logger LOG = LoggerFactory.getLogger(FluxHandle.class);

  private final List<Subscription> subscriptions = new ArrayList<>();
  private final List<ResponseHandler> responseHandlers = new ArrayList<>();

  void add(Subscription s) {
    subscriptions.add(s);
  }

  /**
   * Removes a subscription; returns whether {@code event.unsubscribe} is due: it was there and no
   * other has its prefix.
   */
  boolean remove(Subscription s) {
    return subscriptions.remove(s)
        && subscriptions.stream().noneMatch(o -> o.prefix().equals(s.prefix()));
  }

  void add(ResponseHandler r) {
    responseHandlers.add(r);
  }

  void remove(ResponseHandler r) {
    responseHandlers.remove(r);
  }

  /** Delivers a response with matchtag 0 to every handler of its topic. */
  void untracked(Message m) {
    boolean delivered = false;
    for (ResponseHandler r : List.copyOf(responseHandlers)) {
      if (r.topic().equals(m.topic())) {
        delivered = true;
        try {
          r.deliver(m);
        } catch (RuntimeException e) {
          LOG.error("response handler of {} failed", r.topic(), e);
        }
      }
    }
    if (!delivered) {
      LOG.debug("response without matchtag and without handler dropped: {}", m.topic());
    }
  }

  /** Delivers an event to every subscription whose prefix it matches. */
  void event(Message m) {
    for (Subscription s : List.copyOf(subscriptions)) {
      if (s.matches(m.topic())) {
        try {
          s.deliver(m);
        } catch (RuntimeException e) {
          LOG.error("event consumer of {} failed", s.prefix(), e);
        }
      }
    }
  }

  /** Forgets every subscription and handler (the handle is closed). */
  void clear() {
    subscriptions.clear();
    responseHandlers.clear();
  }
}
