package io.fluxdrm.rpc.transcript;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.service.RequestHandler;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Replays the requests a transcript recorded at a service's endpoint against a service that already
 * runs (a fluxdrm server on its hub, a scheduler in a test instance), over real connections, and
 * compares its responses with the recorded ones as {@link Replay} does.
 *
 * <p>Each original sender becomes a connection of its own, made by {@code connect}; its requests
 * carry the credentials that connection's transport stamps, not the recorded ones. The service's
 * own requests to other services in the transcript (a scheduler's {@code job-manager.sched-hello}
 * and {@code sched-ready}) are answered by a partner connection registering those services with the
 * recorded responses, in recorded order per topic: the replayer plays the job manager's part. A
 * request is sent once the responses recorded before it have come and the service's last upcall
 * recorded before it (the n-th request of its topic) has been answered, or {@code wait} passed; a
 * step that did not come within {@code wait} is not waited for again, so that another
 * implementation, which makes other upcalls or gives fewer answers, costs one wait, not one per
 * request; responses are compared per sender, in the order each sender received them, so that two
 * senders' answers interleaving otherwise than recorded is no difference.
 */
public final class LiveReplay {
  private LiveReplay() {}

  /**
   * Replays {@code lines} against the live service {@code name}.
   *
   * @param connect makes a new connection to the service's instance (one per original sender, one
   *     for the partner); the caller closes nothing: the replay closes what it made
   * @param play the services whose part the replayer plays (e.g. {@code job-manager})
   * @param wait how long to wait for the responses recorded before a request, and at the end
   * @throws RpcException EINVAL when the transcript holds no request to {@code name} recorded at
   *     its endpoint; the connection's own error when one cannot be made
   */
  public static ReplayResult run(
      List<TranscriptLine> lines,
      String name,
      Supplier<FluxHandle> connect,
      java.util.Set<String> play,
      List<Normalisation> normalisations,
      Duration wait)
      throws InterruptedException {
    return run(lines, name, connect, play, normalisations, wait, () -> {});
  }

  /**
   * As {@link #run(List, String, Supplier, java.util.Set, List, Duration)}, calling {@code
   * whenPlaying} once the partner holds the played services and before the first request is sent:
   * where the service under test is started only then (a scheduler loaded into an instance whose
   * job manager the replayer plays, so that its hello and ready reach the replayer).
   *
   * @param whenPlaying runs on the caller's thread; what it throws ends the replay
   */
  public static ReplayResult run(
      List<TranscriptLine> lines,
      String name,
      Supplier<FluxHandle> connect,
      java.util.Set<String> play,
      List<Normalisation> normalisations,
      Duration wait,
      Runnable whenPlaying)
      throws InterruptedException {
    boolean any =
        lines.stream()
            .anyMatch(
                l ->
                    l.direction() == MessageTap.Direction.IN
                        && l.message().type() == MessageType.REQUEST
                        && name.equals(l.message().service()));
    if (!any) {
      throw new RpcException(
          Errno.EINVAL,
          "no request to service "
              + name
              + " recorded at its endpoint (expected: a transcript of "
              + name
              + "'s --transcript)");
    }
    List<FluxHandle> made = new ArrayList<>();
    try {
      Map<String, Integer> upcalls = new HashMap<>();
      FluxHandle partner = partner(lines, name, connect, play, made, wait, upcalls);
      whenPlaying.run();
      // the service's last upcall recorded before a request: its topic, and how many of that
      // topic the service had made then
      Map<String, Integer> upcallsSeen = new HashMap<>();
      String lastTopic = null;
      Wants wants = new Wants(wait);
      Map<String, List<String>> expected = new LinkedHashMap<>();
      Map<String, List<String>> actual = new LinkedHashMap<>();
      int[] received = {0};
      Map<String, FluxHandle> clients = new HashMap<>();
      int before = 0;
      int requests = 0;
      for (TranscriptLine l : lines) {
        Message m = l.message();
        if (!name.equals(m.service())) {
          if (l.direction() == MessageTap.Direction.OUT
              && m.type() == MessageType.REQUEST
              && !m.has(Flags.NORESPONSE)
              && play.contains(m.service())) {
            lastTopic = m.topic();
            upcallsSeen.merge(lastTopic, 1, Integer::sum);
          }
          continue;
        }
        String sender = m.sender() == null ? "" : m.sender();
        if (l.direction() == MessageTap.Direction.OUT && m.type() == MessageType.RESPONSE) {
          expected
              .computeIfAbsent(sender, s -> new ArrayList<>())
              .add(render(m, sender, normalisations));
          before++;
        } else if (l.direction() == MessageTap.Direction.IN && m.type() == MessageType.REQUEST) {
          wants.await("responses", actual, () -> received[0], before);
          if (lastTopic != null) {
            String t = lastTopic;
            wants.await(
                "upcall " + t, upcalls, () -> upcalls.getOrDefault(t, 0), upcallsSeen.get(t));
          }
          FluxHandle c = clients.get(sender);
          if (c == null) {
            c = connect.get();
            made.add(c);
            clients.put(sender, c);
            c.tap(
                (d, r) -> {
                  if (d == MessageTap.Direction.IN
                      && r.type() == MessageType.RESPONSE
                      && name.equals(r.service())) {
                    synchronized (actual) {
                      actual
                          .computeIfAbsent(sender, s -> new ArrayList<>())
                          .add(render(r, sender, normalisations));
                      received[0]++;
                      actual.notifyAll();
                    }
                  }
                });
          }
          requests++;
          if (m.topic().equals(name + ".disconnect")) {
            c.close();
            clients.remove(sender);
          } else {
            c.sendRaw(m.withRoutes(List.of()));
          }
        }
      }
      wants.await("responses", actual, () -> received[0], before);
      List<String> exp = new ArrayList<>();
      List<String> act = new ArrayList<>();
      synchronized (actual) {
        List<String> senders = new ArrayList<>(expected.keySet());
        actual.keySet().stream().filter(s -> !senders.contains(s)).forEach(senders::add);
        for (String s : senders) {
          exp.addAll(expected.getOrDefault(s, List.of()));
          act.addAll(actual.getOrDefault(s, List.of()));
        }
      }
      if (partner != null) {
        partner.close();
      }
      String diff = UnifiedDiff.diff(exp, act, "recorded", "replayed");
      return new ReplayResult(diff.isEmpty(), diff, requests, act.size(), List.of());
    } finally {
      made.forEach(FluxHandle::close);
    }
  }

