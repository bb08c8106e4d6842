package io.fluxdrm.pmix.nativ.bench;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.nativ.PmixTool;
import io.fluxdrm.pmix.port.DvmPort;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's tool, a process of its own: {@code BenchToolMain URI HOST} connects to the DVM,
 * registers for its phase-two events and prints {@code READY}; then {@code GROW ID} asks for {@code
 * NEW HOST:2} and prints {@code P1 STATUS} when the request is answered and {@code P2 CODE} when
 * its event comes; {@code RELEASE ID} releases HOST and prints {@code R STATUS} once the release is
 * answered and, after a success, its second phase (relayed by fluxdrm, D456) has come.
 */
public final class BenchToolMain {
  private BenchToolMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    String host = args[1];
    var exec = Executors.newSingleThreadExecutor();
    PmixTool.Connected c =
        PmixTool.connect(args[0], Optional.empty(), Duration.ofSeconds(30), exec)
            .toCompletableFuture()
            .get(90, TimeUnit.SECONDS);
    DvmPort port = c.port();
    // a release's second phase (relayed by fluxdrm's shrink agent, D456) ends its RELEASE line;
    // every other event is a grow's P2
    java.util.Map<String, java.util.concurrent.CompletableFuture<Integer>> releases =
        new java.util.concurrent.ConcurrentHashMap<>();
    port.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            e -> {
              String r =
                  e.infos().stream()
                      .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID))
                      .map(Info::stringValue)
                      .findFirst()
                      .orElse("");
              if (r.startsWith("bench-release-")) {
                releases
                    .computeIfAbsent(r, k -> new java.util.concurrent.CompletableFuture<>())
                    .complete(e.status());
              } else {
                out.println("P2 " + e.status());
              }
            })
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    out.println("READY");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] w = line.split(" ");
      if (w[0].equals("GROW")) {
        port.allocationRequest(
                AllocDirective.NEW,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host + ":2"),
                    Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "bench-" + w[1])))
            .thenAccept(s -> out.println("P1 " + s.status()));
      } else if (w[0].equals("RELEASE")) {
        String r = "bench-release-" + w[1];
        java.util.concurrent.CompletableFuture<Integer> ev =
            releases.computeIfAbsent(r, k -> new java.util.concurrent.CompletableFuture<>());
        port.allocationRequest(
                AllocDirective.RELEASE,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host),
                    Info.of(PmixKey.PMIX_ALLOC_REQ_ID, r)))
            .thenCompose(
                s ->
                    s.succeeded()
                        ? ev.thenApply(code -> s)
                        : java.util.concurrent.CompletableFuture.completedFuture(s))
            .thenAccept(
                s -> {
                  releases.remove(r);
                  out.println("R " + s.status());
                });
      }
    }
    port.disconnect().toCompletableFuture().get(30, TimeUnit.SECONDS);
    exec.shutdown();
    System.exit(0);
  }
}
