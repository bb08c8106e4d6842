package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.request.AllocationRequest;
import io.fluxdrm.pmix.request.NodeList;
import java.util.List;
import java.util.Optional;

/** The parts of an {@link AllocationRequest} the DVM serves, as it narrows them while it serves. */
final class AllocInfos {
  List<NodeList.Entry> nodes = List.of();
  Optional<String> allocId = Optional.empty();
  Optional<String> reqId = Optional.empty();
  Optional<String> target = Optional.empty();
  boolean share;
  Optional<AllocInheritance> inheritance = Optional.empty();
  Optional<Long> time = Optional.empty();
  Optional<Long> userId = Optional.empty();

  static AllocInfos of(AllocationRequest r) {
    AllocInfos a = new AllocInfos();
    a.nodes = r.nodes();
    a.allocId = r.allocId();
    a.reqId = r.reqId();
    a.target = r.target();
    a.share = r.share().orElse(false);
    a.inheritance = r.inheritance();
    a.time = r.timeSeconds();
    a.userId = r.userId();
    return a;
  }
}
