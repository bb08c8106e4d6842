package io.fluxdrm.pmix.nativ;

/**
 * Keys of {@code pmix_common.h} the binding passes to libpmix that the bridge's catalog ({@link
 * io.fluxdrm.pmix.PmixKey}) does not list; checked against the headers by {@code LayoutTest}.
 */
public final class NativeKeys {
  private NativeKeys() {}

  /** {@code PMIX_SERVER_NSPACE} (string): the namespace of a server. */
  public static final String SERVER_NSPACE = "pmix.srv.nspace";

  /** {@code PMIX_SERVER_RANK} (pmix_rank_t): the rank of a server. */
  public static final String SERVER_RANK = "pmix.srv.rank";

  /** {@code PMIX_SERVER_TOOL_SUPPORT} (bool): the server accepts tool connections. */
  public static final String SERVER_TOOL_SUPPORT = "pmix.srvr.tool";

  /** {@code PMIX_CONNECT_MAX_RETRIES} (uint32): attempts of a tool to reach its server. */
  public static final String CONNECT_MAX_RETRIES = "pmix.tool.mretries";

  /** {@code PMIX_CONNECT_RETRY_DELAY} (uint32): seconds between them. */
  public static final String CONNECT_RETRY_DELAY = "pmix.tool.retry";

  /** {@code PMIX_EVENT_RETURN_OBJECT} (pointer): handed back with each event of a handler. */
  public static final String EVENT_RETURN_OBJECT = "pmix.evobject";

  /** {@code PMIX_EVENT_HDLR_NAME} (string): a handler's name. */
  public static final String EVENT_HDLR_NAME = "pmix.evname";

  /** {@code PMIX_QUERY_PROC_TABLE} (query key): the processes of a job, one proc info each. */
  public static final String QUERY_PROC_TABLE = "pmix.qry.ptable";

  /** {@code PMIX_HOSTNAME} (string): a node's name. */
  public static final String HOSTNAME = "pmix.hname";

  /** {@code PMIX_PROC_STATE_STATUS} (pmix_proc_state_t): a process's state. */
  public static final String PROC_STATE_STATUS = "pmix.proc.state";

  /**
   * Not a key of PMIx: the binding reads each {@code pmix_proc_info_t} of a proc table as an info
   * array under this name, with {@code PMIX_NSPACE}, {@code PMIX_RANK}, {@code PMIX_HOSTNAME} and
   * {@code PMIX_PROC_STATE_STATUS}.
   */
  public static final String PROC_INFO = "fluxdrm.procinfo";
}