  /**
   * A response as {@link Replay#render} gives it, with the keys of every object of its payload in
   * sorted order: a JSON object's key order carries no meaning (RFC 8259), and another
   * implementation of the service (flux-core's sched-simple writes R's {@code nslots} after {@code
   * expiration}, fluxdrm before {@code starttime}) may order them otherwise.
   */
  private static String render(Message m, String sender, List<Normalisation> normalisations) {
    String line = Replay.render(m, sender, normalisations);
    try {
      com.fasterxml.jackson.databind.node.ObjectNode o =
          (com.fasterxml.jackson.databind.node.ObjectNode) Json.mapper().readTree(line);
      if (!o.has("payload")) {
        return line;
      }
      o.set("payload", sorted(o.get("payload")));
      return Json.mapper().writeValueAsString(o);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A copy of {@code n} whose objects, at every depth, have their keys in sorted order. */
  private static com.fasterxml.jackson.databind.JsonNode sorted(
      com.fasterxml.jackson.databind.JsonNode n) {
    if (n.isObject()) {
      com.fasterxml.jackson.databind.node.ObjectNode o = Json.object();
      java.util.TreeMap<String, com.fasterxml.jackson.databind.JsonNode> keys =
          new java.util.TreeMap<>();
      n.properties().forEach(e -> keys.put(e.getKey(), e.getValue()));
      keys.forEach((k, v) -> o.set(k, sorted(v)));
      return o;
    }
    if (n.isArray()) {
      com.fasterxml.jackson.databind.node.ArrayNode a = Json.mapper().createArrayNode();
      n.forEach(v -> a.add(sorted(v)));
      return a;
    }
    return n;
  }

  /**
   * The causal waits of one replay. A wait that {@code wait} ends short by {@code d} (answers the
   * service did not give, an upcall another implementation does not make) lowers what later waits
   * of the same kind expect by {@code d}: the replay waits for a missing step once, not once per
   * request after it.
   */
  private static final class Wants {
    private final Duration wait;
    private final Map<String, Integer> missing = new HashMap<>();

    Wants(Duration wait) {
      this.wait = wait;
    }

    /**
     * Waits, on {@code lock}'s monitor, until {@code count} reaches {@code n} less what this kind
     * already missed, or {@code wait} passed; whoever changes the count notifies the lock.
     */
    void await(String kind, Object lock, java.util.function.IntSupplier count, int n)
        throws InterruptedException {
      int want = n - missing.getOrDefault(kind, 0);
      long deadline = System.nanoTime() + wait.toNanos();
      synchronized (lock) {
        while (count.getAsInt() < want) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            missing.merge(kind, want - count.getAsInt(), Integer::sum);
            return;
          }
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        }
      }
    }
  }

