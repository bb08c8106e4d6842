package io.fluxdrm.pmix;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The PMIx attribute keys the bridge reads or writes, as the strings that travel in {@code
 * pmix_info_t.key} (the macro names never cross the wire), and the catalog of their data types.
 * Spelling and values are OpenPMIx's ({@code pmix_common.h}). Two later additions (openpmix #4191:
 * {@code PMIX_SPAWN_ALLOC}, {@code PMIX_ALLOC_REQ_DIRECTIVE}) have no key string yet and are not
 * here.
 *
 * <p>Why one class: it is the catalog of PMIx's attribute names, one constant per key with its
 * type, as {@code pmix_common.h} lists them in one place; splitting it would make the bridge look a
 * key up in several.
 */
public final class PmixKey {
  private PmixKey() {}

  // attributes_alloc
  /** {@code pmix.alloc.reqid}, PMIX_STRING. */
  public static final String PMIX_ALLOC_REQ_ID = "pmix.alloc.reqid";

  /** {@code pmix.alloc.id}, PMIX_STRING. */
  public static final String PMIX_ALLOC_ID = "pmix.alloc.id";

  /** {@code pmix.alloc.property}, PMIX_STRING. */
  public static final String PMIX_ALLOC_PROPERTY = "pmix.alloc.property";

  /** {@code pmix.alloc.releasable}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_RELEASABLE = "pmix.alloc.releasable";

  /** {@code pmix.alloc.nnodes}, PMIX_UINT64. */
  public static final String PMIX_ALLOC_NUM_NODES = "pmix.alloc.nnodes";

  /** {@code pmix.alloc.nlist}, PMIX_STRING. */
  public static final String PMIX_ALLOC_NODE_LIST = "pmix.alloc.nlist";

  /** {@code pmix.alloc.exclude}, PMIX_STRING. */
  public static final String PMIX_ALLOC_EXCLUDE = "pmix.alloc.exclude";

  /** {@code pmix.alloc.ncpus}, PMIX_UINT64. */
  public static final String PMIX_ALLOC_NUM_CPUS = "pmix.alloc.ncpus";

  /** {@code pmix.alloc.ncpulist}, PMIX_STRING. */
  public static final String PMIX_ALLOC_NUM_CPU_LIST = "pmix.alloc.ncpulist";

  /** {@code pmix.alloc.cpulist}, PMIX_STRING. */
  public static final String PMIX_ALLOC_CPU_LIST = "pmix.alloc.cpulist";

  /** {@code pmix.alloc.msize}, PMIX_FLOAT. */
  public static final String PMIX_ALLOC_MEM_SIZE = "pmix.alloc.msize";

  /** {@code pmix.alloc.net}, PMIX_DATA_ARRAY. */
  public static final String PMIX_ALLOC_FABRIC = "pmix.alloc.net";

  /** {@code pmix.alloc.netid}, PMIX_STRING. */
  public static final String PMIX_ALLOC_FABRIC_ID = "pmix.alloc.netid";

  /** {@code pmix.alloc.bw}, PMIX_FLOAT. */
  public static final String PMIX_ALLOC_BANDWIDTH = "pmix.alloc.bw";

  /** {@code pmix.alloc.netqos}, PMIX_STRING. */
  public static final String PMIX_ALLOC_FABRIC_QOS = "pmix.alloc.netqos";

  /** {@code pmix.alloc.time}, PMIX_STRING. */
  public static final String PMIX_ALLOC_TIME = "pmix.alloc.time";

  /** {@code pmix.alloc.wtmo}, PMIX_UINT32. */
  public static final String PMIX_ALLOC_WARN_TIMEOUT = "pmix.alloc.wtmo";

  /** {@code pmix.alloc.nettype}, PMIX_STRING. */
  public static final String PMIX_ALLOC_FABRIC_TYPE = "pmix.alloc.nettype";

