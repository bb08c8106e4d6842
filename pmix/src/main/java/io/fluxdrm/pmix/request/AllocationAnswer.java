package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixRegex;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The infos that answer an allocation or name one: the results of a {@code PMIx_Allocation_request}
 * (PMIx Standard v5.0, PMIx_Allocation_request), a scheduler's grant toward its DVM (PRRTE §7.4.3
 * Flow-of-Control), a release's echo, a timeout warning's infos. Nothing is refused here: the
 * catalog's types are checked when an {@link Info} is made, and infos this record does not type
 * stay in {@link #others()} for the consumer; a key given twice keeps its last value, as in {@link
 * AllocationRequest}. Written in the order the writer is called, so that each answer's infos keep
 * the order its recordings show ({@link InfoWriter}). Decision D574.
 *
 * @param allocId {@code PMIX_ALLOC_ID}, a string
 * @param reqId {@code PMIX_ALLOC_REQ_ID}, a string
 * @param nodeList {@code PMIX_ALLOC_NODE_LIST}, a string or a PMIx regex, as its text
 * @param sessionId {@code PMIX_SESSION_ID}
 * @param timeRemaining {@code PMIX_TIME_REMAINING}, seconds
 * @param others every other info, in order
 */
public record AllocationAnswer(
    Optional<String> allocId,
    Optional<String> reqId,
    Optional<String> nodeList,
    Optional<Long> sessionId,
    Optional<Long> timeRemaining,
    List<Info> others) {

  /** Copies the list. */
  public AllocationAnswer {
    others = List.copyOf(others);
  }

  /**
   * Reads {@code infos}.
   *
   * @param infos an answer's, a grant's or an event's infos
   * @return the answer
   * @throws io.fluxdrm.pmix.PmixException for a node list given as a PMIx regex that does not
   *     expand, naming the key
   */
  public static AllocationAnswer parse(List<Info> infos) {
    Optional<String> allocId = Optional.empty();
    Optional<String> reqId = Optional.empty();
    Optional<String> nodeList = Optional.empty();
    Optional<Long> sessionId = Optional.empty();
    Optional<Long> remaining = Optional.empty();
    List<Info> others = new ArrayList<>();
    for (Info i : infos) {
      Object v = i.value();
      switch (i.key()) {
        case PmixKey.PMIX_ALLOC_ID -> {
          if (v instanceof String s) {
            allocId = Optional.of(s);
            continue;
          }
        }
        case PmixKey.PMIX_ALLOC_REQ_ID -> {
          if (v instanceof String s) {
            reqId = Optional.of(s);
            continue;
          }
        }
        case PmixKey.PMIX_ALLOC_NODE_LIST -> {
          if (v instanceof String || v instanceof PmixRegex) {
            nodeList = Optional.of(i.stringValue());
            continue;
          }
        }
        case PmixKey.PMIX_SESSION_ID -> {
          if (v instanceof Number n) {
            sessionId = Optional.of(n.longValue());
            continue;
          }
        }
        case PmixKey.PMIX_TIME_REMAINING -> {
          if (v instanceof Number n) {
            remaining = Optional.of(n.longValue());
            continue;
          }
        }
        default -> {}
      }
      others.add(i);
    }
    return new AllocationAnswer(allocId, reqId, nodeList, sessionId, remaining, others);
  }

  /**
   * The last {@code PMIX_ALLOC_ID} of {@code infos}, as {@link #parse} reads it, reading no other
   * info: a peek that never throws, where {@link #parse} expands a node list too (D577).
   *
   * @param infos a request's, an answer's, a grant's or an event's infos
   * @return the allocation id
   */
  public static Optional<String> allocIdOf(List<Info> infos) {
    return lastString(infos, PmixKey.PMIX_ALLOC_ID);
  }

  /**
   * The last {@code PMIX_ALLOC_REQ_ID} of {@code infos}, as {@link #parse} reads it, reading no
   * other info: a peek that never throws.
   *
   * @param infos a request's, an answer's, a grant's or an event's infos
   * @return the request id
   */
  public static Optional<String> reqIdOf(List<Info> infos) {
    return lastString(infos, PmixKey.PMIX_ALLOC_REQ_ID);
  }

  private static Optional<String> lastString(List<Info> infos, String key) {
    Optional<String> out = Optional.empty();
    for (Info i : infos) {
      if (i.key().equals(key) && i.value() instanceof String s) {
        out = Optional.of(s);
      }
    }
    return out;
  }

  /**
   * The {@code PMIX_ALLOC_REQ_ID} infos of {@code infos}, as given: what an answer echoes of the
   * request it answers (PMIx Standard v5.0, PMIx_Allocation_request: the request id comes back with
   * the results).
   *
   * @param infos a request's infos
   * @return its request-id infos, in order
   */
  public static List<Info> echoOf(List<Info> infos) {
    return infos.stream().filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID)).toList();
  }

  /**
   * Whether {@code infos} hold a {@code PMIX_ALLOC_TARGET}, of any value: the key alone decides
   * where an application may not name an owner (PRRTE node-reservation rules).
   *
   * @param infos a request's infos
   * @return true when the key is there
   */
  public static boolean namesTarget(List<Info> infos) {
    return infos.stream().anyMatch(i -> i.key().equals(PmixKey.PMIX_ALLOC_TARGET));
  }

  /**
   * Whether {@code infos} hold a {@code PMIX_ALLOC_ID} or a {@code PMIX_ALLOC_SHARE}, of any value:
   * whether a request names a reservation or how to share one. PRRTE extends a reservation only by
   * its id, so an EXTEND naming neither extends the requester's own session (D475, D579).
   *
   * @param infos a request's infos
   * @return true when either key is there
   */
  public static boolean namesReservation(List<Info> infos) {
    return infos.stream()
        .anyMatch(
            i -> i.key().equals(PmixKey.PMIX_ALLOC_ID) || i.key().equals(PmixKey.PMIX_ALLOC_SHARE));
  }

  /**
   * The infos back, in the order of the record's components, then {@code others}; parsing them
   * gives an equal answer.
   */
  public List<Info> toInfos() {
    InfoWriter w = InfoWriter.create();
    allocId.ifPresent(w::allocId);
    reqId.ifPresent(w::reqId);
    nodeList.ifPresent(w::nodeList);
    sessionId.ifPresent(w::sessionId);
    timeRemaining.ifPresent(w::timeRemaining);
    others.forEach(w::info);
    return w.infos();
  }
}
