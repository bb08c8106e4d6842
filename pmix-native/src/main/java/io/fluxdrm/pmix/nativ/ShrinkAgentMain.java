package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler's shrink agent (D434): a PMIx tool of the DVM in a process of its own, so that the
 * shrinks it asks for have a requester that PRRTE tells when the daemons left (a process hosted by
 * libpmix as scheduler may not make allocation requests). {@code ShrinkAgentMain URI} connects,
 * prints {@code READY NSPACE}, then for each line {@code SHRINK REQID HOSTS} on its standard input
 * asks PRRTE for {@code PMIx_Allocation_request(RELEASE, {PMIX_ALLOC_NODE_LIST=HOSTS,
 * PMIX_ALLOC_REQ_ID=REQID})} and prints {@code DONE REQID CODE}: the phase-two event's code ({@code
 * -195} once the daemons left), or the first phase's status when that is not a success. It ends,
 * finalising the tool, when its standard input ends.
 */
public final class ShrinkAgentMain {
  private ShrinkAgentMain() {}

  /**
   * Runs the agent.
   *
   * @param args the DVM's URI
   * @throws Exception when it cannot connect
   */
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args.length != 1) {
      System.err.println("usage: ShrinkAgentMain URI");
      System.exit(2);
    }
    ExecutorService loop = Executors.newSingleThreadExecutor();
    PmixTool.Connected c;
    try {
      c =
          PmixTool.connect(args[0], Optional.empty(), Duration.ofSeconds(30), loop)
              .toCompletableFuture()
              .get(90, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      // one line, read by the scheduler's log (its standard error is the scheduler's)
      System.err.println("shrink agent: " + e.getCause().getMessage());
      System.exit(1);
      return;
    }
    DvmPort port = c.port();
    port.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            (Event e) ->
                e.infos().stream()
                    .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID))
                    .map(Info::stringValue)
                    .findFirst()
                    .ifPresent(r -> out.println("DONE " + r + " " + e.status())))
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    out.println("READY " + c.self().nspace());
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] w = line.strip().split(" ");
      if (w.length != 3 || !w[0].equals("SHRINK")) {
        System.err.println("shrink agent: line \"" + line + "\" (expected: SHRINK REQID HOSTS)");
        continue;
      }
      String reqId = w[1];
      port.allocationRequest(
              AllocDirective.RELEASE,
              List.of(
                  Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, w[2]),
                  Info.of(PmixKey.PMIX_ALLOC_REQ_ID, reqId)))
          .thenAccept(
              (StatusInfos s) -> {
                if (!s.succeeded()) {
                  out.println("DONE " + reqId + " " + s.status().code());
                }
              });
    }
    port.disconnect().toCompletableFuture().get(30, TimeUnit.SECONDS);
    loop.shutdown();
    System.exit(0);
  }
}
