package io.fluxdrm.pmix.nativ;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A {@link DvmPort} whose calls a {@link ToolServerMain} process makes: each call is a line to its
 * standard input, each answer and event a line of its output. The tool process registered for the
 * two-phase events at start; they go to {@code events}.
 */
final class RemoteToolPort implements DvmPort {
  private final Process process;
  private final OutputStream in;
  private final Map<Long, CompletableFuture<ObjectNode>> calls = new ConcurrentHashMap<>();
  private final AtomicLong next = new AtomicLong(1);
  private final CompletableFuture<PmixProc> self = new CompletableFuture<>();

  RemoteToolPort(Process process, Consumer<Event> events) {
    this.process = process;
    this.in = process.getOutputStream();
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                  if (!line.startsWith("{")) {
                    System.err.println("tool: " + line);
                    continue;
                  }
                  ObjectNode o = (ObjectNode) Json.mapper().readTree(line);
                  if (o.has("self")) {
                    self.complete(
                        new PmixProc(
                            o.path("self").path("nspace").asText(),
                            o.path("self").path("rank").asLong()));
                  } else if (o.has("event")) {
                    events.accept(DvmWire.readEvent("event", (ObjectNode) o.get("event")));
                  } else if (o.has("n")) {
                    CompletableFuture<ObjectNode> f = calls.remove(o.path("n").asLong());
                    if (f != null) {
                      if (o.has("failed")) {
                        f.completeExceptionally(
                            new IllegalStateException(o.path("failed").asText()));
                      } else {
                        f.complete((ObjectNode) o.get("result"));
                      }
                    }
                  } else {
                    System.err.println("tool: " + line);
                    self.completeExceptionally(new IllegalStateException(line));
                  }
                }
              } catch (IOException e) {
                System.err.println("tool output: " + e);
              }
              IllegalStateException gone = new IllegalStateException("the tool process ended");
              self.completeExceptionally(gone);
              calls.values().forEach(f -> f.completeExceptionally(gone));
            },
            "sidebyside-tool");
    t.setDaemon(true);
    t.start();
  }

  CompletableFuture<PmixProc> self() {
    return self;
  }

  private <T> CompletionStage<T> call(String op, ObjectNode body, Function<ObjectNode, T> read) {
    long n = next.getAndIncrement();
    CompletableFuture<ObjectNode> f = new CompletableFuture<>();
    calls.put(n, f);
    ObjectNode cmd = Json.object().put("n", n).put("op", op);
    cmd.set("body", body);
    try {
      synchronized (in) {
        in.write((cmd.toString() + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
      }
    } catch (IOException e) {
      calls.remove(n);
      f.completeExceptionally(e);
    }
    return f.thenApply(read);
  }

  @Override
  public CompletionStage<StatusInfos> allocationRequest(
      AllocDirective directive, List<Info> infos) {
    return call(
        "alloc", DvmWire.allocRequest(directive, infos), o -> DvmWire.readStatusInfos("alloc", o));
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
    return call(
        "session",
        DvmWire.sessionControlRequest(sessionId, directives),
        o -> DvmWire.readStatusInfos("session", o));
  }

  @Override
  public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
    return call(
        "spawn", DvmWire.spawnRequest(apps, jobInfos), o -> DvmWire.readSpawnResult("spawn", o));
  }

  @Override
  public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
    return CompletableFuture.completedFuture(
        new Registration(PmixStatus.PMIX_ERR_NOT_SUPPORTED, 0));
  }

  @Override
  public CompletionStage<StatusInfos> deregisterEvents(long ref) {
    return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
  }

  @Override
  public CompletionStage<StatusInfos> disconnect() {
    try {
      synchronized (in) {
        in.write("{\"op\":\"quit\"}\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        in.close();
      }
    } catch (IOException e) {
      // the process is gone already
    }
    return process.onExit().thenApply(p -> StatusInfos.of(PmixStatus.PMIX_SUCCESS));
  }
}
