package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Exploration aid: a scheduler that grants each request's node list as it is. */
public final class FixedSchedulerMain {
  private FixedSchedulerMain() {}

  public static void main(String[] args) throws Exception {
    var exec = Executors.newSingleThreadExecutor();
    SchedulerUpcalls up =
        new SchedulerUpcalls() {
          int n;

          @Override
          public CompletionStage<StatusInfos> allocate(
              PmixProc requester, AllocDirective directive, List<Info> infos) {
            String nodes =
                infos.stream()
                    .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_NODE_LIST))
                    .map(Info::stringValue)
                    .findFirst()
                    .orElse("");
            System.out.println("ALLOCATE " + requester + " " + directive + " " + infos);
            return CompletableFuture.completedFuture(
                new StatusInfos(
                    PmixStatus.PMIX_SUCCESS,
                    List.of(
                        Info.of(PmixKey.PMIX_ALLOC_ID, Integer.toString(++n)),
                        Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nodes))));
          }

          @Override
          public CompletionStage<StatusInfos> sessionControl(
              PmixProc requester, long sessionId, List<Info> directives) {
            System.out.println("SESSION " + requester + " " + sessionId + " " + directives);
            return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
          }
        };
    PmixScheduler s =
        PmixScheduler.start(
                new PmixProc("fluxdrm-sched", 0), up, args[0], Duration.ofSeconds(20), exec)
            .toCompletableFuture()
            .get(60, TimeUnit.SECONDS);
    System.out.println("READY");
    java.io.BufferedReader in =
        new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      String[] w = line.split(" ");
      List<Info> d = new java.util.ArrayList<>();
      d.add(Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true));
      d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, w[1]));
      if (w.length > 2) {
        d.add(
            Info.of(
                PmixKey.PMIX_SESSION_APP,
                List.of(
                    new io.fluxdrm.pmix.App(w[2], List.of(w).subList(2, w.length), 1, List.of()))));
      }
      System.out.println(
          "INST "
              + s.port()
                  .sessionControl(Long.parseLong(w[0]), d)
                  .toCompletableFuture()
                  .get(60, TimeUnit.SECONDS));
    }
    s.close();
  }
}
