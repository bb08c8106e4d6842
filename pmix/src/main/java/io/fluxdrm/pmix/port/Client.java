package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixProc;
import java.util.Objects;

/**
 * Who is on the other end of a {@link DvmPort}: what a PMIx server learns about a client or tool
 * when it connects (its process name, its credentials from the transport, and whether it is a tool,
 * an application process or the scheduler), never from a message (D16). A port is bound to one
 * client for its whole life; every request made through it is that client's, and PMIx adds the
 * client's {@code PMIX_USERID} and {@code PMIX_GRPID} to it (PMIx Standard v5.0,
 * PMIx_Allocation_request).
 *
 * @param proc the client's process name ({@code PMIX_TOOL_NSPACE}/{@code PMIX_TOOL_RANK} for a
 *     tool)
 * @param uid its user id, 0 to 4294967295
 * @param gid its group id, 0 to 4294967295
 * @param kind what kind of client it is
 */
public record Client(PmixProc proc, long uid, long gid, Kind kind) {
  /** Checks. */
  public Client {
    Objects.requireNonNull(proc, "proc");
    Objects.requireNonNull(kind, "kind");
    if (uid < 0 || uid > 0xFFFF_FFFFL) {
      throw new PmixException("client: uid " + uid + " (expected: 0 to 4294967295)");
    }
    if (gid < 0 || gid > 0xFFFF_FFFFL) {
      throw new PmixException("client: gid " + gid + " (expected: 0 to 4294967295)");
    }
  }

  /** The kinds of client a PMIx server tells apart. */
  public enum Kind {
    /** A tool ({@code PMIx_tool_init}): a command such as {@code sessionctrl}. */
    TOOL,
    /** A process of a job the DVM launched ({@code PMIx_Init}). */
    APPLICATION,
    /** A tool that connected with {@code PMIX_SERVER_SCHEDULER}: the attached scheduler. */
    SCHEDULER
  }
}
