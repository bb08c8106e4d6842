package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.Demo.SESSION_ID;

import io.fluxdrm.bridge.dvm.DvmJobScheduler;
import io.fluxdrm.dvm.wire.SchedulerEndpoint;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import io.fluxdrm.showcase.demo.DemoRun.FluxJob;
import java.util.List;

/**
 * The session-control steps of a {@link Demo} (decision D541): the bridge instantiates a session
 * with an app, pauses, resumes and terminates it, and the DVM reports it complete.
 */
final class SessionSteps {
  private final DemoRun st;

  SessionSteps(DemoRun st) {
    this.st = st;
  }

  /** The bridge instantiates a session with an app, pauses, resumes and terminates it. */
  void session(DvmJobScheduler bridge, SchedulerEndpoint endpoint, FluxJob a, List<String> aHosts) {
    String host = aHosts.get(aHosts.size() - 1);
    App app =
        new App("fluxdrm-demo-app", List.of("fluxdrm-demo-app"), st.sc.sessionProcs(), List.of());
    int completes = Waits.onLoop(st.world.reactor(), () -> bridge.flux().completes().size());
    StatusInfos inst =
        Waits.await(
            "s-instantiate",
            endpoint
                .port()
                .sessionControl(
                    SESSION_ID,
                    InfoWriter.create()
                        .operation(Operation.INSTANTIATE)
                        .nodeList(host + ":" + st.sc.slots())
                        .apps(List.of(app))
                        .infos()));
    st.step(
        "s-instantiate",
        "bridge",
        a.id(),
        "session " + SESSION_ID + " on " + host + " with " + st.sc.sessionProcs() + " proc(s)",
        inst.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        "answered once its app runs");
    for (Operation o : List.of(Operation.PAUSE, Operation.RESUME, Operation.TERMINATE)) {
      String op = o.name();
      StatusInfos s =
          Waits.await(
              "s-" + op,
              endpoint.port().sessionControl(SESSION_ID, InfoWriter.create().operation(o).infos()));
      st.step(
          "s-" + op.toLowerCase(java.util.Locale.ROOT),
          "bridge",
          a.id(),
          "session control PMIX_SESSION_" + op + " " + SESSION_ID,
          s.status().name(),
          PmixStatus.PMIX_SUCCESS.name(),
          switch (op) {
            case "PAUSE" -> "SIGSTOP to its jobs";
            case "RESUME" -> "SIGCONT to its jobs";
            default -> "its jobs end, the session is reclaimed";
          });
    }
    boolean complete =
        Waits.until(
            st.world.reactor(),
            () ->
                bridge.flux().completes().stream()
                    .skip(completes)
                    .anyMatch(d -> sessionOf(d) == SESSION_ID));
    st.step(
        "s-complete",
        "dvm",
        a.id(),
        "the DVM tells the bridge",
        complete ? "PMIX_SESSION_COMPLETE" : "no notice",
        "PMIX_SESSION_COMPLETE",
        "session " + SESSION_ID);
  }

  private static long sessionOf(List<Info> d) {
    for (Info i : d) {
      if (i.key().equals(PmixKey.PMIX_SESSION_ID) && i.value() instanceof Number n) {
        return n.longValue();
      }
    }
    return -1;
  }
}
