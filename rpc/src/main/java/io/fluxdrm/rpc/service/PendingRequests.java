package io.fluxdrm.rpc.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The requests a service holds open until something else answers them, keyed as RFC 6 keys an
 * in-flight request: by its sender and its matchtag. It carries the three things every service that
 * forwards or parks requests must do alike: refuse a second request with a matchtag that is still
 * pending, find the request a cancel names ({@code <topic>.cancel} per RFC 6, or a payload {@code
 * {"matchtag": N}} such as RFC 51's {@code sched.realloc_cancel}), and sweep a sender's requests
 * when the hub reports its disconnect.
 *
 * <p>Insertion order is kept, so a sweep visits requests in the order they arrived. The map is
 * owned by the reactor thread of the service that uses it, like every other piece of service state:
 * it takes no lock.
 *
 * @param <V> what the service keeps for each pending request
 */
public final class PendingRequests<V> {

  /** The identity of an in-flight request (RFC 6: the sender's route and its matchtag). */
  public record Key(String sender, int matchtag) {
    public Key {
      Objects.requireNonNull(sender, "sender");
    }

    /** The key of {@code req}. */
    public static Key of(ServiceRequest req) {
      return new Key(req.sender(), req.matchtag());
    }
  }

  private final Map<Key, V> pending = new LinkedHashMap<>();

  /**
   * Records {@code value} for {@code req}.
   *
   * @return the request's key
   * @throws RpcException EPROTO when the sender has a request with that matchtag pending already
   *     (RFC 6: a matchtag names one request in flight), in which case nothing is recorded
   */
  public Key add(ServiceRequest req, V value) {
    Key key = Key.of(req);
    requireFree(req.topic(), key);
    pending.put(key, Objects.requireNonNull(value, "value"));
    return key;
  }

  /**
   * Checks that {@code key} is not pending, before a service starts work it would record under it.
   *
   * @throws RpcException EPROTO when it is
   */
  public void requireFree(String topic, Key key) {
    if (pending.containsKey(key)) {
      throw new RpcException(
          Errno.EPROTO, topic + ": matchtag " + key.matchtag() + " already pending");
    }
  }

  /** Records {@code value} under {@code key}, which {@link #requireFree} has checked. */
  public void put(Key key, V value) {
    pending.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
  }

  /** What is pending under {@code key}, or null. */
  public V get(Key key) {
    return pending.get(key);
  }

  /** What {@code sender} has pending under {@code matchtag}, or null. */
  public V get(String sender, int matchtag) {
    return pending.get(new Key(sender, matchtag));
  }

  /** What a {@code <topic>.cancel} request names (RFC 6: the canceled request's own matchtag). */
  public V canceledBy(ServiceRequest cancel) {
    return pending.get(Key.of(cancel));
  }

  /** Removes {@code key}'s entry if it still is {@code value}; whether it was. */
  public boolean remove(Key key, V value) {
    return pending.remove(key, value);
  }

  /** Removes and returns {@code key}'s entry, or null. */
  public V remove(Key key) {
    return pending.remove(key);
  }

  /** Whether {@code key} is pending. */
  public boolean contains(Key key) {
    return pending.containsKey(key);
  }

  /** The requests {@code sender} has pending, in arrival order, left in place. */
  public List<V> ofSender(String sender) {
    List<V> mine = new ArrayList<>();
    pending.forEach(
        (k, v) -> {
          if (k.sender().equals(sender)) {
            mine.add(v);
          }
        });
    return mine;
  }

  /**
   * Removes the requests of a sender that disconnected (the hub's {@code <service>.disconnect}, RFC
   * 6) and returns them, in arrival order, for the service to cancel or drop.
   */
  public List<V> sweep(String sender) {
    List<V> gone = new ArrayList<>();
    pending
        .entrySet()
        .removeIf(
            e -> {
              if (e.getKey().sender().equals(sender)) {
                gone.add(e.getValue());
                return true;
              }
              return false;
            });
    return gone;
  }

  /** Removes every entry whose value matches {@code which}; whether any did. */
  public boolean removeIf(Predicate<V> which) {
    return pending.values().removeIf(which);
  }

  /** Every pending value, in arrival order (a view). */
  public Collection<V> values() {
    return Collections.unmodifiableCollection(pending.values());
  }

  /** How many requests are pending. */
  public int size() {
    return pending.size();
  }

  /** Whether none is. */
  public boolean isEmpty() {
    return pending.isEmpty();
  }

  /** Forgets every entry (a service that goes down fails them first). */
  public void clear() {
    pending.clear();
  }

  /**
   * The matchtag a cancel payload names, as RFC 51's {@code sched.realloc_cancel {"matchtag": N}}
   * carries it.
   *
   * @throws RpcException EPROTO, located at {@code /matchtag}, when it is missing or not an integer
   *     that fits a matchtag
   */
  public static int matchtagOf(String topic, JsonNode payload) {
    JsonNode tag = payload == null ? null : payload.get("matchtag");
    if (tag == null || !tag.isIntegralNumber() || !tag.canConvertToInt()) {
      throw new RpcException(
          Errno.EPROTO,
          topic
              + ": /matchtag: "
              + (tag == null ? "missing" : tag)
              + " (expected: an integer matchtag)");
    }
    return tag.asInt();
  }
}