  /** {@code pmix.alloc.netplane}, PMIX_STRING. */
  public static final String PMIX_ALLOC_FABRIC_PLANE = "pmix.alloc.netplane";

  /** {@code pmix.alloc.endpts}, PMIX_SIZE. */
  public static final String PMIX_ALLOC_FABRIC_ENDPTS = "pmix.alloc.endpts";

  /** {@code pmix.alloc.endpts.nd}, PMIX_SIZE. */
  public static final String PMIX_ALLOC_FABRIC_ENDPTS_NODE = "pmix.alloc.endpts.nd";

  /** {@code pmix.alloc.nsec}, PMIX_BYTE_OBJECT. */
  public static final String PMIX_ALLOC_FABRIC_SEC_KEY = "pmix.alloc.nsec";

  /** {@code pmix.alloc.queue}, PMIX_STRING. */
  public static final String PMIX_ALLOC_QUEUE = "pmix.alloc.queue";

  /** {@code pmix.alloc.preempt}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_PREEMPTIBLE = "pmix.alloc.preempt";

  /** {@code pmix.alloc.lend}, PMIX_STRING. */
  public static final String PMIX_ALLOC_LEND = "pmix.alloc.lend";

  /** {@code pmix.alloc.image}, PMIX_STRING. */
  public static final String PMIX_ALLOC_IMAGE = "pmix.alloc.image";

  /** {@code pmix.alloc.waitall}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_WAIT_ALL_NODES = "pmix.alloc.waitall";

  /** {@code pmix.alloc.share}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_SHARE = "pmix.alloc.share";

  /** {@code pmix.alloc.noshell}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_NOSHELL = "pmix.alloc.noshell";

  /** {@code pmix.alloc.depend}, PMIX_STRING. */
  public static final String PMIX_ALLOC_DEPENDENCY = "pmix.alloc.depend";

  /** {@code pmix.alloc.begin}, PMIX_STRING. */
  public static final String PMIX_ALLOC_BEGIN = "pmix.alloc.begin";

  /** {@code pmix.alloc.notwait}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_NOT_WAITING = "pmix.alloc.notwait";

  /** {@code pmix.alloc.blk}, PMIX_STRING. */
  public static final String PMIX_ALLOC_RES_BLOCK = "pmix.alloc.blk";

  /** {@code pmix.alloc.nblks}, PMIX_UINT64. */
  public static final String PMIX_ALLOC_NUM_BLOCKS = "pmix.alloc.nblks";

  /** {@code pmix.alloc.mau}, PMIX_DATA_ARRAY. */
  public static final String PMIX_ALLOC_MAU = "pmix.alloc.mau";

  /** {@code pmix.alloc.sep}, PMIX_BOOL. */
  public static final String PMIX_ALLOC_CHILD_SEP = "pmix.alloc.sep";

  /** {@code pmix.alloc.status}, PMIX_STATUS. */
  public static final String PMIX_ALLOC_STATUS = "pmix.alloc.status";

  /** {@code pmix.alloc.tgt}, PMIX_STRING. */
  public static final String PMIX_ALLOC_TARGET = "pmix.alloc.tgt";

  /** {@code pmix.alloc.inhrt}, PMIX_ALLOC_INHERIT. */
  public static final String PMIX_ALLOC_INHERITANCE = "pmix.alloc.inhrt";

  /** {@code pmix.alloc.mkind}, PMIX_STRING. */
  public static final String PMIX_MEM_ALLOC_KIND = "pmix.alloc.mkind";

  /** {@code pmix.gpu.support}, PMIX_BOOL. */
  public static final String PMIX_GPU_SUPPORT = "pmix.gpu.support";

  // attributes_session
  /** {@code pmix.session.id}, PMIX_UINT32. */
  public static final String PMIX_SESSION_ID = "pmix.session.id";

  /** {@code pmix.ssnctrl.id}, PMIX_STRING. */
  public static final String PMIX_SESSION_CTRL_ID = "pmix.ssnctrl.id";

