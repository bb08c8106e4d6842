package io.fluxdrm.rpc.transcript;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.RequestHandler;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Replays the requests a service received in a transcript (recorded at the service's endpoint, or
 * at a client's endpoint, where the requests go out and the responses come in) against a fresh
 * instance, on a deterministic loop whose clock follows the recorded times, and compares the
 * responses it sends with the recorded ones, line by line after normalisation.
 *
 * <p>Each original sender becomes an in-memory client with the recorded credentials (the instance
 * owner's when the transcript was recorded at a client, before the transport stamped them);
 * requests keep their flags, topic, payload and matchtag. A transcript recorded at clients may hold
 * the requests of several connections, which name no sender there: a request whose matchtag is
 * still in flight in the replay (RFC 6: one request per matchtag and connection) came from another
 * connection, and is replayed from another client (D493).
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public final class Replay {
  private Replay() {}

  /** Replays a transcript file against a service made by the factory, without normalisation. */
  public static ReplayResult run(Path transcript, ServiceFactory service) {
    return run(Transcript.read(transcript), service, List.of());
  }

  /** Replays a transcript file against one service instance, without normalisation. */
  public static ReplayResult run(Path transcript, Service service) {
    return run(Transcript.read(transcript), loop -> service, List.of());
  }

  /** Replays transcript lines against a fresh service, with normalisations. */
  public static ReplayResult run(
      List<TranscriptLine> lines, ServiceFactory factory, List<Normalisation> normalisations) {
    return run(lines, (loop, server) -> List.of(factory.create(loop)), Set.of(), normalisations);
  }

  /**
   * Replays transcript lines against the fresh world of a provider: its services, the services
   * whose part the replay plays, its normalisations (D518).
   */
  public static ReplayResult run(List<TranscriptLine> lines, ReplayProvider provider) {
    return run(lines, provider::services, provider.played(), provider.normalisations());
  }

  /**
   * How a world's services are made: on the replay's loop, using its hub through {@code server}.
   */
  @FunctionalInterface
  private interface World {
    List<Service> create(io.fluxdrm.rpc.reactor.EventLoop loop, FluxHandle server);
  }

  private static ReplayResult run(
      List<TranscriptLine> lines,
      World world,
      Set<String> played,
      List<Normalisation> normalisations) {
    ManualEventLoop loop = new ManualEventLoop();
    String[] nextId = {"replay-service"};
    Hub hub = new Hub(loop, () -> nextId[0]);
    FluxHandle server = hub.attach(Credentials.owner(0));
    nextId[0] = "replay-partner";
    Partner partner = played.isEmpty() ? null : new Partner(lines, played, hub);
    loop.runPending();
    List<Service> services = world.create(loop, server);
    Set<String> names = new HashSet<>();
    services.forEach(x -> names.add(x.name()));
    List<String> actual = new ArrayList<>();
    List<TranscriptLine> actualLines = new ArrayList<>();
    Map<String, String> originalSender = new HashMap<>();
    Instant start = lines.isEmpty() ? Instant.EPOCH : lines.get(0).time();
    MessageTap.Direction[] responseDirection = {MessageTap.Direction.OUT};
    // per replay client, the matchtags of its requests the service has not finished answering
    // (true: a stream's)
    Map<String, Map<Integer, Boolean>> inFlight = new HashMap<>();
    server.addTap(
        (d, m) -> {
          if (d == MessageTap.Direction.OUT
              && m.type() == MessageType.RESPONSE
              && names.contains(m.service())) {
            Map<Integer, Boolean> f = m.sender() == null ? null : inFlight.get(m.sender());
            if (f != null && (!f.getOrDefault(m.matchtag(), false) || m.errnum() != 0)) {
              f.remove(m.matchtag());
            }
            String s =
                m.sender() == null ? "" : originalSender.getOrDefault(m.sender(), m.sender());
            actual.add(render(m, s, normalisations));
            Message original =
                responseDirection[0] == MessageTap.Direction.OUT && !s.isEmpty()
                    ? m.withRoutes(List.of(s))
                    : m.withRoutes(List.of());
            actualLines.add(
                new TranscriptLine(
                    start.plusNanos(loop.nanoTime()), responseDirection[0], original));
          }
        });
    List<CompletableFuture<Void>> regs = new ArrayList<>();
    for (Service service : services) {
      regs.add(server.register(service));
    }
    String name = String.join(", ", names);
    loop.runPending();
    for (CompletableFuture<Void> reg : regs) {
      if (!reg.isDone() || reg.isCompletedExceptionally()) {
        throw new RpcException(Errno.EIO, "replay: service " + name + " did not register");
      }
    }
    // recorded at the service's endpoint, requests came in and responses went out; recorded at a
    // client's endpoint, the other way round
    boolean atService =
        lines.stream()
            .anyMatch(
                l ->
                    l.direction() == MessageTap.Direction.IN
                        && l.message().type() == MessageType.REQUEST
                        && names.contains(l.message().service()));
    MessageTap.Direction requestDir =
        atService ? MessageTap.Direction.IN : MessageTap.Direction.OUT;
    MessageTap.Direction responseDir =
        atService ? MessageTap.Direction.OUT : MessageTap.Direction.IN;
    List<String> expected = new ArrayList<>();
    Map<String, FluxHandle> clients = new HashMap<>();
    Map<String, String> clientIds = new HashMap<>();
    int[] nextClient = {1};
    Set<String> routes = new HashSet<>();
    responseDirection[0] = responseDir;
    List<TranscriptLine> kept = new ArrayList<>();
    long elapsed = 0;
    int requests = 0;
    for (TranscriptLine l : lines) {
      Message m = l.message();
      boolean recordedResponse =
          l.direction() == responseDir
              && m.type() == MessageType.RESPONSE
              && names.contains(m.service());
      if (!recordedResponse) {
        kept.add(l);
      }
      boolean answer = partner != null && atService && partner.answers(l);
      if (!names.contains(m.service()) && !answer) {
        continue;
      }
      long at = Duration.between(start, l.time()).toNanos();
      if (at > elapsed) {
        loop.advance(Duration.ofNanos(at - elapsed));
        elapsed = at;
      }
      if (answer) {
        // the service's own request answered where the transcript has its answer (D518)
        partner.answer(l);
        loop.runPending();
        continue;
      }
      if (l.direction() == responseDir && m.type() == MessageType.RESPONSE) {
        expected.add(render(m, m.sender() == null ? "" : m.sender(), normalisations));
      } else if (l.direction() == requestDir && m.type() == MessageType.REQUEST) {
        String sender = m.sender() == null ? "" : m.sender();
        String key = sender + "/" + m.userid() + "/" + m.rolemask();
        if (!atService) {
          // recorded at clients, requests name no sender: the requests of several connections are
          // told apart by their matchtags (RFC 6: one request in flight per matchtag and
          // connection), so one whose matchtag is in flight is replayed from another client
          int n = 0;
          while (clients.containsKey(key + "#" + n)
              && inFlight.get(clientIds.get(key + "#" + n)).containsKey(m.matchtag())) {
            n++;
          }
          key = key + "#" + n;
        }
        FluxHandle c = clients.get(key);
        if (c == null) {
          // a sender recorded at the service's endpoint keeps its route, which the peers the
          // replay plays may name in what they recorded (a tool's namespace, D518)
          String id =
              partner != null && atService && !sender.isEmpty() && routes.add(sender)
                  ? sender
                  : "replay-client-" + nextClient[0]++;
          nextId[0] = id;
          originalSender.put(id, sender);
          inFlight.put(id, new HashMap<>());
          clientIds.put(key, id);
          // a client records its requests before the transport stamps them (userid unknown):
          // those are replayed as the instance owner
          c =
              hub.attach(
                  m.userid() == Flags.USERID_UNKNOWN
                      ? Credentials.owner(0)
                      : new Credentials(m.userid(), m.rolemask()));
          clients.put(key, c);
        }
        if (!m.has(Flags.NORESPONSE)) {
          inFlight.get(clientIds.get(key)).put(m.matchtag(), m.has(Flags.STREAMING));
        }
        if (m.topic().equals(m.service() + ".disconnect")) {
          // only the hub sends disconnect notices (RFC 3, D221): the recorded one is replayed by
          // the client leaving, which makes the hub send it
          c.close();
          clients.remove(key);
        } else {
          c.sendRaw(m.withRoutes(List.of()));
        }
        requests++;
        loop.runPending();
      }
    }
    loop.runPending();
    String diff = UnifiedDiff.diff(expected, actual, "recorded", "replayed");
    List<TranscriptLine> regenerated = new ArrayList<>(kept);
    regenerated.addAll(actualLines);
    // stable: at equal times the recorded lines stay before the responses they caused
    regenerated.sort(java.util.Comparator.comparing(TranscriptLine::time));
    return new ReplayResult(diff.isEmpty(), diff, requests, actual.size(), regenerated);
  }

  /**
   * Replays a transcript file and rewrites it with the responses of the fresh service (for {@code
   * -Dgolden.update=true}).
   *
   * @return the replay's result before the rewrite
   * @throws RpcException EIO when the file cannot be written
   */
  public static ReplayResult update(
      Path transcript, ServiceFactory factory, List<Normalisation> normalisations) {
    ReplayResult r = run(Transcript.read(transcript), factory, normalisations);
    StringBuilder sb = new StringBuilder();
    for (TranscriptLine l : r.regenerated()) {
      try {
        sb.append(Json.mapper().writeValueAsString(l.toJson())).append('\n');
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    try {
      java.nio.file.Files.writeString(transcript, sb.toString());
    } catch (java.io.IOException e) {
      throw new RpcException(Errno.EIO, transcript + ": cannot write (" + e.getMessage() + ")");
    }
    return r;
  }

  static String render(Message m, String sender, List<Normalisation> normalisations) {
    ObjectNode o = Json.object();
    o.put("topic", m.topic());
    o.put("sender", sender);
    o.put("matchtag", Integer.toUnsignedLong(m.matchtag()));
    o.put("errnum", m.errnum());
    o.put("flags", Flags.describe(m.flags()));
    ObjectNode full = new TranscriptLine(Instant.EPOCH, MessageTap.Direction.OUT, m).toJson();
    for (String f : List.of("payload", "payload_text", "payload_base64")) {
      if (full.has(f)) {
        o.set(f, full.get(f));
      }
    }
    Normalisation.applyJson(o, normalisations);
    try {
      return Normalisation.applyText(Json.mapper().writeValueAsString(o), normalisations);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Plays the part of the services the replayed one calls (D518): registers them on a connection of
   * its own and answers the service's requests to them with the responses the transcript recorded,
   * the n-th request of a topic with the answers of the n-th recorded one, each answer sent when
   * the replay reaches its line (so that it comes after what came before it when recorded), or at
   * once when the request comes later than that line.
   */
  private static final class Partner {
    private final Set<String> played;
    private final Map<Integer, String> topicOf = new HashMap<>();
    private final Map<Integer, Integer> indexOf = new HashMap<>();
    private final Map<String, Integer> recorded = new HashMap<>();
    private final Map<String, List<ServiceRequest>> arrived = new HashMap<>();
    private final Map<String, Deque<Message>> due = new HashMap<>();

    Partner(List<TranscriptLine> lines, Set<String> played, Hub hub) {
      this.played = played;
      Map<String, Boolean> streaming = new java.util.LinkedHashMap<>();
      for (TranscriptLine l : lines) {
        Message m = l.message();
        if (l.direction() == MessageTap.Direction.OUT
            && m.type() == MessageType.REQUEST
            && played.contains(m.service())) {
          streaming.merge(m.topic(), m.has(Flags.STREAMING), Boolean::logicalOr);
        }
      }
      Map<String, Service.Builder> services = new java.util.LinkedHashMap<>();
      for (Map.Entry<String, Boolean> e : streaming.entrySet()) {
        String topic = e.getKey();
        int dot = topic.indexOf('.');
        String method = dot < 0 ? "" : topic.substring(dot + 1);
        Service.Builder b =
            services.computeIfAbsent(dot < 0 ? topic : topic.substring(0, dot), Service::builder);
        RequestHandler h = r -> arrived(topic, r);
        if (e.getValue()) {
          b.onStreaming(method, h);
        } else {
          b.on(method, h);
        }
      }
      FluxHandle p = hub.attach(Credentials.owner(0));
      services.values().forEach(b -> p.register(b.build()));
    }

    /** Whether {@code l} is the service's request to a played service or its recorded answer. */
    boolean answers(TranscriptLine l) {
      Message m = l.message();
      if (!played.contains(m.service())) {
        return false;
      }
      if (l.direction() == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
        if (!m.has(Flags.NORESPONSE)) {
          int n = recorded.merge(m.topic(), 1, Integer::sum) - 1;
          topicOf.put(m.matchtag(), m.topic());
          indexOf.put(m.matchtag(), n);
        }
        return false;
      }
      return l.direction() == MessageTap.Direction.IN
          && m.type() == MessageType.RESPONSE
          && m.topic().equals(topicOf.get(m.matchtag()));
    }

    /** The recorded answer {@code l}: sent now if its request came, else when it comes. */
    void answer(TranscriptLine l) {
      Message m = l.message();
      String key = m.topic() + "#" + indexOf.get(m.matchtag());
      due.computeIfAbsent(key, k -> new ArrayDeque<>()).add(m);
      send(m.topic(), indexOf.get(m.matchtag()));
    }

    private void arrived(String topic, ServiceRequest r) {
      List<ServiceRequest> a = arrived.computeIfAbsent(topic, t -> new ArrayList<>());
      a.add(r);
      send(topic, a.size() - 1);
    }

    private void send(String topic, int n) {
      List<ServiceRequest> a = arrived.getOrDefault(topic, List.of());
      Deque<Message> q = due.get(topic + "#" + n);
      if (n >= a.size() || q == null) {
        return;
      }
      ServiceRequest r = a.get(n);
      while (!q.isEmpty() && !r.isDone()) {
        Message m = q.poll();
        if (m.errnum() == 0) {
          r.respond(m.json());
        } else if (m.errnum() == Errno.ENODATA && r.streaming()) {
          r.end();
        } else {
          r.fail(m.errnum(), m.payloadSize() == 0 ? null : m.text());
        }
      }
    }
  }
}
