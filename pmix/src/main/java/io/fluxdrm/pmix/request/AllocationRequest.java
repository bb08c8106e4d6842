package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.AllocTime;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The infos of one {@code PMIx_Allocation_request} (or of the allocation a spawn carries), read
 * once: what each consumer acts on, typed. A key given twice keeps its last value; keys this record
 * does not model stay in {@link #others()}, in order, for the consumer's own rules (what the DVM
 * refuses, what the bridge cannot translate). Decision D546.
 *
 * @param numNodes {@code PMIX_ALLOC_NUM_NODES}, unsigned, as given
 * @param numCpus {@code PMIX_ALLOC_NUM_CPUS}, unsigned, as given
 * @param nodeList {@code PMIX_ALLOC_NODE_LIST}, slot suffixes allowed
 * @param exclude {@code PMIX_ALLOC_EXCLUDE}, host names only
 * @param timeSeconds {@code PMIX_ALLOC_TIME}, in seconds
 * @param allocId {@code PMIX_ALLOC_ID}
 * @param reqId {@code PMIX_ALLOC_REQ_ID}
 * @param target {@code PMIX_ALLOC_TARGET}
 * @param queue {@code PMIX_ALLOC_QUEUE}
 * @param share {@code PMIX_ALLOC_SHARE}
 * @param inheritance {@code PMIX_ALLOC_INHERITANCE}
 * @param warnTimeout {@code PMIX_ALLOC_WARN_TIMEOUT}, seconds
 * @param userId {@code PMIX_USERID}
 * @param requestor {@code PMIX_REQUESTOR}
 * @param selection the names ({@code PMIX_ALLOC_MEM_SIZE}) of the resource-selection keys given
 *     that this record does not type, in order; their infos are in {@code others}
 * @param others every info of a key not typed above, in order
 */
