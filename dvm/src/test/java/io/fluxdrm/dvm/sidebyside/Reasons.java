package io.fluxdrm.dvm.sidebyside;

import java.util.Map;

/**
 * Why the reference DVM and PRRTE differ, scenario by scenario, citing the decision (docs/dvm.md's
 * tables above the side-by-side one). A difference without an entry here shows as "not explained
 * yet".
 */
final class Reasons {
  private Reasons() {}

  private static final String SHARE =
      "PRRTE sends no second-phase event for a SHARE grow (its event names the reservation, and the"
          + " default session has none); the reference sends one for every accepted request that"
          + " changed the daemons (spec D23, D364)";

  private static final String AFTER_RELEASE =
      "after PRRTE released a reservation with daemons (B10) or shrank a node, every later prun"
          + " fails (PMIX_ERR_JOB_FAILED_TO_LAUNCH, 'lost communication with a remote daemon'): the"
          + " shrink is not orderly in this PRRTE (a PRRTE fault; spec B10/D3 say prun still works)";

  static final Map<String, String> WHY =
      Map.ofEntries(
          Map.entry(
              "B2",
              "both refuse the job; PRRTE's mapper answers the generic PMIX_ERROR, the reference"
                  + " names why (OUT_OF_RESOURCE: no slot it may use, D354)"),
          Map.entry("B9", SHARE),
          Map.entry("D2", SHARE),
          Map.entry("B10", AFTER_RELEASE),
          Map.entry("B11", AFTER_RELEASE),
          Map.entry("D3", AFTER_RELEASE),
          Map.entry(
              "B15",
              "PRRTE sends PMIX_DVM_IS_READY for a grow that changes no daemon; the reference"
                  + " sends none (spec text, D364, D403; difference 7 above)"),
          Map.entry(
              "B16",
              "PRRTE's ras/hosts creates an empty reservation and answers SUCCESS; the reference"
                  + " refuses a count it cannot satisfy without a scheduler (D355; difference 3)"),
          Map.entry(
              "B18",
              "PRRTE's ras/pmix creates the reservation from the scheduler's answer and grows onto"
                  + " its nodes (DVM_IS_READY); the reference passes the answer through, and the"
                  + " session exists only once the scheduler instantiates it (D360; difference 2)"),
          Map.entry(
              "C18",
              "PRRTE counts COMPLETE as an operation, so PAUSE+COMPLETE is two operations"
                  + " (BAD_PARAM, as C10); the reference refuses any request carrying COMPLETE"
                  + " first (seed 000 'Completion': only the DVM sends it)"));
}
