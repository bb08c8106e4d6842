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
import io.fluxdrm.rpc.service.Service;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    ManualEventLoop loop = new ManualEventLoop();
    String[] nextId = {"replay-service"};
    Hub hub = new Hub(loop, () -> nextId[0]);
    Service service = factory.create(loop);
    String name = service.name();
    FluxHandle server = hub.attach(Credentials.owner(0));
    List<String> actual = new ArrayList<>();
    List<TranscriptLine> actualLines = new ArrayList<>();
    Map<String, String> originalSender = new HashMap<>();
    Instant start = lines.isEmpty() ? Instant.EPOCH : lines.get(0).time();
    MessageTap.Direction[] responseDirection = {MessageTap.Direction.OUT};
    // per replay client, the matchtags of its requests the service has not finished answering
    // (true: a stream's)
    Map<String, Map<Integer, Boolean>> inFlight = new HashMap<>();
    server.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.OUT
              && m.type() == MessageType.RESPONSE
              && name.equals(m.service())) {
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
    CompletableFuture<Void> reg = server.register(service);
    loop.runPending();
    if (!reg.isDone() || reg.isCompletedExceptionally()) {
      throw new RpcException(Errno.EIO, "replay: service " + name + " did not register");
    }
    // recorded at the service's endpoint, requests came in and responses went out; recorded at a
    // client's endpoint, the other way round
    boolean atService =
        lines.stream()
            .anyMatch(
                l ->
                    l.direction() == MessageTap.Direction.IN
                        && l.message().type() == MessageType.REQUEST
                        && name.equals(l.message().service()));
    MessageTap.Direction requestDir =
        atService ? MessageTap.Direction.IN : MessageTap.Direction.OUT;
    MessageTap.Direction responseDir =
        atService ? MessageTap.Direction.OUT : MessageTap.Direction.IN;
    List<String> expected = new ArrayList<>();
    Map<String, FluxHandle> clients = new HashMap<>();
    Map<String, String> clientIds = new HashMap<>();
    int[] nextClient = {1};
    responseDirection[0] = responseDir;
    List<TranscriptLine> kept = new ArrayList<>();
    long elapsed = 0;
    int requests = 0;
    for (TranscriptLine l : lines) {
      Message m = l.message();
      boolean recordedResponse =
          l.direction() == responseDir
              && m.type() == MessageType.RESPONSE
              && name.equals(m.service());
      if (!recordedResponse) {
        kept.add(l);
      }
      if (!name.equals(m.service())) {
        continue;
      }
      long at = Duration.between(start, l.time()).toNanos();
      if (at > elapsed) {
        loop.advance(Duration.ofNanos(at - elapsed));
        elapsed = at;
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
          String id = "replay-client-" + nextClient[0]++;
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
        if (m.topic().equals(name + ".disconnect")) {
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
}
