package io.fluxdrm.dvm.service;

import io.fluxdrm.dvm.core.DvmEvent;
import io.fluxdrm.dvm.exec.ExecListener;
import io.fluxdrm.pmix.PmixStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The executor's reports, each fed to the core on the loop (they already arrive there). */
final class ExecReports implements ExecListener {
  private static final Logger LOG = LoggerFactory.getLogger(DvmService.class);

  private final DvmService service;

  ExecReports(DvmService service) {
    this.service = service;
  }

  @Override
  public void daemonUp(String host) {
    service.handle(new DvmEvent.DaemonStarted(host));
  }

  @Override
  public void daemonFailed(String host, String reason) {
    LOG.warn("daemon on {}: {}", host, reason);
    service.st.gone.add(host);
    service.handle(new DvmEvent.DaemonFailed(host, reason));
  }

  @Override
  public void daemonLeft(String host) {
    service.st.gone.add(host);
    service.handle(new DvmEvent.DaemonLeft(host));
  }

  @Override
  public void launched(String nspace) {
    service.handle(new DvmEvent.JobLaunched(nspace));
  }

  @Override
  public void launchFailed(String nspace, String reason) {
    service.handle(
        new DvmEvent.JobLaunchFailed(nspace, PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH, reason));
  }

  @Override
  public void procExited(String nspace, long rank, int status, int termSignal) {
    LOG.info(
        "job {} rank {}: exited with status {}{}",
        nspace,
        rank,
        status,
        termSignal == 0 ? "" : " (signal " + termSignal + ")");
    service.handle(new DvmEvent.ProcExited(nspace, rank, status, termSignal));
  }
}
