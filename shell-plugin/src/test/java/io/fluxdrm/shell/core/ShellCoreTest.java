package io.fluxdrm.shell.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellException;
import io.fluxdrm.testkit.InvariantsExtension;
import io.fluxdrm.testkit.StepTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shell core (RFC 51 §Realloc grants and shell.release) as step tables, one line per step
 * {@code event | decisions | state}; the invariants are checked after every step.
 */
class ShellCoreTest {

  /** Eight nodes {@code node[0-7]} of four cores. */
  private static final ResourceSet POOL =
      ResourceSet.of(
          IdSet.range(0, 7), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("node[0-7]"));

  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  private ShellCore core;

  /** The model: initial R, plus every grant's add, minus every release taken back. */
  private ResourceSet expected;

  private final Map<Long, ResourceSet> inFlight = new HashMap<>();

  private static ResourceSet ranks(String s) {
    return s.equals("-") ? ResourceSet.empty() : POOL.copyRanks(IdSet.parse(s));
  }

  private void start(String initial) {
    core = new ShellCore(ranks(initial));
    expected = ranks(initial);
    inv.register("R = initial + grants - released", () -> assertThat(core.r()).isEqualTo(expected));
    inv.register(
        "releasing is held", () -> assertThat(core.releasing().diff(core.r()).isEmpty()).isTrue());
    inv.register(
        "releases in flight are being released, and disjoint",
        () -> {
          ResourceSet seen = ResourceSet.empty();
          for (ResourceSet r : inFlight.values()) {
            assertThat(r.diff(core.releasing()).isEmpty()).isTrue();
            assertThat(r.ranks().intersects(seen.ranks())).isFalse();
            seen = seen.union(r);
          }
        });
  }

  private void run(String table) {
    for (StepTable.Row row : StepTable.parse(table, 3)) {
      String got = step(row.cell(0).split("\\s+"));
      assertThat(got).as(row.where() + " decisions").isEqualTo(row.cell(1));
      String state = ("R " + core.r().ranks() + " releasing " + core.releasing().ranks()).strip();
      assertThat(state).as(row.where() + " state").isEqualTo(row.cell(2));
      inv.check(row.where());
    }
  }

  private String step(String[] ev) {
    try {
      switch (ev[0]) {
        case "grant" -> {
          ResourceSet add = ranks(ev[1]);
          ResourceSet sub = ranks(ev[2]);
          core.granted(add, sub);
          expected = expected.union(add);
          return "";
        }
        case "exit" -> {
          ShellCore.Exited x = core.exited("task-exit", IdSet.parse(ev[1]));
          List<String> out = new ArrayList<>();
          for (ShellCore.Release r : x.releases()) {
            assertThat(inFlight.put(r.shrink(), r.r())).as("one release per shrink").isNull();
            out.add("release " + r.shrink() + " " + r.r().ranks());
          }
          return String.join("; ", out);
        }
        case "released" -> {
          long id = Long.parseLong(ev[1]);
          ResourceSet gone = core.released(id);
          assertThat(inFlight.remove(id)).isEqualTo(gone);
          expected = expected.diff(gone);
          return "";
        }
        case "failed" -> {
          long id = Long.parseLong(ev[1]);
          core.releaseFailed(id);
          inFlight.remove(id);
          return "";
        }
        default -> throw new IllegalArgumentException("unknown event " + ev[0]);
      }
    } catch (ShellException e) {
      return "error " + Errno.name(e.errnum());
    }
  }

  @Test
  void shrink_isReleasedOnceAllItsTasksExited() {
    start("0-3");
    run(
        """
        grant - 2-3    |                  | R 0-3 releasing 2-3
        exit 2         |                  | R 0-3 releasing 2-3
        exit 3         | release 1 2-3    | R 0-3 releasing 2-3
        released 1     |                  | R 0-1 releasing
        """);
  }

  @Test
  void grow_joinsAtOnce_andOverlapOrUnheldShrinkIsRefusedWithoutChange() {
    start("0-1");
    run(
        """
        grant 2-3 -    |                  | R 0-3 releasing
        grant 3-4 -    | error EPROTO     | R 0-3 releasing
        grant - 5      | error EPROTO     | R 0-3 releasing
        grant - -      | error EPROTO     | R 0-3 releasing
        grant - 1      |                  | R 0-3 releasing 1
        grant - 1      | error EPROTO     | R 0-3 releasing 1
        grant 1 -      | error EPROTO     | R 0-3 releasing 1
        """);
  }

  @Test
  void exitOfRanksNotBeingReleased_isEinvalAndChangesNothing() {
    start("0-3");
    run(
        """
        exit 0         | error EINVAL     | R 0-3 releasing
        grant - 3      |                  | R 0-3 releasing 3
        exit 2-3       | error EINVAL     | R 0-3 releasing 3
        exit 3         | release 1 3      | R 0-3 releasing 3
        released 1     |                  | R 0-2 releasing
        exit 3         | error EINVAL     | R 0-2 releasing
        """);
  }

  @Test
  void separateShrinks_areReleasedSeparately() {
    start("0-5");
    run(
        """
        grant - 4      |                  | R 0-5 releasing 4
        grant - 4-5    | error EPROTO     | R 0-5 releasing 4
        grant - 5      |                  | R 0-5 releasing 4-5
        exit 4         | release 1 4      | R 0-5 releasing 4-5
        exit 5         | release 2 5      | R 0-5 releasing 4-5
        released 2     |                  | R 0-4 releasing 4
        released 1     |                  | R 0-3 releasing
        """);
  }

  @Test
  void refusedRelease_staysAndIsSentAgainOnTheNextExit() {
    start("0-3");
    run(
        """
        grant - 2-3    |                  | R 0-3 releasing 2-3
        exit 2-3       | release 1 2-3    | R 0-3 releasing 2-3
        exit 2         |                  | R 0-3 releasing 2-3
        failed 1       |                  | R 0-3 releasing 2-3
        exit 3         | release 1 2-3    | R 0-3 releasing 2-3
        released 1     |                  | R 0-1 releasing
        """);
  }

  @Test
  void invariantsRanAfterEveryStep() {
    start("0");
    run(
        """
        grant 1 -      |                  | R 0-1 releasing
        """);
    assertThat(inv.checks()).isGreaterThanOrEqualTo(1);
  }
}
