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
      "after PRRTE released B1's reservation by its ALLOC_ID (node2, node3, where B3's job ran) it"
          + " reported 'lost communication with a remote daemon' for node3, and every later prun"
          + " fails with PMIX_ERR_JOB_FAILED_TO_LAUNCH: a PRRTE fault (spec B10: the daemons are"
          + " shrunk out); shrinks by node list (B11, D3, D5) leave prun working";

  /**
   * Scenarios whose outcome on PRRTE varied from run to run (D465): the table shows what was seen
   * in the runs that were made, not one run's outcome, so that it stays the same from run to run.
   */
  static final Map<String, String> VARIES =
      Map.of(
          "B21",
          "PRRTE's outcome varied between runs, and none was the reference's (spec B21: the"
              + " nodes are handed back, their daemons shrunk). 5 s after tool 2 finalized, node30"
              + " was back in the general pool with its daemon (prun ran there, as for a default"
              + " reservation) in most runs, and prun failed with PMIX_ERR_JOB_FAILED_TO_LAUNCH in"
              + " the others; a prun right after the NEW (an earlier form) hung in most runs."
              + " PRRTE's code tears a NONE reservation down by sending the shrink command without"
              + " the shrink campaign a RELEASE opens (prte_ras_base_teardown_reservation), so"
              + " nothing tracks the daemon's departure. A later NEW of node30 always succeeded"
              + " with PMIX_DVM_IS_READY, and prun ran on head,node1 again. Counts of the runs:"
              + " D465",
          "B22",
          "PRRTE's outcome varied between runs, and none was the reference's (spec B22: the"
              + " reservation is kept until the last descendant ends, then shrunk). In some runs"
              + " PRRTE granted tool 1's NEW of node31 as soon as tool 2 finalized, while the job"
              + " tool 2 had spawned into the CHILD reservation was still running (its sleep"
              + " process was seen): it did not hold the reservation for the owner's descendant;"
              + " the reference refuses (RESOURCE_BUSY) until the job ended. In the others a"
              + " request after tool 2 finalized got no answer within 120 s. Counts of the runs:"
              + " D465");

  static final Map<String, String> WHY =
      Map.ofEntries(
          Map.entry(
              "B2",
              "both refuse the job; PRRTE's mapper answers the generic PMIX_ERROR, the reference"
                  + " names why (OUT_OF_RESOURCE: no slot it may use, D354)"),
          Map.entry("B9", SHARE),
          Map.entry("D9", SHARE),
          Map.entry(
              "C30",
              "both pause every session the tool owns; PRRTE answers a UINT32_MAX control with a"
                  + " session's ids (here the one owned; with several the spec names none), the"
                  + " reference answers SUCCESS alone, the request having named no one session"
                  + " (PRRTE §7.4.4 Session Control)"),
          Map.entry(
              "C1",
              "PRRTE did not answer an INSTANTIATE with apps within the port's 120 s, although the"
                  + " session exists (C3-C5 find it) and its grow's DVM_IS_READY came: a PRRTE"
                  + " behaviour not analysed yet (spec C1: SUCCESS once launched)"),
          Map.entry(
              "C6",
              "follows from C1: on PRRTE the session whose INSTANTIATE was never answered is not"
                  + " reclaimed after SIGNAL=15 (30 s of retries); the reference reclaims an"
                  + " AUTO_COMPLETE session when its last job ends (spec C6)"),
          Map.entry("B10", AFTER_RELEASE),
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
              "B24",
              "this PRRTE (snapshot 52d5e4bb) predates ACTIVATE (OpenPMIx #4190, PRRTE #2721; not"
                  + " in its OpenPMIx) and answers directive 6 NOT_SUPPORTED whatever it names; the"
                  + " reference answers it itself (PRRTE §7.4.3 Flow-of-Control, D366): +all with no held node idle is"
                  + " SUCCESS with nothing to start, +e and a slot count are BAD_PARAM (spec B24)"),
          Map.entry(
              "C34",
              "PRRTE's TERMINATE of an INHERITANCE=NONE session returns node25 to the general pool with"
                  + " its daemon (prun runs there), as for a default session; the reference shrinks it out (spec"
                  + " C34: nodes handed back, shrunk, not returned to the pool). In two earlier runs, in DVMs that"
                  + " had run other scenarios first, PRRTE instead lost node25's daemon after this TERMINATE and prun"
                  + " failed, B10's fault (D462). prun runs right after the TERMINATE; with a 5 s wait"
                  + " first, one run found node25 out of the pool, as the reference (D465)"),
          Map.entry(
              "C18",
              "PRRTE counts COMPLETE as an operation, so PAUSE+COMPLETE is two operations"
                  + " (BAD_PARAM, as C10); the reference refuses any request carrying COMPLETE"
                  + " first (PRRTE §7.4.4.2.8 'Completion': only the DVM sends it)"));
}
