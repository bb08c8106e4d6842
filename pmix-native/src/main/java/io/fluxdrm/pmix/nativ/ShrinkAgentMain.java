package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
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
 * finalising the tool, when its standard input ends. {@code NOTIFY NSPACE RANK CODE [REQID]} sends
 * event CODE to that process alone ({@link #notify}) and prints {@code NOTIFIED NSPACE.RANK
 * STATUS}. {@code POOL TAG} asks PRRTE where its daemons run ({@code
 * PMIx_Query_info(PMIX_QUERY_PROC_TABLE)} of the daemons' namespace, {@link DvmPool}) and prints
 * {@code POOL TAG LINE} ({@link DvmPool#line}), or {@code POOL TAG !STATUS} when the query fails.
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
                AllocationAnswer.echoOf(e.infos()).stream()
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
      if (w.length >= 4 && w.length <= 5 && w[0].equals("NOTIFY")) {
        PmixProc target = new PmixProc(w[1], Long.parseLong(w[2]));
        int st = notify(Integer.parseInt(w[3]), target, w.length == 5 ? w[4] : null);
        out.println("NOTIFIED " + w[1] + "." + w[2] + " " + st);
        continue;
      }
      if (w.length == 2 && w[0].equals("POOL")) {
        String tag = w[1];
        Optional<String> daemons = DvmPool.daemonNspace(c.self().nspace());
        if (!(port instanceof NativeDvmPort n) || daemons.isEmpty()) {
          out.println("POOL " + tag + " !" + PmixStatus.PMIX_ERR_NOT_SUPPORTED.code());
          continue;
        }
        n.query(
                List.of(NativeKeys.QUERY_PROC_TABLE),
                List.of(Info.of(PmixKey.PMIX_NSPACE, daemons.get())))
            .thenAccept(
                (StatusInfos s) ->
                    out.println(
                        "POOL "
                            + tag
                            + " "
                            + (s.succeeded()
                                ? DvmPool.line(DvmPool.of(s.infos()))
                                : "!" + s.status().code())));
        continue;
      }
      if (w.length != 3 || !w[0].equals("SHRINK")) {
        System.err.println(
            "shrink agent: line \""
                + line
                + "\" (expected: SHRINK REQID HOSTS, NOTIFY NSPACE RANK CODE [REQID] or POOL TAG)");
        continue;
      }
      String reqId = w[1];
      port.allocationRequest(
              AllocDirective.RELEASE, InfoWriter.create().nodeList(w[2]).reqId(reqId).infos())
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

  /**
   * {@code PMIx_Notify_event(code)} to one process of the DVM (range custom, {@code
   * PMIX_EVENT_CUSTOM_RANGE} a {@code PMIX_PROC}), with {@code PMIX_ALLOC_REQ_ID} and {@code
   * fluxdrm.relayed}: the requester of a release learns that its nodes' daemons left (D456).
   *
   * @return the status of the notification
   */
  static int notify(int code, PmixProc target, String reqId) throws Exception {
    Libpmix lib = Libpmix.get();
    // the model's data arrays hold infos and apps only: a PMIX_PROC under a placeholder key,
    // renamed below (libpmix takes a single proc as the custom range too)
    List<Info> infos =
        InfoWriter.create()
            .info(new Info("fluxdrm.range", io.fluxdrm.pmix.PmixDataType.PMIX_PROC, target))
            .reqId(Optional.ofNullable(reqId))
            .info(new Info("fluxdrm.relayed", io.fluxdrm.pmix.PmixDataType.PMIX_BOOL, true))
            .infos();
    java.util.concurrent.CompletableFuture<Integer> done =
        new java.util.concurrent.CompletableFuture<>();
    try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
      java.lang.foreign.MemorySegment a = NativeInfos.write(arena, infos);
      byte[] k = PmixKey.PMIX_EVENT_CUSTOM_RANGE.getBytes(StandardCharsets.UTF_8);
      java.lang.foreign.MemorySegment.copy(
          k, 0, a, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, k.length);
      a.set(java.lang.foreign.ValueLayout.JAVA_BYTE, k.length, (byte) 0);
      java.lang.foreign.MemorySegment token =
          Callbacks.register((Callbacks.OpCallback) done::complete);
      int rc;
      try {
        rc =
            (int)
                lib.notifyEvent.invokeExact(
                    code,
                    java.lang.foreign.MemorySegment.NULL,
                    (byte) 6, // PMIX_RANGE_CUSTOM
                    a,
                    (long) infos.size(),
                    Callbacks.OP_CB,
                    token);
      } catch (Throwable t) {
        throw Libpmix.rethrow(t);
      }
      if (rc != PmixStatus.PMIX_SUCCESS.code()) {
        if (Callbacks.take(token) != null) {
          return rc == PmixStatus.PMIX_OPERATION_SUCCEEDED.code() ? 0 : rc;
        }
      }
      // the infos must live until libpmix's callback
      return done.get(30, TimeUnit.SECONDS);
    }
  }
}
