package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocInheritance;
import java.util.List;
import java.util.Optional;

/** Parsed allocation infos. */
final class AllocInfos {
  List<NodeList.Entry> nodes = List.of();
  Optional<String> allocId = Optional.empty();
  Optional<String> reqId = Optional.empty();
  Optional<String> target = Optional.empty();
  boolean share;
  Optional<AllocInheritance> inheritance = Optional.empty();
  Optional<Long> time = Optional.empty();
  Optional<Long> userId = Optional.empty();
}