  /**
   * The connection that answers the service's own requests with the recorded responses: one service
   * per other service the transcript shows it calling; null when it calls none.
   */
  private static FluxHandle partner(
      List<TranscriptLine> lines,
      String name,
      Supplier<FluxHandle> connect,
      java.util.Set<String> play,
      List<FluxHandle> made,
      Duration wait,
      Map<String, Integer> answered) {
    // the service's requests (out at its endpoint) and, by matchtag, the responses it received
    Map<Integer, String> topicOf = new HashMap<>();
    Map<Integer, List<Message>> answers = new LinkedHashMap<>();
    Map<String, Deque<List<Message>>> byTopic = new LinkedHashMap<>();
    Map<String, Boolean> streaming = new HashMap<>();
    for (TranscriptLine l : lines) {
      Message m = l.message();
      if (name.equals(m.service()) || !play.contains(m.service())) {
        continue;
      }
      if (l.direction() == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
        if (m.has(Flags.NORESPONSE)) {
          continue;
        }
        topicOf.put(m.matchtag(), m.topic());
        List<Message> seq = new ArrayList<>();
        answers.put(m.matchtag(), seq);
        byTopic.computeIfAbsent(m.topic(), t -> new ArrayDeque<>()).add(seq);
        streaming.merge(m.topic(), m.has(Flags.STREAMING), Boolean::logicalOr);
      } else if (l.direction() == MessageTap.Direction.IN && m.type() == MessageType.RESPONSE) {
        List<Message> seq = answers.get(m.matchtag());
        if (seq != null && m.topic().equals(topicOf.get(m.matchtag()))) {
          seq.add(m);
        }
      }
    }
    if (byTopic.isEmpty()) {
      return null;
    }
    Map<String, Service.Builder> services = new LinkedHashMap<>();
    for (Map.Entry<String, Deque<List<Message>>> e : byTopic.entrySet()) {
      String topic = e.getKey();
      int dot = topic.indexOf('.');
      String service = dot < 0 ? topic : topic.substring(0, dot);
      String method = dot < 0 ? "" : topic.substring(dot + 1);
      Deque<List<Message>> queue = e.getValue();
      Service.Builder b = services.computeIfAbsent(service, Service::builder);
      RequestHandler h =
          r -> {
            List<Message> seq;
            synchronized (queue) {
              seq = queue.isEmpty() ? null : queue.poll();
            }
            answer(r, seq, topic);
            synchronized (answered) {
              answered.merge(topic, 1, Integer::sum);
              answered.notifyAll();
            }
          };
      if (Boolean.TRUE.equals(streaming.get(topic))) {
        b.onStreaming(method, h);
      } else {
        b.on(method, h);
      }
    }
    FluxHandle p = connect.get();
    made.add(p);
    for (Service.Builder b : services.values()) {
      try {
        p.register(b.build()).get(wait.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        throw c instanceof RpcException r
            ? r
            : new RpcException(Errno.EIO, "replay: registering a partner: " + c.getMessage());
      } catch (TimeoutException e) {
        throw new RpcException(Errno.ETIMEDOUT, "replay: registering a partner: no answer");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RpcException(Errno.EIO, "replay: interrupted");
      }
    }
    return p;
  }

  /** Answers a request of the service as recorded: each response, an error, or the stream's end. */
  private static void answer(ServiceRequest r, List<Message> seq, String topic) {
    if (seq == null || seq.isEmpty()) {
      r.fail(Errno.EPROTO, topic + ": the transcript records no answer for this request");
      return;
    }
    for (Message m : seq) {
      if (m.errnum() == 0) {
        r.respond(m.json());
      } else if (m.errnum() == Errno.ENODATA && r.streaming()) {
        r.end();
        return;
      } else {
        r.fail(m.errnum(), m.payloadSize() == 0 ? null : m.text());
        return;
      }
    }
  }
}
