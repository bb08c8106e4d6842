package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes the allocation and session-control infos of a request, an answer, a grant or a directive
 * toward a DVM, in the order of its calls: each producer keeps the order its recordings and golden
 * transcripts show, where the records' {@code toInfos()} use one fixed order. The value types are
 * the catalog's ({@link Info#of}). Decision D574.
 */
public final class InfoWriter {
  private final List<Info> out = new ArrayList<>();

  private InfoWriter() {}

  /** An empty writer. */
  public static InfoWriter create() {
    return new InfoWriter();
  }

  /** {@code PMIX_ALLOC_ID}. */
  public InfoWriter allocId(String id) {
    return info(Info.of(PmixKey.PMIX_ALLOC_ID, id));
  }

  /** {@code PMIX_ALLOC_REQ_ID}. */
  public InfoWriter reqId(String id) {
    return info(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id));
  }

  /** {@code PMIX_ALLOC_REQ_ID} when there is one. */
  public InfoWriter reqId(Optional<String> id) {
    id.ifPresent(this::reqId);
    return this;
  }

  /** {@code PMIX_ALLOC_NODE_LIST}, as text. */
  public InfoWriter nodeList(String nodes) {
    return info(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nodes));
  }

  /** {@code PMIX_ALLOC_NUM_NODES}. */
  public InfoWriter numNodes(long n) {
    return info(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, n));
  }

  /** {@code PMIX_ALLOC_TIME}, a time as PMIx writes it (seconds, or {@code [[HH:]MM:]SS}). */
  public InfoWriter time(String spec) {
    return info(Info.of(PmixKey.PMIX_ALLOC_TIME, spec));
  }

  /** {@code PMIX_ALLOC_SHARE}. */
  public InfoWriter share(boolean share) {
    return info(Info.of(PmixKey.PMIX_ALLOC_SHARE, share));
  }

  /** {@code PMIX_ALLOC_TARGET}. */
  public InfoWriter target(String owner) {
    return info(Info.of(PmixKey.PMIX_ALLOC_TARGET, owner));
  }

  /** {@code PMIX_ALLOC_INHERITANCE}. */
  public InfoWriter inheritance(AllocInheritance i) {
    return info(Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, i));
  }

  /** {@code PMIX_SESSION_ID}. */
  public InfoWriter sessionId(long id) {
    return info(Info.of(PmixKey.PMIX_SESSION_ID, id));
  }

  /** {@code PMIX_TIME_REMAINING}, seconds. */
  public InfoWriter timeRemaining(long seconds) {
    return info(Info.of(PmixKey.PMIX_TIME_REMAINING, seconds));
  }

  /** {@code PMIX_SESSION_CTRL_ID}. */
  public InfoWriter ctrlId(String id) {
    return info(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, id));
  }

  /** {@code PMIX_SESSION_SEP}. */
  public InfoWriter sep(boolean sep) {
    return info(Info.of(PmixKey.PMIX_SESSION_SEP, sep));
  }

  /** {@code PMIX_SESSION_APP}, the apps as one array. */
  public InfoWriter apps(List<App> apps) {
    return info(Info.of(PmixKey.PMIX_SESSION_APP, List.copyOf(apps)));
  }

  /** {@code PMIX_SESSION_COMPLETE} true. */
  public InfoWriter complete() {
    return info(Info.of(PmixKey.PMIX_SESSION_COMPLETE, true));
  }

  /**
   * A session operation given true (PRRTE §7.4.4.2 Operations); {@code SIGNAL} takes its number
   * through {@link #signal}.
   */
  public InfoWriter operation(Operation o) {
    return info(o.info(0));
  }

  /** {@code PMIX_SESSION_SIGNAL} with its number. */
  public InfoWriter signal(int signal) {
    return info(Operation.SIGNAL.info(signal));
  }

  /** Any other info, as given. */
  public InfoWriter info(Info i) {
    out.add(i);
    return this;
  }

  /** Every info of {@code infos}, as given. */
  public InfoWriter infos(List<Info> infos) {
    out.addAll(infos);
    return this;
  }

  /** The infos written so far, in a new modifiable list. */
  public List<Info> infos() {
    return new ArrayList<>(out);
  }
}
