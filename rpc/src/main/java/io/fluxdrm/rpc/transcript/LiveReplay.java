package io.fluxdrm.rpc.transcript;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
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
 * request is sent once the responses recorded before it have come (or {@code wait} passed);
 * responses are compared per sender, in the order each sender received them, so that two senders'
 * answers interleaving otherwise than recorded is no difference.
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
      java.util.concurrent.atomic.AtomicInteger upcalls =
          new java.util.concurrent.atomic.AtomicInteger();
      FluxHandle partner = partner(lines, name, connect, play, made, wait, upcalls);
      int upcallsBefore = 0;
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
            upcallsBefore++;
          }
          continue;
        }
        String sender = m.sender() == null ? "" : m.sender();
        if (l.direction() == MessageTap.Direction.OUT && m.type() == MessageType.RESPONSE) {
          expected
              .computeIfAbsent(sender, s -> new ArrayList<>())
              .add(Replay.render(m, sender, normalisations));
          before++;
        } else if (l.direction() == MessageTap.Direction.IN && m.type() == MessageType.REQUEST) {
          awaitAtLeast(actual, () -> received[0], before, wait);
          awaitAtLeast(upcalls, upcalls::get, upcallsBefore, wait);
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
                          .add(Replay.render(r, sender, normalisations));
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
      awaitAtLeast(actual, () -> received[0], before, wait);
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
   * Waits, on {@code lock}'s monitor, until {@code count} reaches {@code n} or {@code wait} passed;
   * whoever changes the count notifies the lock.
   */
  private static void awaitAtLeast(
      Object lock, java.util.function.IntSupplier count, int n, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    synchronized (lock) {
      while (count.getAsInt() < n) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
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
      java.util.concurrent.atomic.AtomicInteger answered) {
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
              answered.incrementAndGet();
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
