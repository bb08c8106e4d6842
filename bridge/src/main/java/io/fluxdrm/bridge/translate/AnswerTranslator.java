package io.fluxdrm.bridge.translate;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * RFC 51 {@code sched.realloc} answers to PMIx answers (decision D10), as pure functions.
 *
 * <ul>
 *   <li>SUCCESS of NEW or EXTEND: {@code PMIX_SUCCESS} with {@code PMIX_ALLOC_ID} (the reservation
 *       extended, or the unsigned decimal {@code alloc_id} for a NEW or for an EXTEND of the job's
 *       initial allocation) and {@code PMIX_ALLOC_NODE_LIST} {@code host:slots,...} from {@code
 *       R_delta_add} (slots = the host's cores in R_lite).
 *   <li>SUCCESS of RELEASE: {@code PMIX_SUCCESS} with {@code PMIX_ALLOC_ID} for a whole
 *       reservation, else {@code PMIX_ALLOC_NODE_LIST} of {@code R_delta_sub}.
 *   <li>DENY: {@code PMIX_ERR_OUT_OF_RESOURCE}; CANCEL: {@code PMIX_ERR_JOB_CANCELED}; UNSUPPORTED:
 *       {@code PMIX_ERR_NOT_SUPPORTED}.
 *   <li>An error response: its errnum mapped by {@link #statusOf(int)}, ENOSYS (an RFC 27-only
 *       scheduler) to {@code PMIX_ERR_NOT_SUPPORTED}.
 * </ul>
 *
 * Every answer repeats the request's {@code PMIX_ALLOC_REQ_ID}; a successful one also the policy
 * keys ({@code PMIX_ALLOC_INHERITANCE}, {@code PMIX_ALLOC_SHARE}, {@code PMIX_ALLOC_TARGET}),
 * because PRRTE acts on the answer, not on the request.
 */
public final class AnswerTranslator {
  private AnswerTranslator() {}

  /**
   * The PMIx answer to a {@code sched.realloc} response.
   *
   * @param request the translation the request was sent from
   * @param response the response payload
   * @return the answer for the requester
   * @throws TranslateException ({@code PMIX_ERROR}) when the response breaks RFC 51; the requester
   *     then gets {@code PMIX_ERROR}
   */
  public static PmixAnswer answer(Translation.Realloc request, JsonNode response) {
    String where = "sched.realloc response";
    if (response == null || !response.isObject()) {
      throw bad(where + ": " + response + " (expected: an object)");
    }
    long allocId;
    try {
      allocId = FluxPayloads.readId(response.get("alloc_id"), where + " /alloc_id");
    } catch (ProtocolException e) {
      throw bad(e.getMessage());
    }
    JsonNode t = response.get("type");
    if (t == null || !t.isIntegralNumber() || !t.canConvertToLong()) {
      throw bad(where + " /type: " + t + " (expected: 0, 1, 2 or 3)");
    }
    ReallocResponseType type =
        ReallocResponseType.of(t.longValue())
            .orElseThrow(() -> bad(where + " /type: " + t + " (expected: 0, 1, 2 or 3)"));
    String note = response.path("note").asText("");
    if (type != ReallocResponseType.SUCCESS) {
      for (String k : List.of("R_delta_add", "R_delta_sub")) {
        if (response.has(k)) {
          throw bad(
              where + " /" + k + ": present with type " + type + " (expected: only with SUCCESS)");
        }
      }
    }
    return switch (type) {
      case SUCCESS -> success(request, response, allocId, where);
      case DENY -> failure(request, PmixStatus.PMIX_ERR_OUT_OF_RESOURCE, "denied" + colon(note));
      case CANCEL -> failure(request, PmixStatus.PMIX_ERR_JOB_CANCELED, "canceled" + colon(note));
      case UNSUPPORTED ->
          failure(
              request,
              PmixStatus.PMIX_ERR_NOT_SUPPORTED,
              "the scheduler does not support sched.realloc" + colon(note));
    };
  }

  /**
   * The PMIx answer to a {@code sched.realloc} error response.
   *
   * @param request the translation the request was sent from
   * @param errnum the response's errnum
   * @param errstr the response's error text, or null
   * @return the answer for the requester
   */
  public static PmixAnswer error(Translation.Realloc request, int errnum, String errstr) {
    String text = "sched.realloc failed: errno " + errnum + (errstr == null ? "" : ": " + errstr);
    return failure(request, statusOf(errnum), text);
  }

  /**
   * The answer to a request refused before anything was sent.
   *
   * @param refused the refusal
   * @return the answer: its status, no infos
   */
  public static PmixAnswer refused(Translation.Refused refused) {
    return new PmixAnswer(refused.status(), List.of(), refused.message());
  }

  /**
   * The answer to a {@code PMIX_ALLOC_REQ_CANCEL} whose {@code sched.realloc_cancel} went out; the
   * cancelled request itself is answered later ({@code PMIX_ERR_JOB_CANCELED}).
   *
   * @param cancel the translation
   * @return {@code PMIX_SUCCESS} with the request id
   */
  public static PmixAnswer cancelSent(Translation.Cancel cancel) {
    return new PmixAnswer(
        PmixStatus.PMIX_SUCCESS, InfoWriter.create().reqId(cancel.reqId()).infos(), "");
  }

  /**
   * The PMIx status for the Linux errno of a {@code sched.realloc} error response (D2, D47; the
   * table is in {@code docs/protocol-mapping.md}).
   *
   * @param errnum the errno
   * @return the status; {@code PMIX_ERROR} for an errno without a closer one
   */
  public static PmixStatus statusOf(int errnum) {
    return switch (errnum) {
      case Errno.ENOSYS -> PmixStatus.PMIX_ERR_NOT_SUPPORTED;
      case Errno.EPERM, Errno.EACCES -> PmixStatus.PMIX_ERR_NO_PERMISSIONS;
      case Errno.ENOENT -> PmixStatus.PMIX_ERR_NOT_FOUND;
      case Errno.EINVAL, Errno.EPROTO -> PmixStatus.PMIX_ERR_BAD_PARAM;
      case Errno.ENOMEM -> PmixStatus.PMIX_ERR_NOMEM;
      case Errno.EBUSY -> PmixStatus.PMIX_ERR_RESOURCE_BUSY;
      case Errno.EEXIST -> PmixStatus.PMIX_ERR_EXISTS;
      case Errno.ENOSPC, Errno.EOVERFLOW -> PmixStatus.PMIX_ERR_OUT_OF_RESOURCE;
      case Errno.ETIMEDOUT -> PmixStatus.PMIX_ERR_TIMEOUT;
      case Errno.ECONNREFUSED, Errno.EHOSTUNREACH -> PmixStatus.PMIX_ERR_UNREACH;
      default -> PmixStatus.PMIX_ERROR;
    };
  }

  /**
   * {@code PMIX_ALLOC_NODE_LIST} of an R: {@code host:slots} per host in rank order, slots being
   * the host's cores in R_lite ({@code name} alone would mean 1 slot to PRRTE).
   *
   * @param r the resources
   * @return the list, e.g. {@code n5:8,n6:8}
   * @throws TranslateException ({@code PMIX_ERROR}) when R names no host for some rank
   */
  public static String nodeList(ResourceSet r) {
    Map<String, Long> slots = new LinkedHashMap<>();
    for (int rank : r.ranks()) {
      String host = r.host(rank);
      if (host == null) {
        throw bad("R: rank " + rank + " has no host name (expected: an R with a nodelist)");
      }
      slots.merge(host, r.resources(rank, "core").count(), Long::sum);
    }
    List<String> out = new ArrayList<>();
    slots.forEach((h, n) -> out.add(h + ":" + n));
    return String.join(",", out);
  }

  /**
   * When to send {@code PMIX_ALLOC_TIMEOUT_WARNING} for a grant: {@code PMIX_ALLOC_WARN_TIMEOUT}
   * seconds before its expiration.
   *
   * @param grant the R granted ({@code R_delta_add})
   * @param warnTimeout the seconds asked for, or negative when not asked
   * @return the time (seconds since the epoch), or empty when not asked or the grant never expires;
   *     a time already past means at once
   */
  public static OptionalDouble warningTime(ResourceSet grant, long warnTimeout) {
    if (warnTimeout < 0 || grant.expiration() <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Math.max(0, grant.expiration() - warnTimeout));
  }

  /**
   * The infos of {@code PMIX_ALLOC_TIMEOUT_WARNING} (-194), sent to the requester only.
   *
   * @param allocId the allocation
   * @param reqId the request's label, or null
   * @param remaining whole seconds left, clamped to 0..2^32-1
   * @return ALLOC_ID, REQ_ID when given, TIME_REMAINING
   */
  public static List<Info> timeoutWarning(String allocId, String reqId, long remaining) {
    return InfoWriter.create()
        .allocId(allocId)
        .reqId(Optional.ofNullable(reqId))
        .timeRemaining(Math.max(0, Math.min(remaining, 0xFFFF_FFFFL)))
        .infos();
  }

  // ---- internals ------------------------------------------------------------------------------

  private static PmixAnswer success(
      Translation.Realloc request, JsonNode response, long allocId, String where) {
    boolean release = request.directive() == AllocDirective.RELEASE;
    String key = release ? "R_delta_sub" : "R_delta_add";
    JsonNode rj = response.get(key);
    if (rj == null) {
      throw bad(
          where
              + ": SUCCESS for "
              + request.directive().pmixName()
              + " without "
              + key
              + " (expected: the resources "
              + (release ? "taken back" : "granted")
              + ")");
    }
    ResourceSet r;
    try {
      r = ResourceSet.fromJson(rj);
    } catch (RsetException e) {
      throw bad(where + " /" + key + ": " + e.getMessage());
    }
    if (r.isEmpty()) {
      throw bad(where + " /" + key + ": names no resource (expected: at least one rank)");
    }
    InfoWriter infos = InfoWriter.create();
    if (release && request.allocId() != null) {
      infos.allocId(request.allocId());
    } else if (release) {
      infos.nodeList(nodeList(r));
    } else {
      String id =
          request.directive() == AllocDirective.EXTEND && request.allocId() != null
              ? request.allocId()
              : Long.toUnsignedString(allocId);
      infos.allocId(id).nodeList(nodeList(r));
    }
    infos.infos(request.echo());
    return new PmixAnswer(PmixStatus.PMIX_SUCCESS, infos.infos(), "");
  }

  private static PmixAnswer failure(Translation.Realloc request, PmixStatus status, String text) {
    return new PmixAnswer(status, AllocationAnswer.echoOf(request.echo()), text);
  }

  private static String colon(String note) {
    return note.isEmpty() ? "" : ": " + note;
  }

  private static TranslateException bad(String message) {
    return new TranslateException(PmixStatus.PMIX_ERROR, message);
  }
}
