package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A grow or shrink campaign of the elastic DVM (PRRTE's elastic-DVM spec, launch fence and
 * campaigns): the exact daemon ranks it launches or removes, those not yet up (grow) or not yet
 * departed (shrink), every distinct requester, and its contribution to the launch fence (its target
 * count).
 */
final class Campaign {
  final long id;
  final boolean grow;
  final LinkedHashMap<Long, NodeRec> targets = new LinkedHashMap<>();
  final LinkedHashSet<Long> pending = new LinkedHashSet<>();
  final List<Requester> requesters = new ArrayList<>();
  int contribution;

  /** A shrink a stop of which could not be sent: the cause its requesters hear (D415). */
  PmixStatus failure;

  Campaign(long id, boolean grow) {
    this.id = id;
    this.grow = grow;
  }

  void addRequester(Requester r) {
    // PRRTE elastic-DVM spec, launch fence and campaigns: every distinct requester among the
    // targets
    if (!requesters.contains(r)) {
      requesters.add(r);
    }
  }
}