  /** {@code pmix.ssn.inst}, PMIX_BOOL. */
  public static final String PMIX_SESSION_INSTANTIATE = "pmix.ssn.inst";

  /** {@code pmix.ssn.res}, PMIX_DATA_ARRAY. */
  public static final String PMIX_SESSION_RESOURCES = "pmix.ssn.res";

  /** {@code pmix.ssn.job}, PMIX_DATA_ARRAY. */
  public static final String PMIX_SESSION_JOB = "pmix.ssn.job";

  /** {@code pmix.ssn.app}, PMIX_DATA_ARRAY. */
  public static final String PMIX_SESSION_APP = "pmix.ssn.app";

  /** {@code pmix.ssn.pvnnds}, PMIX_STRING. */
  public static final String PMIX_SESSION_PROVISION_NODES = "pmix.ssn.pvnnds";

  /** {@code pmix.ssn.pvnimg}, PMIX_STRING. */
  public static final String PMIX_SESSION_PROVISION_IMAGE = "pmix.ssn.pvnimg";

  /** {@code pmix.ssn.pause}, PMIX_BOOL. */
  public static final String PMIX_SESSION_PAUSE = "pmix.ssn.pause";

  /** {@code pmix.ssn.resume}, PMIX_BOOL. */
  public static final String PMIX_SESSION_RESUME = "pmix.ssn.resume";

  /** {@code pmix.ssn.terminate}, PMIX_BOOL. */
  public static final String PMIX_SESSION_TERMINATE = "pmix.ssn.terminate";

  /** {@code pmix.ssn.preempt}, PMIX_BOOL. */
  public static final String PMIX_SESSION_PREEMPT = "pmix.ssn.preempt";

  /** {@code pmix.ssn.restore}, PMIX_BOOL. */
  public static final String PMIX_SESSION_RESTORE = "pmix.ssn.restore";

  /** {@code pmix.ssn.sig}, PMIX_INT. */
  public static final String PMIX_SESSION_SIGNAL = "pmix.ssn.sig";

  /** {@code pmix.ssn.sep}, PMIX_BOOL. */
  public static final String PMIX_SESSION_SEP = "pmix.ssn.sep";

  /** {@code pmix.ssn.xtend}, PMIX_BOOL. */
  public static final String PMIX_SESSION_EXTEND = "pmix.ssn.xtend";

  /** {@code pmix.ssn.complete}, PMIX_BOOL. */
  public static final String PMIX_SESSION_COMPLETE = "pmix.ssn.complete";

  /** {@code pmix.ssn.info}, PMIX_BOOL. */
  public static final String PMIX_SESSION_INFO = "pmix.ssn.info";

  /** {@code pmix.ssn.arr}, PMIX_DATA_ARRAY. */
  public static final String PMIX_SESSION_INFO_ARRAY = "pmix.ssn.arr";

  // attributes_misc
  /** {@code pmix.requestor}, PMIX_PROC. */
  public static final String PMIX_REQUESTOR = "pmix.requestor";

  /** {@code pmix.req.tool}, PMIX_BOOL. */
  public static final String PMIX_REQUESTOR_IS_TOOL = "pmix.req.tool";

  /** {@code pmix.nspace}, PMIX_STRING. */
  public static final String PMIX_NSPACE = "pmix.nspace";

  /** {@code pmix.job.term.status}, PMIX_STATUS. */
  public static final String PMIX_JOB_TERM_STATUS = "pmix.job.term.status";

  /** {@code pmix.job.arr}, PMIX_DATA_ARRAY. */
  public static final String PMIX_JOB_INFO_ARRAY = "pmix.job.arr";

  /** {@code pmix.euid}, PMIX_UINT32. */
  public static final String PMIX_USERID = "pmix.euid";

  /** {@code pmix.egid}, PMIX_UINT32. */
  public static final String PMIX_GRPID = "pmix.egid";