public record AllocationRequest(
    Optional<Long> numNodes,
    Optional<Long> numCpus,
    Optional<NodeList> nodeList,
    Optional<NodeList> exclude,
    Optional<Long> timeSeconds,
    Optional<String> allocId,
    Optional<String> reqId,
    Optional<String> target,
    Optional<String> queue,
    Optional<Boolean> share,
    Optional<AllocInheritance> inheritance,
    Optional<Long> warnTimeout,
    Optional<Long> userId,
    Optional<PmixProc> requestor,
    List<String> selection,
    List<Info> others) {

  /**
   * The resource-selection keys (counts, lists, memory, fabric, queue) a DVM alone cannot serve.
   */
  private static final Set<String> SELECTION =
      Set.of(
          PmixKey.PMIX_ALLOC_NUM_NODES,
          PmixKey.PMIX_ALLOC_NUM_CPUS,
          PmixKey.PMIX_ALLOC_NUM_CPU_LIST,
          PmixKey.PMIX_ALLOC_CPU_LIST,
          PmixKey.PMIX_ALLOC_MEM_SIZE,
          PmixKey.PMIX_ALLOC_FABRIC,
          PmixKey.PMIX_ALLOC_QUEUE);

  /**
   * The allocation keys this record types, for a consumer's texts that name a key by its string
   * (the bridge's refusals do, D575): the key strings stay in this package.
   */
  public enum Key {
    NUM_NODES(PmixKey.PMIX_ALLOC_NUM_NODES),
    NUM_CPUS(PmixKey.PMIX_ALLOC_NUM_CPUS),
    NODE_LIST(PmixKey.PMIX_ALLOC_NODE_LIST),
    EXCLUDE(PmixKey.PMIX_ALLOC_EXCLUDE),
    TIME(PmixKey.PMIX_ALLOC_TIME),
    ID(PmixKey.PMIX_ALLOC_ID),
    REQ_ID(PmixKey.PMIX_ALLOC_REQ_ID),
    TARGET(PmixKey.PMIX_ALLOC_TARGET),
    QUEUE(PmixKey.PMIX_ALLOC_QUEUE),
    SHARE(PmixKey.PMIX_ALLOC_SHARE),
    INHERITANCE(PmixKey.PMIX_ALLOC_INHERITANCE),
    WARN_TIMEOUT(PmixKey.PMIX_ALLOC_WARN_TIMEOUT);

    private final String key;

    Key(String key) {
      this.key = key;
    }

    /** The key string, e.g. {@code pmix.alloc.nlist}. */
    public String key() {
      return key;
    }

    /** The macro name, e.g. {@code PMIX_ALLOC_NODE_LIST}. */
    public String pmixName() {
      return PmixKey.nameOf(key).orElseThrow();
    }
  }

  /** Copies the lists. */
  public AllocationRequest {
    selection = List.copyOf(selection);
    others = List.copyOf(others);
  }

  /**
   * Whether {@code key} selects resources (a count, a CPU list, memory, a fabric or a queue).
   *
   * @param key a key string
   * @return true for the resource-selection keys
   */
  public static boolean isResourceSelection(String key) {
    return SELECTION.contains(key);
  }

  /** A request that asks nothing. */
  public static AllocationRequest empty() {
    return parse(List.of());
  }

  /**
   * Reads {@code infos}.
   *
   * @param infos the request's infos
   * @return the request
   * @throws RequestException (BAD_PARAM) locating the first value that does not read
   */
  public static AllocationRequest parse(List<Info> infos) {
    Builder b = new Builder();
    for (Info i : infos) {
      if (!b.read(i)) {
        b.others.add(i);
      }
    }
    return b.build();
  }

  /**
   * Whether this request names any resource (a count, a node list, a time or an inheritance), the
   * things an EXTEND may add.
   */
  public boolean extendsSomething() {
    return nodeList.isPresent() || timeSeconds.isPresent() || inheritance.isPresent();
  }

  /** The hosts of the node list, none when there is none. */
  public List<NodeList.Entry> nodes() {
    return nodeList.map(NodeList::entries).orElse(List.of());
  }

  /** The first resource-selection key given (typed or not), by name, if any. */
  public Optional<String> firstSelection() {
    return selection.isEmpty() ? Optional.empty() : Optional.of(selection.get(0));
  }

  /**
   * The infos back: the typed fields in a fixed order, then {@link #others()}; parsing them gives
   * an equal request.
   */
  public List<Info> toInfos() {
    List<Info> out = new ArrayList<>();
    numNodes.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, v)));
    numCpus.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, v)));
    nodeList.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, v.text())));
    exclude.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_EXCLUDE, v.text())));
    timeSeconds.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_TIME, Long.toString(v))));
    allocId.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_ID, v)));
    reqId.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, v)));
    target.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_TARGET, v)));
    queue.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_QUEUE, v)));
    share.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_SHARE, v)));
    inheritance.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, v)));
    warnTimeout.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_ALLOC_WARN_TIMEOUT, v)));
    userId.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_USERID, v)));
    requestor.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_REQUESTOR, v)));
    out.addAll(others);
    return out;
  }

  /** Collects the fields while the infos are read; package-private for {@link SessionControl}. */
  static final class Builder {
    Optional<Long> numNodes = Optional.empty();
    Optional<Long> numCpus = Optional.empty();
    Optional<NodeList> nodeList = Optional.empty();
    Optional<NodeList> exclude = Optional.empty();
    Optional<Long> time = Optional.empty();
    Optional<String> allocId = Optional.empty();
    Optional<String> reqId = Optional.empty();
    Optional<String> target = Optional.empty();
    Optional<String> queue = Optional.empty();
    Optional<Boolean> share = Optional.empty();
    Optional<AllocInheritance> inheritance = Optional.empty();
    Optional<Long> warnTimeout = Optional.empty();
    Optional<Long> userId = Optional.empty();
    Optional<PmixProc> requestor = Optional.empty();
    final List<String> selection = new ArrayList<>();
    final List<Info> others = new ArrayList<>();

    /** Reads one info; false when its key is not one this record types. */
    boolean read(Info i) {
      if (SELECTION.contains(i.key())) {
        selection.add(PmixKey.nameOf(i.key()).orElseThrow());
      }
      switch (i.key()) {
        case PmixKey.PMIX_ALLOC_NUM_NODES -> numNodes = Optional.of(i.longValue());
        case PmixKey.PMIX_ALLOC_NUM_CPUS -> numCpus = Optional.of(i.longValue());
        case PmixKey.PMIX_ALLOC_NODE_LIST -> nodeList = Optional.of(NodeList.parse(i, true));
        case PmixKey.PMIX_ALLOC_EXCLUDE ->
            exclude = Optional.of(NodeList.parse(i.key(), i.stringValue(), false));
        case PmixKey.PMIX_ALLOC_TIME -> time = Optional.of(seconds(i));
        case PmixKey.PMIX_ALLOC_ID -> allocId = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_REQ_ID -> reqId = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_TARGET -> target = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_QUEUE -> queue = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_SHARE -> share = Optional.of(i.boolValue());
        case PmixKey.PMIX_ALLOC_INHERITANCE ->
            inheritance = Optional.of((AllocInheritance) i.value());
        case PmixKey.PMIX_ALLOC_WARN_TIMEOUT -> warnTimeout = Optional.of(i.longValue());
        case PmixKey.PMIX_USERID -> userId = Optional.of(i.longValue());
        case PmixKey.PMIX_REQUESTOR -> requestor = Optional.of((PmixProc) i.value());
        default -> {
          return false;
        }
      }
      return true;
    }

    AllocationRequest build() {
      return new AllocationRequest(
          numNodes,
          numCpus,
          nodeList,
          exclude,
          time,
          allocId,
          reqId,
          target,
          queue,
          share,
          inheritance,
          warnTimeout,
          userId,
          requestor,
          selection,
          others);
    }
  }

  /** {@code PMIX_ALLOC_TIME} in seconds; AllocTime's message already names the key. */
  static long seconds(Info i) {
    try {
      return AllocTime.parseSeconds(i.stringValue());
    } catch (PmixException e) {
      throw RequestException.whole(e.status(), i.key(), e.getMessage());
    }
  }
}
