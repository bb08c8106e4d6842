package io.fluxdrm.dvm.sidebyside;

import java.util.Map;

/** Why the reference DVM and PRRTE differ, scenario by scenario, citing the decision. */
final class Reasons {
  private Reasons() {}

  static final Map<String, String> WHY = Map.ofEntries();
}