  /** {@code pmix.timeout}, PMIX_INT. */
  public static final String PMIX_TIMEOUT = "pmix.timeout";

  /** {@code pmix.host}, PMIX_STRING. */
  public static final String PMIX_HOST = "pmix.host";

  /** {@code pmix.hostfile}, PMIX_STRING. */
  public static final String PMIX_HOSTFILE = "pmix.hostfile";

  /** {@code pmix.addhost}, PMIX_STRING. */
  public static final String PMIX_ADD_HOST = "pmix.addhost";

  /** {@code pmix.addhostfile}, PMIX_STRING. */
  public static final String PMIX_ADD_HOSTFILE = "pmix.addhostfile";

  /** {@code pmix.nohup}, PMIX_BOOL. */
  public static final String PMIX_NOHUP = "pmix.nohup";

  /** {@code pmix.time.remaining}, PMIX_UINT32. */
  public static final String PMIX_TIME_REMAINING = "pmix.time.remaining";

  /** {@code pmix.evrange}, PMIX_DATA_ARRAY. */
  public static final String PMIX_EVENT_CUSTOM_RANGE = "pmix.evrange";

  /** {@code pmix.spwn.tgt}, PMIX_STRING or a PMIX_DATA_ARRAY. */
  public static final String PMIX_SPAWN_TARGET = "pmix.spwn.tgt";

  /** {@code pmix.spchildsep}, PMIX_BOOL. */
  public static final String PMIX_SPAWN_CHILD_SEP = "pmix.spchildsep";

  /** {@code pmix.jctrl.sep}, PMIX_BOOL. */
  public static final String PMIX_JOB_CTRL_SEP = "pmix.jctrl.sep";

  /** {@code pmix.srv.sched}, PMIX_BOOL. */
  public static final String PMIX_SERVER_SCHEDULER = "pmix.srv.sched";

  /** {@code pmix.cnct.sched}, PMIX_BOOL. */
  public static final String PMIX_CONNECT_TO_SCHEDULER = "pmix.cnct.sched";

  /** {@code pmix.srv.ctrlr}, PMIX_BOOL. */
  public static final String PMIX_SERVER_SYS_CONTROLLER = "pmix.srv.ctrlr";

  /** {@code pmix.cnct.ctrlr}, PMIX_BOOL. */
  public static final String PMIX_CONNECT_TO_SYS_CONTROLLER = "pmix.cnct.ctrlr";

  /** {@code pmix.tool.conopt}, PMIX_BOOL. */
  public static final String PMIX_TOOL_CONNECT_OPTIONAL = "pmix.tool.conopt";

  /** {@code pmix.tool.nspace}, PMIX_STRING. */
  public static final String PMIX_TOOL_NSPACE = "pmix.tool.nspace";

  /** {@code pmix.tool.rank}, PMIX_UINT32. */
  public static final String PMIX_TOOL_RANK = "pmix.tool.rank";

  /** {@code pmix.srvr.pidinfo}, PMIX_PID. */
  public static final String PMIX_SERVER_PIDINFO = "pmix.srvr.pidinfo";

  /** {@code pmix.srvr.uri}, PMIX_STRING. */
  public static final String PMIX_SERVER_URI = "pmix.srvr.uri";

  /** {@code pmix.srvr.remote}, PMIX_BOOL. */
  public static final String PMIX_SERVER_REMOTE_CONNECTIONS = "pmix.srvr.remote";

  /** {@code pmix.pri.srvr}, PMIX_BOOL. */
  public static final String PMIX_PRIMARY_SERVER = "pmix.pri.srvr";

  /** {@code pmix.sys.tmpdir}, PMIX_STRING. */
  public static final String PMIX_SYSTEM_TMPDIR = "pmix.sys.tmpdir";

  /** {@code pmix.cnct.ord}, PMIX_STRING. */
  public static final String PMIX_CONNECTION_ORDER = "pmix.cnct.ord";

