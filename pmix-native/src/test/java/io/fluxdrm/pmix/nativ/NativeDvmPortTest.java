package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/**
 * Statuses that come from PRRTE's side through libpmix: one the model names is that constant; one
 * PRRTE sends that the model does not name (PRRTE's own codes, such as the -179 its mapper answers
 * a spawn with, or anything a newer libpmix adds) is {@code PMIX_ERROR} and a log line naming the
 * call and the code, never an exception (issue 16: no crash on a status the other side does not
 * expect).
 */
class NativeDvmPortTest {

  @Test
  void aStatusTheModelNames_isThatConstant_noLogLine() {
    try (StderrCapture log = new StderrCapture()) {
      assertThat(NativeDvmPort.status(PmixStatus.PMIX_DVM_IS_READY.code(), "event"))
          .isEqualTo(PmixStatus.PMIX_DVM_IS_READY);
      assertThat(NativeDvmPort.status(0, "PMIx_Allocation_request"))
          .isEqualTo(PmixStatus.PMIX_SUCCESS);
      assertThat(log.text()).doesNotContain("has no constant");
    }
  }

  @Test
  void aStatusPrrteSendsThatTheModelDoesNotName_isPmixError_withALogLineSayingWhich() {
    try (StderrCapture log = new StderrCapture()) {
      assertThat(NativeDvmPort.status(-179, "PMIx_Spawn")).isEqualTo(PmixStatus.PMIX_ERROR);
      assertThat(NativeDvmPort.status(Integer.MIN_VALUE, "PMIx_Allocation_request"))
          .isEqualTo(PmixStatus.PMIX_ERROR);
      assertThat(NativeDvmPort.status(123456, "PMIx_Session_control"))
          .isEqualTo(PmixStatus.PMIX_ERROR);
      assertThat(log.text())
          .contains("PMIx_Spawn: status -179 has no constant here: PMIX_ERROR")
          .contains("PMIx_Allocation_request: status " + Integer.MIN_VALUE + " has no constant")
          .contains("PMIx_Session_control: status 123456 has no constant here: PMIX_ERROR");
    }
  }
}
