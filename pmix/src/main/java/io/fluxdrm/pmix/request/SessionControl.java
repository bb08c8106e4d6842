package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The directives of one {@code PMIx_Session_control} request, read once (PRRTE §7.4.4 Session
 * Control): the operations given, in order, and what they carry. Which combinations are allowed,
 * the signal's range and what is not supported are the consumer's rules (the DVM's {@code
 * SessionDirectives}); this record only refuses values that do not read. Decision D547.
 *
 * @param operations the operations asked ({@code PMIX_SESSION_INSTANTIATE} ... given true, and
 *     {@code PMIX_SESSION_SIGNAL}), in order
 * @param signal {@code PMIX_SESSION_SIGNAL}, as given
 * @param sep {@code PMIX_SESSION_SEP}
 * @param complete {@code PMIX_SESSION_COMPLETE} given true
 * @param ctrlId {@code PMIX_SESSION_CTRL_ID}
 * @param requestor {@code PMIX_REQUESTOR}
 * @param userId {@code PMIX_USERID}
 * @param nspaces every {@code PMIX_NSPACE}, in order
 * @param timeout {@code PMIX_TIMEOUT}, seconds, as given
 * @param provisioning the {@code PMIX_SESSION_PROVISION_NODES} and {@code _IMAGE} infos, in order
 * @param job the infos of every {@code PMIX_SESSION_JOB}, when one was given
 * @param apps the apps of every {@code PMIX_SESSION_APP}, in order
 * @param nodeLists every {@code PMIX_ALLOC_NODE_LIST}, inside {@code PMIX_SESSION_RESOURCES} or
 *     not, in order
 * @param resources the other allocation keys inside {@code PMIX_SESSION_RESOURCES}
 * @param direct the other allocation keys given on the request itself; its {@code others} holds
 *     every info this record does not type
 */