  /** {@code pmix.notecomp}, PMIX_BOOL. */
  public static final String PMIX_NOTIFY_COMPLETION = "pmix.notecomp";

  /** {@code pmix.query.alloc}, PMIX_STRING. */
  public static final String PMIX_QUERY_ALLOC_STATUS = "pmix.query.alloc";

  /** {@code pmix.query.alloc.ids}, PMIX_DATA_ARRAY. */
  public static final String PMIX_QUERY_ALLOC_IDS = "pmix.query.alloc.ids";

  /** {@code pmix.query.alloc.prop}, PMIX_DATA_ARRAY. */
  public static final String PMIX_QUERY_ALLOC_PROPERTIES = "pmix.query.alloc.prop";

  /** {@code pmix.alist}, PMIX_STRING. */
  public static final String PMIX_ALLOCATED_NODELIST = "pmix.alist";

  /** {@code pmix.nlist}, PMIX_STRING. */
  public static final String PMIX_NODE_LIST = "pmix.nlist";

  /** {@code pmix.rank}, PMIX_PROC_RANK. */
  public static final String PMIX_RANK = "pmix.rank";

  /** {@code pmix.hname}, PMIX_STRING. */
  public static final String PMIX_HOSTNAME = "pmix.hname";

  /** {@code pmix.mapby}, PMIX_STRING. */
  public static final String PMIX_MAPBY = "pmix.mapby";

  /** {@code pmix.pers}, PMIX_STRING. */
  public static final String PMIX_PERSONALITY = "pmix.pers";

  /** {@code pmix.univ.size}, PMIX_UINT32. */
  public static final String PMIX_UNIV_SIZE = "pmix.univ.size";

  private record Spec(String name, PmixDataType type, Set<PmixDataType> accepted) {}

  private static final Map<String, Spec> CATALOG = new LinkedHashMap<>();

  private static void def(String key, String name, PmixDataType type, PmixDataType... alternates) {
    Set<PmixDataType> accepted = EnumSet.of(type, alternates);
    CATALOG.put(key, new Spec(name, type, Collections.unmodifiableSet(accepted)));
  }

