package io.fluxdrm.pmix;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * PMIx status codes ({@code pmix_status_t}) that the bridge sends, receives or must recognise, with
 * the values of OpenPMIx's {@code pmix_common.h}. {@link #PMIX_ERR_TAKE_NEXT_OPTION} is internal to
 * OpenPMIx and PRRTE and never goes on the wire.
 */
public enum PmixStatus {
  PMIX_SUCCESS(0),
  PMIX_ERROR(-1),
  PMIX_ERR_EXISTS(-11),
  PMIX_ERR_NO_PERMISSIONS(-23),
  PMIX_ERR_TIMEOUT(-24),
  PMIX_ERR_UNREACH(-25),
  PMIX_ERR_BAD_PARAM(-27),
  PMIX_ERR_RESOURCE_BUSY(-28),
  PMIX_ERR_OUT_OF_RESOURCE(-29),
  PMIX_ERR_INIT(-31),
  PMIX_ERR_NOMEM(-32),
  PMIX_ERR_NOT_FOUND(-46),
  PMIX_ERR_NOT_SUPPORTED(-47),
  PMIX_ERR_COMM_FAILURE(-49),
  PMIX_ERR_PARTIAL_SUCCESS(-52),
  PMIX_ERR_NOT_AVAILABLE(-64),
  PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED(-59),
  PMIX_OPERATION_IN_PROGRESS(-156),
  PMIX_OPERATION_SUCCEEDED(-157),
  PMIX_ERR_INVALID_OPERATION(-158),
  PMIX_ERR_JOB_ALLOC_FAILED(-188),
  PMIX_ERR_JOB_INSUFFICIENT_RESOURCES(-234),
  PMIX_ERR_JOB_CANCELED(-180),
  PMIX_ERR_JOB_FAILED_TO_LAUNCH(-181),
  PMIX_ERR_JOB_ABORTED(-182),
  PMIX_ERR_JOB_KILLED_BY_CMD(-183),
  PMIX_ERR_JOB_NON_ZERO_TERM(-187),
  PMIX_ERR_DVM_MOD(-196),
  PMIX_DVM_IS_READY(-195),
  PMIX_ALLOC_TIMEOUT_WARNING(-194),
  PMIX_EVENT_JOB_START(-191),
  PMIX_EVENT_JOB_END(-145),
  PMIX_EVENT_SESSION_START(-192),
  PMIX_EVENT_SESSION_END(-193),
  PMIX_EVENT_ACTION_COMPLETE(-334),
  PMIX_EVENT_NO_ACTION_TAKEN(-331),
  PMIX_LAUNCH_COMPLETE(-174),
  PMIX_PROC_TERMINATED(-111),
  PMIX_ERR_PROC_FAILED_TO_START(-401),
  PMIX_EVENT_NODE_DOWN(-231),
  PMIX_EVENT_NODE_OFFLINE(-232),
  PMIX_EXTERNAL_ERR_BASE(-3000),
  PMIX_ERR_TAKE_NEXT_OPTION(-1366);
  private static final Map<Integer, PmixStatus> BY_CODE = new HashMap<>();

  static {
    for (PmixStatus s : values()) {
      BY_CODE.put(s.code, s);
    }
  }

  private final int code;

  PmixStatus(int code) {
    this.code = code;
  }

  /** The numeric code that travels on the wire. */
  public int code() {
    return code;
  }

  /**
   * The status with this code.
   *
   * @param code a {@code pmix_status_t} value
   * @return the status, or empty for a code with no constant here
   */
  public static Optional<PmixStatus> byCode(int code) {
    return Optional.ofNullable(BY_CODE.get(code));
  }
}