public record SessionControl(
    List<Operation> operations,
    Optional<Integer> signal,
    Optional<Boolean> sep,
    boolean complete,
    Optional<String> ctrlId,
    Optional<PmixProc> requestor,
    Optional<Long> userId,
    List<String> nspaces,
    Optional<Integer> timeout,
    List<Info> provisioning,
    Optional<List<Info>> job,
    List<App> apps,
    List<NodeList> nodeLists,
    AllocationRequest resources,
    AllocationRequest direct) {

  /** The operational directives (PRRTE §7.4.4.2 Operations), each a key. */
  public enum Operation {
    INSTANTIATE(PmixKey.PMIX_SESSION_INSTANTIATE),
    PAUSE(PmixKey.PMIX_SESSION_PAUSE),
    RESUME(PmixKey.PMIX_SESSION_RESUME),
    TERMINATE(PmixKey.PMIX_SESSION_TERMINATE),
    PREEMPT(PmixKey.PMIX_SESSION_PREEMPT),
    RESTORE(PmixKey.PMIX_SESSION_RESTORE),
    SIGNAL(PmixKey.PMIX_SESSION_SIGNAL),
    EXTEND(PmixKey.PMIX_SESSION_EXTEND);

    private final String key;

    Operation(String key) {
      this.key = key;
    }

    /**
     * The operation a key names.
     *
     * @param key a key string
     * @return the operation, none for a key that names none
     */
    public static Optional<Operation> of(String key) {
      for (Operation o : values()) {
        if (o.key.equals(key)) {
          return Optional.of(o);
        }
      }
      return Optional.empty();
    }

    /** The key string of the directive. */
    public String key() {
      return key;
    }

    /** The directive's info: the flag given true, or the signal's number. */
    Info info(int signal) {
      return this == SIGNAL ? Info.of(key, signal) : Info.of(key, true);
    }
  }

  /** Copies the lists. */
  public SessionControl {
    operations = List.copyOf(operations);
    nspaces = List.copyOf(nspaces);
    provisioning = List.copyOf(provisioning);
    job = job.map(List::copyOf);
    apps = List.copyOf(apps);
    nodeLists = List.copyOf(nodeLists);
  }

  /**
   * Whether {@code directives} carry {@code PMIX_SESSION_COMPLETE} true, the notice a DVM sends its
   * scheduler when a session ends; read without reading anything else.
   *
   * @param directives a request's or a notice's infos
   * @return true when one of them is {@code PMIX_SESSION_COMPLETE} true
   */
  public static boolean completes(List<Info> directives) {
    for (Info i : directives) {
      if (i.key().equals(PmixKey.PMIX_SESSION_COMPLETE) && Boolean.TRUE.equals(i.value())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first {@code PMIX_SESSION_CTRL_ID} of {@code directives}, read without reading anything
   * else, so that a refusal of directives that do not read still names the request.
   *
   * @param directives a request's infos
   * @return the id, if one is there
   */
  public static Optional<String> ctrlIdOf(List<Info> directives) {
    for (Info i : directives) {
      if (i.key().equals(PmixKey.PMIX_SESSION_CTRL_ID)) {
        return Optional.of(i.stringValue());
      }
    }
    return Optional.empty();
  }

  /**
   * The infos of the notice a DVM sends its scheduler when a session it was given ends (PRRTE
   * §7.4.4.2.8 "Completion"): {@code PMIX_SESSION_COMPLETE} true, {@code PMIX_SESSION_ID}, {@code
   * PMIX_ALLOC_ID}, then {@code results}; {@link #parse} reads it back.
   *
   * @param sessionId the session
   * @param allocId its allocation id
   * @param results what follows (a {@code PMIX_JOB_INFO_ARRAY} per job)
   * @return the infos, in that order
   */
  public static List<Info> completion(long sessionId, String allocId, List<Info> results) {
    List<Info> out = new ArrayList<>();
    out.add(Info.of(PmixKey.PMIX_SESSION_COMPLETE, true));
    out.add(Info.of(PmixKey.PMIX_SESSION_ID, sessionId));
    out.add(Info.of(PmixKey.PMIX_ALLOC_ID, allocId));
    out.addAll(results);
    return out;
  }

  /**
   * Reads {@code directives}; an info of a key no directive or allocation key names is kept in
   * {@code direct().others()} (PRRTE §7.4.4 Session Control: not an error).
   *
   * @param directives the request's infos
   * @return the directives
   * @throws RequestException (BAD_PARAM) locating the first value that does not read
   */
  public static SessionControl parse(List<Info> directives) {
    Reader r = new Reader();
    for (Info i : directives) {
      r.read(i);
    }
    return r.build();
  }

  /** The hosts of every node list, in order. */
  public List<NodeList.Entry> nodes() {
    List<NodeList.Entry> out = new ArrayList<>();
    nodeLists.forEach(l -> out.addAll(l.entries()));
    return out;
  }

  /**
   * The infos back: the operations, the typed directives, one {@code PMIX_SESSION_JOB}, one {@code
   * PMIX_SESSION_APP}, one {@code PMIX_SESSION_RESOURCES}, the node lists, then the direct
   * allocation keys and every other info; parsing them gives an equal record.
   */
  public List<Info> toInfos() {
    List<Info> out = new ArrayList<>();
    operations.forEach(o -> out.add(o.info(signal.orElse(0))));
    sep.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_SESSION_SEP, v)));
    if (complete) {
      out.add(Info.of(PmixKey.PMIX_SESSION_COMPLETE, true));
    }
    ctrlId.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, v)));
    requestor.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_REQUESTOR, v)));
    userId.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_USERID, v)));
    nspaces.forEach(v -> out.add(Info.of(PmixKey.PMIX_NSPACE, v)));
    timeout.ifPresent(v -> out.add(Info.of(PmixKey.PMIX_TIMEOUT, v)));
    out.addAll(provisioning);
    job.ifPresent(j -> out.add(array(PmixKey.PMIX_SESSION_JOB, j)));
    if (!apps.isEmpty()) {
      out.add(Info.of(PmixKey.PMIX_SESSION_APP, apps));
    }
    List<Info> res = resources.toInfos();
    if (!res.isEmpty()) {
      out.add(array(PmixKey.PMIX_SESSION_RESOURCES, res));
    }
    nodeLists.forEach(l -> out.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, l.text())));
    out.addAll(direct.toInfos());
    return out;
  }

  private static Info array(String key, List<Info> infos) {
    return new Info(key, PmixDataType.PMIX_DATA_ARRAY, infos);
  }

  /** Collects the fields while the infos are read. */
  private static final class Reader {
    final List<Operation> operations = new ArrayList<>();
    Optional<Integer> signal = Optional.empty();
    Optional<Boolean> sep = Optional.empty();
    boolean complete;
    Optional<String> ctrlId = Optional.empty();
    Optional<PmixProc> requestor = Optional.empty();
    Optional<Long> userId = Optional.empty();
    final List<String> nspaces = new ArrayList<>();
    Optional<Integer> timeout = Optional.empty();
    final List<Info> provisioning = new ArrayList<>();
    List<Info> job;
    final List<App> apps = new ArrayList<>();
    final List<NodeList> nodeLists = new ArrayList<>();
    final AllocationRequest.Builder resources = new AllocationRequest.Builder();
    final AllocationRequest.Builder direct = new AllocationRequest.Builder();

    void read(Info i) {
      switch (i.key()) {
        case PmixKey.PMIX_SESSION_INSTANTIATE -> flag(i, Operation.INSTANTIATE);
        case PmixKey.PMIX_SESSION_PAUSE -> flag(i, Operation.PAUSE);
        case PmixKey.PMIX_SESSION_RESUME -> flag(i, Operation.RESUME);
        case PmixKey.PMIX_SESSION_TERMINATE -> flag(i, Operation.TERMINATE);
        case PmixKey.PMIX_SESSION_PREEMPT -> flag(i, Operation.PREEMPT);
        case PmixKey.PMIX_SESSION_RESTORE -> flag(i, Operation.RESTORE);
        case PmixKey.PMIX_SESSION_EXTEND -> flag(i, Operation.EXTEND);
        case PmixKey.PMIX_SESSION_SIGNAL -> {
          signal = Optional.of((Integer) i.value());
          operations.add(Operation.SIGNAL);
        }
        case PmixKey.PMIX_SESSION_SEP -> sep = Optional.of(i.boolValue());
        case PmixKey.PMIX_SESSION_COMPLETE -> complete |= i.boolValue();
        case PmixKey.PMIX_SESSION_CTRL_ID -> ctrlId = Optional.of(i.stringValue());
        case PmixKey.PMIX_REQUESTOR -> requestor = Optional.of((PmixProc) i.value());
        case PmixKey.PMIX_USERID -> userId = Optional.of(i.longValue());
        case PmixKey.PMIX_NSPACE -> nspaces.add(i.stringValue());
        case PmixKey.PMIX_TIMEOUT -> timeout = Optional.of((Integer) i.value());
        case PmixKey.PMIX_SESSION_PROVISION_NODES, PmixKey.PMIX_SESSION_PROVISION_IMAGE ->
            provisioning.add(i);
        case PmixKey.PMIX_SESSION_RESOURCES -> {
          if (!i.isInfoArray()) {
            throw bad(i, "PMIX_SESSION_RESOURCES: a data array of apps");
          }
          for (Info r : i.infosValue()) {
            allocation(r, resources);
          }
        }
        case PmixKey.PMIX_SESSION_JOB -> {
          if (!i.isInfoArray()) {
            throw bad(i, "PMIX_SESSION_JOB: a data array of apps");
          }
          if (job == null) {
            job = new ArrayList<>();
          }
          job.addAll(i.infosValue());
        }
        case PmixKey.PMIX_SESSION_APP -> {
          if (!i.isAppArray()) {
            throw RequestException.whole(
                PmixStatus.PMIX_ERR_BAD_PARAM,
                i.key(),
                "PMIX_SESSION_APP: "
                    + (((List<?>) i.value()).isEmpty() ? "an empty array" : "a data array of info")
                    + " (expected: a data array of at least one app)");
          }
          apps.addAll(i.appsValue());
        }
        default -> allocation(i, direct);
      }
    }

    private void flag(Info i, Operation op) {
      if (i.boolValue()) {
        operations.add(op);
      }
    }

    private void allocation(Info i, AllocationRequest.Builder into) {
      if (i.key().equals(PmixKey.PMIX_ALLOC_NODE_LIST)) {
        nodeLists.add(NodeList.parse(i, true));
      } else if (!into.read(i)) {
        into.others.add(i);
      }
    }

    private static RequestException bad(Info i, String problem) {
      return RequestException.whole(
          PmixStatus.PMIX_ERR_BAD_PARAM, i.key(), problem + " (expected: a data array of info)");
    }

    SessionControl build() {
      return new SessionControl(
          operations,
          signal,
          sep,
          complete,
          ctrlId,
          requestor,
          userId,
          nspaces,
          timeout,
          provisioning,
          Optional.ofNullable(job),
          apps,
          nodeLists,
          resources.build(),
          direct.build());
    }
  }
}