  static {
    def(PMIX_ALLOC_REQ_ID, "PMIX_ALLOC_REQ_ID", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_ID, "PMIX_ALLOC_ID", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_PROPERTY, "PMIX_ALLOC_PROPERTY", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_RELEASABLE, "PMIX_ALLOC_RELEASABLE", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_NUM_NODES, "PMIX_ALLOC_NUM_NODES", PmixDataType.PMIX_UINT64);
    def(
        PMIX_ALLOC_NODE_LIST,
        "PMIX_ALLOC_NODE_LIST",
        PmixDataType.PMIX_STRING,
        PmixDataType.PMIX_REGEX2,
        PmixDataType.PMIX_REGEX);
    def(PMIX_ALLOC_EXCLUDE, "PMIX_ALLOC_EXCLUDE", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_NUM_CPUS, "PMIX_ALLOC_NUM_CPUS", PmixDataType.PMIX_UINT64);
    def(PMIX_ALLOC_NUM_CPU_LIST, "PMIX_ALLOC_NUM_CPU_LIST", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_CPU_LIST, "PMIX_ALLOC_CPU_LIST", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_MEM_SIZE, "PMIX_ALLOC_MEM_SIZE", PmixDataType.PMIX_FLOAT);
    def(PMIX_ALLOC_FABRIC, "PMIX_ALLOC_FABRIC", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_ALLOC_FABRIC_ID, "PMIX_ALLOC_FABRIC_ID", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_BANDWIDTH, "PMIX_ALLOC_BANDWIDTH", PmixDataType.PMIX_FLOAT);
    def(PMIX_ALLOC_FABRIC_QOS, "PMIX_ALLOC_FABRIC_QOS", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_TIME, "PMIX_ALLOC_TIME", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_WARN_TIMEOUT, "PMIX_ALLOC_WARN_TIMEOUT", PmixDataType.PMIX_UINT32);
    def(PMIX_ALLOC_FABRIC_TYPE, "PMIX_ALLOC_FABRIC_TYPE", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_FABRIC_PLANE, "PMIX_ALLOC_FABRIC_PLANE", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_FABRIC_ENDPTS, "PMIX_ALLOC_FABRIC_ENDPTS", PmixDataType.PMIX_SIZE);
    def(PMIX_ALLOC_FABRIC_ENDPTS_NODE, "PMIX_ALLOC_FABRIC_ENDPTS_NODE", PmixDataType.PMIX_SIZE);
    def(PMIX_ALLOC_FABRIC_SEC_KEY, "PMIX_ALLOC_FABRIC_SEC_KEY", PmixDataType.PMIX_BYTE_OBJECT);
    def(PMIX_ALLOC_QUEUE, "PMIX_ALLOC_QUEUE", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_PREEMPTIBLE, "PMIX_ALLOC_PREEMPTIBLE", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_LEND, "PMIX_ALLOC_LEND", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_IMAGE, "PMIX_ALLOC_IMAGE", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_WAIT_ALL_NODES, "PMIX_ALLOC_WAIT_ALL_NODES", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_SHARE, "PMIX_ALLOC_SHARE", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_NOSHELL, "PMIX_ALLOC_NOSHELL", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_DEPENDENCY, "PMIX_ALLOC_DEPENDENCY", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_BEGIN, "PMIX_ALLOC_BEGIN", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_NOT_WAITING, "PMIX_ALLOC_NOT_WAITING", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_RES_BLOCK, "PMIX_ALLOC_RES_BLOCK", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_NUM_BLOCKS, "PMIX_ALLOC_NUM_BLOCKS", PmixDataType.PMIX_UINT64);
    def(PMIX_ALLOC_MAU, "PMIX_ALLOC_MAU", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_ALLOC_CHILD_SEP, "PMIX_ALLOC_CHILD_SEP", PmixDataType.PMIX_BOOL);
    def(PMIX_ALLOC_STATUS, "PMIX_ALLOC_STATUS", PmixDataType.PMIX_STATUS);
    def(PMIX_ALLOC_TARGET, "PMIX_ALLOC_TARGET", PmixDataType.PMIX_STRING);
    def(PMIX_ALLOC_INHERITANCE, "PMIX_ALLOC_INHERITANCE", PmixDataType.PMIX_ALLOC_INHERIT);
    def(PMIX_MEM_ALLOC_KIND, "PMIX_MEM_ALLOC_KIND", PmixDataType.PMIX_STRING);
    def(PMIX_GPU_SUPPORT, "PMIX_GPU_SUPPORT", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_ID, "PMIX_SESSION_ID", PmixDataType.PMIX_UINT32);
    def(PMIX_SESSION_CTRL_ID, "PMIX_SESSION_CTRL_ID", PmixDataType.PMIX_STRING);
    def(PMIX_SESSION_INSTANTIATE, "PMIX_SESSION_INSTANTIATE", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_RESOURCES, "PMIX_SESSION_RESOURCES", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_SESSION_JOB, "PMIX_SESSION_JOB", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_SESSION_APP, "PMIX_SESSION_APP", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_SESSION_PROVISION_NODES, "PMIX_SESSION_PROVISION_NODES", PmixDataType.PMIX_STRING);
    def(PMIX_SESSION_PROVISION_IMAGE, "PMIX_SESSION_PROVISION_IMAGE", PmixDataType.PMIX_STRING);
    def(PMIX_SESSION_PAUSE, "PMIX_SESSION_PAUSE", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_RESUME, "PMIX_SESSION_RESUME", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_TERMINATE, "PMIX_SESSION_TERMINATE", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_PREEMPT, "PMIX_SESSION_PREEMPT", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_RESTORE, "PMIX_SESSION_RESTORE", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_SIGNAL, "PMIX_SESSION_SIGNAL", PmixDataType.PMIX_INT);
    def(PMIX_SESSION_SEP, "PMIX_SESSION_SEP", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_EXTEND, "PMIX_SESSION_EXTEND", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_COMPLETE, "PMIX_SESSION_COMPLETE", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_INFO, "PMIX_SESSION_INFO", PmixDataType.PMIX_BOOL);
    def(PMIX_SESSION_INFO_ARRAY, "PMIX_SESSION_INFO_ARRAY", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_REQUESTOR, "PMIX_REQUESTOR", PmixDataType.PMIX_PROC);
    def(PMIX_REQUESTOR_IS_TOOL, "PMIX_REQUESTOR_IS_TOOL", PmixDataType.PMIX_BOOL);
    def(PMIX_NSPACE, "PMIX_NSPACE", PmixDataType.PMIX_STRING);
    def(PMIX_JOB_TERM_STATUS, "PMIX_JOB_TERM_STATUS", PmixDataType.PMIX_STATUS);
    def(PMIX_JOB_INFO_ARRAY, "PMIX_JOB_INFO_ARRAY", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_USERID, "PMIX_USERID", PmixDataType.PMIX_UINT32);
    def(PMIX_GRPID, "PMIX_GRPID", PmixDataType.PMIX_UINT32);
    def(PMIX_TIMEOUT, "PMIX_TIMEOUT", PmixDataType.PMIX_INT);
    def(PMIX_HOST, "PMIX_HOST", PmixDataType.PMIX_STRING);
    def(PMIX_HOSTFILE, "PMIX_HOSTFILE", PmixDataType.PMIX_STRING);
    def(PMIX_ADD_HOST, "PMIX_ADD_HOST", PmixDataType.PMIX_STRING);
    def(PMIX_ADD_HOSTFILE, "PMIX_ADD_HOSTFILE", PmixDataType.PMIX_STRING);
    def(PMIX_NOHUP, "PMIX_NOHUP", PmixDataType.PMIX_BOOL);
    def(PMIX_TIME_REMAINING, "PMIX_TIME_REMAINING", PmixDataType.PMIX_UINT32);
    def(PMIX_EVENT_CUSTOM_RANGE, "PMIX_EVENT_CUSTOM_RANGE", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_SPAWN_CHILD_SEP, "PMIX_SPAWN_CHILD_SEP", PmixDataType.PMIX_BOOL);
    def(PMIX_JOB_CTRL_SEP, "PMIX_JOB_CTRL_SEP", PmixDataType.PMIX_BOOL);
    def(PMIX_SERVER_SCHEDULER, "PMIX_SERVER_SCHEDULER", PmixDataType.PMIX_BOOL);
    def(PMIX_CONNECT_TO_SCHEDULER, "PMIX_CONNECT_TO_SCHEDULER", PmixDataType.PMIX_BOOL);
    def(PMIX_SERVER_SYS_CONTROLLER, "PMIX_SERVER_SYS_CONTROLLER", PmixDataType.PMIX_BOOL);
    def(PMIX_CONNECT_TO_SYS_CONTROLLER, "PMIX_CONNECT_TO_SYS_CONTROLLER", PmixDataType.PMIX_BOOL);
    def(PMIX_TOOL_CONNECT_OPTIONAL, "PMIX_TOOL_CONNECT_OPTIONAL", PmixDataType.PMIX_BOOL);
    def(PMIX_TOOL_NSPACE, "PMIX_TOOL_NSPACE", PmixDataType.PMIX_STRING);
    def(PMIX_TOOL_RANK, "PMIX_TOOL_RANK", PmixDataType.PMIX_UINT32);
    def(PMIX_SERVER_PIDINFO, "PMIX_SERVER_PIDINFO", PmixDataType.PMIX_PID);
    def(PMIX_SERVER_URI, "PMIX_SERVER_URI", PmixDataType.PMIX_STRING);
    def(PMIX_SERVER_REMOTE_CONNECTIONS, "PMIX_SERVER_REMOTE_CONNECTIONS", PmixDataType.PMIX_BOOL);
    def(PMIX_PRIMARY_SERVER, "PMIX_PRIMARY_SERVER", PmixDataType.PMIX_BOOL);
    def(PMIX_SYSTEM_TMPDIR, "PMIX_SYSTEM_TMPDIR", PmixDataType.PMIX_STRING);
    def(PMIX_CONNECTION_ORDER, "PMIX_CONNECTION_ORDER", PmixDataType.PMIX_STRING);
    def(PMIX_NOTIFY_COMPLETION, "PMIX_NOTIFY_COMPLETION", PmixDataType.PMIX_BOOL);
    def(PMIX_QUERY_ALLOC_STATUS, "PMIX_QUERY_ALLOC_STATUS", PmixDataType.PMIX_STRING);
    def(PMIX_QUERY_ALLOC_IDS, "PMIX_QUERY_ALLOC_IDS", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_QUERY_ALLOC_PROPERTIES, "PMIX_QUERY_ALLOC_PROPERTIES", PmixDataType.PMIX_DATA_ARRAY);
    def(PMIX_ALLOCATED_NODELIST, "PMIX_ALLOCATED_NODELIST", PmixDataType.PMIX_STRING);
    def(PMIX_NODE_LIST, "PMIX_NODE_LIST", PmixDataType.PMIX_STRING);
    def(PMIX_RANK, "PMIX_RANK", PmixDataType.PMIX_PROC_RANK);
    def(PMIX_HOSTNAME, "PMIX_HOSTNAME", PmixDataType.PMIX_STRING);
    def(PMIX_MAPBY, "PMIX_MAPBY", PmixDataType.PMIX_STRING);
    def(PMIX_PERSONALITY, "PMIX_PERSONALITY", PmixDataType.PMIX_STRING);
    def(PMIX_UNIV_SIZE, "PMIX_UNIV_SIZE", PmixDataType.PMIX_UINT32);
    def(
        PMIX_SPAWN_TARGET,
        "PMIX_SPAWN_TARGET",
        PmixDataType.PMIX_STRING,
        PmixDataType.PMIX_DATA_ARRAY);
  }

