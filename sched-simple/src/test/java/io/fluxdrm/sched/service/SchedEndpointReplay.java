package io.fluxdrm.sched.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rpc.transcript.UnifiedDiff;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Replays a whole transcript recorded at the scheduler's endpoint, its own handshake included,
 * against a fresh scheduler on an in-memory hub: the peers it calls ({@code job-manager}, and when
 * attached {@code resource} and {@code kvs}) answer each of its requests with the responses
 * recorded for that request (a hello lists the recorded jobs, a lookup returns the recorded R), and
 * the recorded requests to {@code sched} and {@code feasibility} are sent again by clients with the
 * recorded routes and credentials. Every line the fresh scheduler's endpoint sees (its requests
 * out, the answers in, its responses) is compared with the file, start and expiration times
 * ignored.
 *
 * <p>{@code fluxdrm replay --service sched} registers only the {@code sched} service and so cannot
 * replay what the scheduler does on its own (hello, ready, raise, kvs): that is what this replay
 * adds (decision D126).
 */
final class SchedEndpointReplay {
  private static final List<String> IGNORED =
      List.of(
          "/payload/R/execution/starttime",
          "/payload/R/execution/expiration",
          "/payload/R_delta_add/execution/starttime",
          "/payload/R_delta_add/execution/expiration");

  /** How the scheduler runs in the replay. */
  enum Mode {
    STANDALONE,
    ATTACHED
  }

  private SchedEndpointReplay() {}

  /** Returns the unified diff between the file and its replay; empty when they are the same. */
  static String diff(Path golden, Mode mode, SchedulerOptions options) {
    List<TranscriptLine> lines = Transcript.read(golden);
    List<String> want = normalise(lines.stream().map(l -> l.toJson().toString()).toList());
    List<String> got = normalise(replay(lines, mode, options).lines().toList());
    return UnifiedDiff.diff(want, got, "recorded", "replayed");
  }

  /** Lines with the ignored fields removed, as compact JSON. */
  static List<String> normalise(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      ObjectNode o;
      try {
        o = (ObjectNode) Json.mapper().readTree(line);
      } catch (JsonProcessingException e) {
        throw new AssertionError("not a transcript line: " + line, e);
      }
      for (String path : IGNORED) {
        int cut = path.lastIndexOf('/');
        JsonNode parent = o.at(path.substring(0, cut));
        if (parent instanceof ObjectNode p) {
          p.remove(path.substring(cut + 1));
        }
      }
      out.add(o.toString());
    }
    return out;
  }

  /** Replays the lines and returns the fresh recording at the scheduler's endpoint. */
  static String replay(List<TranscriptLine> lines, Mode mode, SchedulerOptions options) {
    ManualEventLoop loop = new ManualEventLoop();
    int[] nextPeer = {1};
    Hub hub = new Hub(loop, () -> "peer-" + nextPeer[0]++);
    FluxHandle schedHandle = hub.attach(Credentials.owner(SchedFixture.OWNER));
    StringWriter out = new StringWriter();
    TranscriptRecorder recorder = new TranscriptRecorder(out, loop.clock(Instant.EPOCH));
    schedHandle.tap(recorder);

    Script script = new Script(lines);
    FluxHandle peers = hub.attach(Credentials.owner(SchedFixture.OWNER));
    List<CompletableFuture<Void>> regs = new ArrayList<>();
    regs.add(
        peers.register(
            Service.builder("job-manager")
                .onStreaming("sched-hello", script::answer)
                .on("sched-ready", script::answer)
                .on("raise", script::answer)
                .build()));
    if (mode == Mode.ATTACHED) {
      regs.add(
          peers.register(
              Service.builder("resource").onStreaming("acquire", script::answer).build()));
      regs.add(
          peers.register(
              Service.builder("kvs")
                  .on("lookup", script::answer)
                  .on("commit", script::answer)
                  .build()));
    }
    loop.runPending();
    regs.forEach(CompletableFuture::join);

    SchedService.Builder b =
        mode == Mode.ATTACHED
            ? SchedService.attached()
            : SchedService.standalone(SchedReplayProvider.POOL).store(StateStore.inMemory());
    SchedService svc =
        b.options(options)
            .clock(() -> 1000 + loop.nanoTime() / 1e9)
            .retry(Duration.ofMillis(100), Duration.ofSeconds(1))
            .build();
    svc.start(schedHandle);
    loop.runPending();

    Map<String, FluxHandle> clients = new HashMap<>();
    for (TranscriptLine l : lines) {
      Message m = l.message();
      if (l.direction() != MessageTap.Direction.IN
          || m.type() != MessageType.REQUEST
          || !(m.service().equals("sched") || m.service().equals("feasibility"))) {
        continue;
      }
      long at = Duration.between(Instant.EPOCH, l.time()).toNanos();
      if (at > loop.nanoTime()) {
        loop.advance(Duration.ofNanos(at - loop.nanoTime()));
      }
      String sender = m.sender() == null ? "" : m.sender();
      FluxHandle c =
          sender.equals(script.jobManager)
              ? peers
              : clients.computeIfAbsent(
                  sender, s -> hub.attach(new Credentials(m.userid(), m.rolemask())));
      c.sendRaw(m.withRoutes(List.of()));
      loop.runPending();
    }
    loop.runPending();
    svc.core().pool().checkInvariants();
    recorder.flush();
    return out.toString();
  }

  /**
   * The recorded answers to the scheduler's own requests: for the n-th request on a topic, the
   * responses that came in for the n-th recorded request on that topic (same matchtag, before the
   * next request reusing it).
   */
  private static final class Script {
    final Map<String, List<List<Message>>> answers = new HashMap<>();
    final Map<String, Integer> served = new HashMap<>();

    /** The route of the recorded job manager (the peer that answered the hello). */
    String jobManager = "";

    Script(List<TranscriptLine> lines) {
      Map<String, List<Message>> open = new HashMap<>();
      for (TranscriptLine l : lines) {
        Message m = l.message();
        String s = m.service();
        if (s.equals("sched") || s.equals("feasibility") || s.equals("service")) {
          continue;
        }
        String key = m.topic() + "#" + m.matchtag();
        if (l.direction() == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
          List<Message> list = new ArrayList<>();
          open.put(key, list);
          answers.computeIfAbsent(m.topic(), t -> new ArrayList<>()).add(list);
        } else if (l.direction() == MessageTap.Direction.IN && m.type() == MessageType.RESPONSE) {
          List<Message> list = open.get(key);
          if (list != null) {
            list.add(m);
          }
        }
      }
      for (TranscriptLine l : lines) {
        Message m = l.message();
        if (l.direction() == MessageTap.Direction.IN
            && m.type() == MessageType.REQUEST
            && m.service().equals("sched")
            && m.sender() != null) {
          jobManager = m.sender();
          break;
        }
      }
    }

    void answer(ServiceRequest req) {
      List<List<Message>> all = answers.getOrDefault(req.topic(), List.of());
      int n = served.merge(req.topic(), 1, Integer::sum) - 1;
      if (n >= all.size()) {
        req.fail(Errno.EPROTO, req.topic() + ": request " + (n + 1) + " is not in the transcript");
        return;
      }
      for (Message r : all.get(n)) {
        if (r.errnum() == 0) {
          req.respond(r.payloadSize() == 0 ? null : r.json());
        } else if (r.errnum() == Errno.ENODATA && req.streaming()) {
          req.end();
        } else {
          req.fail(r.errnum(), r.payloadSize() == 0 ? null : r.text());
        }
      }
    }
  }
}
