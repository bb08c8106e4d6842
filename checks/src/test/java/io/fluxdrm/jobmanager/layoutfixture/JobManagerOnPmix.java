package io.fluxdrm.jobmanager.layoutfixture;

import io.fluxdrm.pmix.PmixStatus;

/** Breaks one layering rule on purpose (LayeringTest): the job manager that reaches PMIx. */
public final class JobManagerOnPmix {
  private JobManagerOnPmix() {}

  static Object reach() {
    return PmixStatus.PMIX_SUCCESS;
  }
}