  /**
   * Whether the key is in the catalog.
   *
   * @param key a key string
   * @return true for a key listed here
   */
  public static boolean isKnown(String key) {
    return CATALOG.containsKey(key);
  }

  /**
   * The data type a value of this key has.
   *
   * @param key a key string
   * @return its type, or empty for a key not in the catalog
   */
  public static Optional<PmixDataType> typeOf(String key) {
    Spec s = CATALOG.get(key);
    return s == null ? Optional.empty() : Optional.of(s.type());
  }

  /**
   * Every data type a value of this key may have: its own, plus the forms PRRTE also reads (a node
   * list as {@code PMIX_REGEX2} or {@code PMIX_REGEX}; a spawn target as a data array).
   *
   * @param key a key string
   * @return the types, empty for a key not in the catalog
   */
  public static Set<PmixDataType> acceptedTypes(String key) {
    Spec s = CATALOG.get(key);
    return s == null ? Set.of() : s.accepted();
  }

  /**
   * The macro name of a key, e.g. {@code PMIX_ALLOC_NUM_NODES} for {@code pmix.alloc.nnodes}.
   *
   * @param key a key string
   * @return the name, or empty for a key not in the catalog
   */
  public static Optional<String> nameOf(String key) {
    Spec s = CATALOG.get(key);
    return s == null ? Optional.empty() : Optional.of(s.name());
  }

  /** Every key of the catalog, by macro name, in catalog order. */
  public static Map<String, String> byName() {
    Map<String, String> out = new LinkedHashMap<>();
    CATALOG.forEach((k, s) -> out.put(s.name(), k));
    return Collections.unmodifiableMap(out);
  }
}
