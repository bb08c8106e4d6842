package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * A world whose tool's answers leave out the infos that only echo the request: PRRTE hands the
 * request's own infos back when it has no answer of its own to give (its response array is the
 * request's until it replaces it), the reference DVM answers only what it adds. An entry equal to
 * one of the request's is dropped, unless it is one of the ids the scenario chose ({@link
 * Outcome#VALUED}: both DVMs return {@code PMIX_ALLOC_REQ_ID} on purpose).
 */
final class EchoFree implements World {
  private final World w;
  private final DvmPort port;

  EchoFree(World w) {
    this.w = w;
    this.port = strip(w.tool());
  }

  /** The port, its answers without the infos that echo the request. */
  static DvmPort strip(DvmPort p) {
    return new ForwardingPort(p) {
      @Override
      public CompletionStage<StatusInfos> allocationRequest(
          AllocDirective directive, List<Info> infos) {
        return p.allocationRequest(directive, infos).thenApply(a -> strip(a, infos));
      }

      @Override
      public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
        return p.sessionControl(sessionId, directives).thenApply(a -> strip(a, directives));
      }
    };
  }

  static StatusInfos strip(StatusInfos a, List<Info> request) {
    return new StatusInfos(
        a.status(),
        a.infos().stream()
            .filter(i -> Outcome.VALUED.contains(i.key()) || !echoes(i, request))
            .toList());
  }

  private static boolean echoes(Info i, List<Info> request) {
    return request.stream()
        .anyMatch(
            r ->
                r.key().equals(i.key())
                    && String.valueOf(r.value()).equals(String.valueOf(i.value())));
  }

  @Override
  public String master() {
    return w.master();
  }

  @Override
  public DvmPort tool() {
    return port;
  }

  @Override
  public DvmPort newTool(boolean events) {
    return strip(w.newTool(events));
  }

  @Override
  public DvmPort schedulerPort() {
    return strip(w.schedulerPort());
  }

  @Override
  public PmixProc toolProc() {
    return w.toolProc();
  }

  @Override
  public <T> T await(CompletionStage<T> stage) {
    return w.await(stage);
  }

  @Override
  public List<Event> events(int atLeast) {
    return w.events(atLeast);
  }

  @Override
  public List<String> daemons() {
    return w.daemons();
  }

  @Override
  public void script(SchedulerUpcalls script) {
    w.script(script);
  }

  @Override
  public Map<String, String> memo() {
    return w.memo();
  }

  @Override
  public boolean eventually(BooleanSupplier condition) {
    return w.eventually(condition);
  }

  @Override
  public void elapse(java.time.Duration d) {
    w.elapse(d);
  }

  @Override
  public void close() {
    w.close();
  }
}
