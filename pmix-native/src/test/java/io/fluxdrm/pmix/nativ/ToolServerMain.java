package io.fluxdrm.pmix.nativ;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.rpc.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A PMIx tool over the binding, driven line by line (libpmix holds one role per process, so the
 * side-by-side IT's tool is a process of its own): {@code ToolServerMain URI}. It connects,
 * registers for PMIX_DVM_IS_READY and PMIX_ERR_DVM_MOD, prints {@code {"self":{nspace,rank}}}, then
 * reads one JSON object per line from its standard input, {@code
 * {"n":N,"op":"alloc"|"session"|"spawn", "body":...}} with the body as the dvm wire's request
 * ({@link DvmWire}), and prints {@code {"n":N,"result":...}} once the call completed, {@code
 * {"event":...}} per event. End of input or {@code {"op":"quit"}}: finalizes and exits.
 */
public final class ToolServerMain {
  private ToolServerMain() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try {
      run(args[0], out);
    } catch (Throwable t) {
      print(out, Json.object().put("error", t.toString()));
      System.exit(1);
    }
  }

  static synchronized void print(PrintStream out, ObjectNode o) {
    out.println(o.toString());
    out.flush();
  }

  static void run(String uri, PrintStream out) throws Exception {
    var exec = Executors.newSingleThreadExecutor();
    PmixTool.Connected c =
        PmixTool.connect(uri, Optional.empty(), Duration.ofSeconds(20), exec)
            .toCompletableFuture()
            .get(60, TimeUnit.SECONDS);
    DvmPort port = c.port();
    port.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            e -> print(out, Json.object().set("event", DvmWire.event(e))))
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    ObjectNode self = Json.object();
    self.putObject("self").put("nspace", c.self().nspace()).put("rank", c.self().rank());
    print(out, self);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      ObjectNode cmd = (ObjectNode) Json.mapper().readTree(line);
      String op = cmd.path("op").asText();
      if (op.equals("quit")) {
        break;
      }
      long n = cmd.path("n").asLong();
      ObjectNode body = (ObjectNode) cmd.path("body");
      CompletionStage<ObjectNode> r =
          switch (op) {
            case "alloc" -> {
              DvmWire.AllocRequest a = DvmWire.readAllocRequest("alloc", body);
              AllocDirective d = a.directive().orElseThrow();
              yield port.allocationRequest(d, a.infos()).thenApply(DvmWire::statusInfos);
            }
            case "session" -> {
              DvmWire.SessionControlRequest s = DvmWire.readSessionControlRequest("session", body);
              yield port.sessionControl(s.sessionId(), s.directives())
                  .thenApply(DvmWire::statusInfos);
            }
            case "spawn" -> {
              DvmWire.SpawnRequest s = DvmWire.readSpawnRequest("spawn", body);
              yield port.spawn(s.apps(), s.jobInfos()).thenApply(DvmWire::spawnResult);
            }
            default -> throw new IllegalArgumentException("op " + op);
          };
      r.whenComplete(
          (v, t) -> {
            ObjectNode o = Json.object().put("n", n);
            if (t != null) {
              o.put("failed", t.toString());
            } else {
              o.set("result", v);
            }
            print(out, o);
          });
    }
    port.disconnect().toCompletableFuture().get(30, TimeUnit.SECONDS);
    exec.shutdown();
    System.exit(0);
  }
}
