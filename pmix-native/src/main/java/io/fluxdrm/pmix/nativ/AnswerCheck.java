package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the scheduler hands PRRTE as the answer to a forwarded request, checked before it goes to
 * libpmix (D455). PRRTE's {@code ras/pmix} applies an allocation answer only when its status is
 * {@code PMIX_SUCCESS} and relays any other status to the requester as it is; on a success it reads
 * {@code PMIX_ALLOC_ID} and {@code PMIX_ALLOC_REQ_ID} as strings without looking at their type and
 * starts a daemon on every host of {@code PMIX_ALLOC_NODE_LIST}. So:
 *
 * <ul>
 *   <li>a status that is not a verdict (an operation code such as {@code PMIX_OPERATION_SUCCEEDED},
 *       an event code such as {@code PMIX_DVM_IS_READY}, the internal {@code
 *       PMIX_ERR_TAKE_NEXT_OPTION}) becomes {@code PMIX_ERROR}, without infos;
 *   <li>a key of the catalog whose value has another type, or a node list that is not a comma list
 *       of host names (each optionally {@code :SLOTS}), makes the answer {@code PMIX_ERROR};
 *   <li>a {@code PMIX_SUCCESS} to {@code NEW} or {@code EXTEND} without a node list (PRRTE would
 *       make an empty reservation and send no {@code PMIX_DVM_IS_READY}) is {@code PMIX_ERROR};
 *   <li>keys outside the catalog are left out (PMIx servers ignore unknown keys; PRRTE would relay
 *       them to the tool).
 * </ul>
 *
 * Each change is one log line naming the request and why.
 */
final class AnswerCheck {
  private static final Logger LOG = LoggerFactory.getLogger(AnswerCheck.class);

  private AnswerCheck() {}

  /** The statuses an answer may carry: success, or an error that means "refused, nothing done". */
  static final Set<PmixStatus> VERDICTS =
      EnumSet.of(
          PmixStatus.PMIX_SUCCESS,
          PmixStatus.PMIX_ERROR,
          PmixStatus.PMIX_ERR_EXISTS,
          PmixStatus.PMIX_ERR_NO_PERMISSIONS,
          PmixStatus.PMIX_ERR_TIMEOUT,
          PmixStatus.PMIX_ERR_UNREACH,
          PmixStatus.PMIX_ERR_BAD_PARAM,
          PmixStatus.PMIX_ERR_RESOURCE_BUSY,
          PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
          PmixStatus.PMIX_ERR_INIT,
          PmixStatus.PMIX_ERR_NOMEM,
          PmixStatus.PMIX_ERR_NOT_FOUND,
          PmixStatus.PMIX_ERR_NOT_SUPPORTED,
          PmixStatus.PMIX_ERR_COMM_FAILURE,
          PmixStatus.PMIX_ERR_NOT_AVAILABLE,
          PmixStatus.PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED,
          PmixStatus.PMIX_ERR_INVALID_OPERATION,
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          PmixStatus.PMIX_ERR_JOB_INSUFFICIENT_RESOURCES);

  /** A host name a launcher can take (RFC 1123 labels, at most 64 bytes, a UTS name's limit). */
  private static final Pattern HOST =
      Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.-]{0,62}[A-Za-z0-9])?");

  private static final Pattern SLOTS = Pattern.compile("[1-9][0-9]{0,5}");

  /**
   * The answer to an allocation request, as it may go to PRRTE.
   *
   * @param what the request, for the log
   * @param directive its directive
   * @param a the scheduler's answer
   * @return {@code a}, or {@code a} without unknown keys, or {@code PMIX_ERROR}
   */
  static StatusInfos allocate(String what, AllocDirective directive, StatusInfos a) {
    StatusInfos c = common(what, a, true);
    if (c.succeeded()
        && (directive == AllocDirective.NEW || directive == AllocDirective.EXTEND)
        && AllocationAnswer.parse(c.infos()).nodeList().isEmpty()) {
      return refuse(
          what,
          "a grant without " + PmixKey.PMIX_ALLOC_NODE_LIST + " (PRRTE would grow onto nothing)");
    }
    return c;
  }

  /**
   * The answer to a session control, as it may go to PRRTE.
   *
   * @param what the request, for the log
   * @param a the scheduler's answer
   * @return {@code a}, or {@code a} without unknown keys, or {@code PMIX_ERROR}
   */
  static StatusInfos sessionControl(String what, StatusInfos a) {
    return common(what, a, false);
  }

  private static StatusInfos common(String what, StatusInfos a, boolean dropUnknown) {
    if (!VERDICTS.contains(a.status())) {
      return refuse(what, "status " + a.status() + " is not a verdict PRRTE acts on");
    }
    List<Info> keep = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (Info i : a.infos()) {
      Optional<PmixDataType> t = PmixKey.typeOf(i.key());
      if (t.isEmpty()) {
        if (dropUnknown) {
          dropped.add(i.key());
        } else {
          keep.add(i);
        }
        continue;
      }
      if (i.type() != t.get()) {
        return refuse(what, i.key() + " of type " + i.type() + " (expected: " + t.get() + ")");
      }
      // the node list this info gives, if it is one (its type is the catalog's, checked above)
      Optional<String> nodes = AllocationAnswer.parse(List.of(i)).nodeList();
      Optional<String> bad = nodes.flatMap(AnswerCheck::badNodeList);
      if (bad.isPresent()) {
        return refuse(what, i.key() + " \"" + nodes.get() + "\": " + bad.get());
      }
      keep.add(i);
    }
    if (dropped.isEmpty()) {
      return a;
    }
    LOG.warn("{}: keys outside the catalog left out of the answer: {}", what, dropped);
    return new StatusInfos(a.status(), keep);
  }

  /**
   * Why {@code list} is not a node list PRRTE can use, if it is not.
   *
   * @param list a {@code PMIX_ALLOC_NODE_LIST} value
   * @return the reason, or empty
   */
  static Optional<String> badNodeList(String list) {
    if (list == null || list.isEmpty()) {
      return Optional.of("empty");
    }
    for (String e : list.split(",", -1)) {
      int colon = e.lastIndexOf(':');
      String host = colon < 0 ? e : e.substring(0, colon);
      if (!HOST.matcher(host).matches()) {
        return Optional.of(
            "\"" + e + "\" is not a host name (expected: HOST or HOST:SLOTS, comma separated)");
      }
      if (colon >= 0 && !SLOTS.matcher(e.substring(colon + 1)).matches()) {
        return Optional.of("\"" + e + "\": slots (expected: 1 to 999999)");
      }
    }
    return Optional.empty();
  }

  private static StatusInfos refuse(String what, String why) {
    LOG.warn("{}: {}: PMIX_ERROR to PRRTE instead", what, why);
    return StatusInfos.of(PmixStatus.PMIX_ERROR);
  }
}
