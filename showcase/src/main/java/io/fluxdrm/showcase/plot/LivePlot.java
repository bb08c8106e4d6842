package io.fluxdrm.showcase.plot;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcStream;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.showcase.timeline.TimelineBuilder;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@code fluxdrm plot --live}: the scheduler's {@code sched.watch} stream (decision D427) read into
 * a timeline and drawn as a {@link TerminalGrid}, again at most every {@link #REFRESH} when
 * something changed and, on a terminal, once a second as time goes on (plain output gets a frame
 * per change only, and the last one). Everything runs on the handle's loop.
 */
public final class LivePlot {
  static final Duration REFRESH = Duration.ofMillis(200);
  private static final String CLEAR = "\u001b[H\u001b[2J";

  private final FluxHandle handle;
  private final PrintWriter out;
  private final boolean ansi;
  private final int columns;
  private final Clock clock;
  private final TimelineBuilder builder = new TimelineBuilder();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private boolean dirty;
  private boolean stopped;
  private long lastDraw = Long.MIN_VALUE;
  private int frames;
  private String frame = "";
  private RpcStream stream;

  public LivePlot(FluxHandle handle, PrintWriter out, boolean ansi, int columns, Clock clock) {
    this.handle = handle;
    this.out = out;
    this.ansi = ansi;
    this.columns = columns;
    this.clock = clock;
  }

  /**
   * Starts watching. The future completes once the snapshot is drawn, or fails with the scheduler's
   * error (EPERM for a user who is not the instance owner, ENOSYS without a scheduler).
   */
  public CompletableFuture<Void> start() {
    stream = handle.stream("sched.watch", Json.object(), this::onResponse, null);
    stream
        .done()
        .whenComplete(
            (v, err) -> {
              if (err != null) {
                ready.completeExceptionally(
                    err instanceof RpcException
                        ? err
                        : err.getCause() == null ? err : err.getCause());
              }
            });
    tick();
    return ready;
  }

  /** Completes when the stream ends (the scheduler went away). */
  public CompletableFuture<Void> ended() {
    return stream.done();
  }

  private void onResponse(Message m) {
    JsonNode p = m.json();
    if (!ready.isDone()) {
      Map<Long, ResourceSet> jobs = new LinkedHashMap<>();
      ResourceSet pool = ResourceSet.empty();
      try {
        pool = ResourceSet.fromJson(p.get("pool"));
        for (JsonNode j : p.path("jobs")) {
          jobs.put(JobId.read(j.get("id"), "/jobs/id"), ResourceSet.fromJson(j.get("R")));
        }
      } catch (RsetException | RpcException | NullPointerException e) {
        ready.completeExceptionally(
            new RpcException(
                io.fluxdrm.rpc.Errno.EPROTO, "sched.watch: bad snapshot: " + e.getMessage()));
        return;
      }
      builder.snapshot(pool, jobs, clock.instant());
      draw();
      ready.complete(null);
      return;
    }
    builder.watched(p, clock.instant());
    dirty = true;
    long now = System.nanoTime();
    if (now - lastDraw >= REFRESH.toNanos()) {
      draw();
    }
  }

  private void tick() {
    if (stopped) {
      return;
    }
    EventLoop loop = handle.loop();
    loop.schedule(
        REFRESH,
        () -> {
          if (ready.isDone()
              && !ready.isCompletedExceptionally()
              && (dirty
                  || ansi && System.nanoTime() - lastDraw >= Duration.ofSeconds(1).toNanos())) {
            draw();
          }
          tick();
        });
  }

  void draw() {
    dirty = false;
    lastDraw = System.nanoTime();
    frames++;
    frame =
        TerminalGrid.render(builder.build(clock.instant()), "fluxdrm plot --live", columns, ansi);
    if (ansi) {
      out.print(CLEAR);
    } else if (frames > 1) {
      out.println();
    }
    out.print(frame);
    out.flush();
  }

  /**
   * Stops refreshing, ends the watch with its own cancel ({@code sched.watch-cancel}, D520) and
   * draws the last frame once more.
   */
  public void stop() {
    if (!stopped) {
      stopped = true;
      if (stream != null) {
        stream.cancel();
      }
      if (ready.isDone() && !ready.isCompletedExceptionally()) {
        draw();
      }
    }
  }

  /** The last frame drawn. */
  String frame() {
    return frame;
  }

  int frames() {
    return frames;
  }
}
