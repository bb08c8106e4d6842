package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One event as {@code pmix_notification_fn_t} receives it: the status code, the source, the infos,
 * and where it was directed ({@code PMIX_EVENT_CUSTOM_RANGE} / a requester, or a range).
 *
 * @param status the event's status code (PMIx codes, including ones {@link
 *     io.fluxdrm.pmix.PmixStatus} does not name)
 * @param source the process that raised it
 * @param infos the event's infos
 * @param target the one process it is directed to, or empty for a range
 * @param range the {@code pmix_data_range_t} it was raised for
 */
public record Event(
    int status, PmixProc source, List<Info> infos, Optional<PmixProc> target, Range range) {
  /** Checks and copies. */
  public Event {
    Objects.requireNonNull(source, "source");
    infos = List.copyOf(Objects.requireNonNull(infos, "infos"));
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(range, "range");
    if (target.isPresent() != (range == Range.PMIX_RANGE_CUSTOM)) {
      throw new IllegalArgumentException(
          "target: "
              + target
              + " with "
              + range
              + " (expected: a target exactly for PMIX_RANGE_CUSTOM)");
    }
  }

  /** {@code pmix_data_range_t}, named as PMIx names them. */
  public enum Range {
    /** {@code PMIX_RANGE_UNDEF}. */
    PMIX_RANGE_UNDEF,
    /** {@code PMIX_RANGE_RM}. */
    PMIX_RANGE_RM,
    /** {@code PMIX_RANGE_LOCAL}. */
    PMIX_RANGE_LOCAL,
    /** {@code PMIX_RANGE_NAMESPACE}. */
    PMIX_RANGE_NAMESPACE,
    /** {@code PMIX_RANGE_SESSION}. */
    PMIX_RANGE_SESSION,
    /** {@code PMIX_RANGE_GLOBAL}. */
    PMIX_RANGE_GLOBAL,
    /**
     * {@code PMIX_RANGE_CUSTOM}: directed to the processes {@code PMIX_EVENT_CUSTOM_RANGE} names.
     */
    PMIX_RANGE_CUSTOM,
    /** {@code PMIX_RANGE_PROC_LOCAL}. */
    PMIX_RANGE_PROC_LOCAL
  }
}
