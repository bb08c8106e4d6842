package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A {@link DvmPort} that passes every call to another: the worlds' decorators override only the
 * calls whose answers they change.
 */
class ForwardingPort implements DvmPort {
  /** The port calls go to. */
  protected final DvmPort p;

  ForwardingPort(DvmPort p) {
    this.p = p;
  }

  @Override
  public CompletionStage<StatusInfos> allocationRequest(
      AllocDirective directive, List<Info> infos) {
    return p.allocationRequest(directive, infos);
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
    return p.sessionControl(sessionId, directives);
  }

  @Override
  public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
    return p.spawn(apps, jobInfos);
  }

  @Override
  public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
    return p.registerEvents(codes, handler);
  }

  @Override
  public CompletionStage<StatusInfos> deregisterEvents(long ref) {
    return p.deregisterEvents(ref);
  }

  @Override
  public CompletionStage<StatusInfos> disconnect() {
    return p.disconnect();
  }
}
