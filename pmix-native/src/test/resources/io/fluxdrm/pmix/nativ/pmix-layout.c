/* Prints, one "name value" per line, the sizes and offsets of the libpmix structures the Java
 * binding (io.fluxdrm.pmix.nativ.Layouts) lays out by hand, and the values of the constants and
 * key strings it uses, as the installed headers define them. LayoutTest compiles it against the
 * headers under test and compares every line with the binding. */
#include <stddef.h>
#include <stdio.h>
#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

#define SIZE(t) printf("sizeof.%s %zu\n", #t, sizeof(t))
#define OFF(t, f) printf("offsetof.%s.%s %zu\n", #t, #f, offsetof(t, f))
#define INT(c) printf("const.%s %ld\n", #c, (long) (c))
#define KEY(k) printf("key.%s %s\n", #k, k)

int main(void)
{
    SIZE(pmix_proc_t);
    OFF(pmix_proc_t, nspace);
    OFF(pmix_proc_t, rank);
    SIZE(pmix_value_t);
    OFF(pmix_value_t, type);
    OFF(pmix_value_t, data);
    SIZE(pmix_info_t);
    OFF(pmix_info_t, key);
    OFF(pmix_info_t, flags);
    OFF(pmix_info_t, value);
    SIZE(pmix_data_array_t);
    OFF(pmix_data_array_t, type);
    OFF(pmix_data_array_t, size);
    OFF(pmix_data_array_t, array);
    SIZE(pmix_byte_object_t);
    OFF(pmix_byte_object_t, bytes);
    OFF(pmix_byte_object_t, size);
    SIZE(pmix_regex2_t);
    OFF(pmix_regex2_t, type);
    OFF(pmix_regex2_t, bytes);
    OFF(pmix_regex2_t, len);
    SIZE(pmix_app_t);
    OFF(pmix_app_t, cmd);
    OFF(pmix_app_t, argv);
    OFF(pmix_app_t, env);
    OFF(pmix_app_t, cwd);
    OFF(pmix_app_t, maxprocs);
    OFF(pmix_app_t, info);
    OFF(pmix_app_t, ninfo);
    SIZE(pmix_proc_info_t);
    OFF(pmix_proc_info_t, proc);
    OFF(pmix_proc_info_t, hostname);
    OFF(pmix_proc_info_t, executable_name);
    OFF(pmix_proc_info_t, pid);
    OFF(pmix_proc_info_t, exit_code);
    OFF(pmix_proc_info_t, state);
    SIZE(pmix_query_t);
    OFF(pmix_query_t, keys);
    OFF(pmix_query_t, qualifiers);
    OFF(pmix_query_t, nqual);
    SIZE(pmix_server_module_t);
    OFF(pmix_server_module_t, allocate);
    OFF(pmix_server_module_t, session_control);
    SIZE(pmix_status_t);
    SIZE(pmix_data_type_t);
    SIZE(pmix_rank_t);
    SIZE(pmix_alloc_directive_t);
    SIZE(pmix_info_directives_t);
    SIZE(pmix_data_range_t);
    SIZE(pmix_alloc_inheritance_t);
    SIZE(bool);
    SIZE(size_t);
    SIZE(pid_t);
    SIZE(time_t);
    INT(PMIX_MAX_NSLEN);
    INT(PMIX_MAX_KEYLEN);
    INT(PMIX_SUCCESS);
    INT(PMIX_ERROR);
    INT(PMIX_ERR_BAD_PARAM);
    INT(PMIX_ERR_NOT_SUPPORTED);
    INT(PMIX_ERR_NOT_FOUND);
    INT(PMIX_ERR_UNREACH);
    INT(PMIX_ERR_TIMEOUT);
    INT(PMIX_ERR_OUT_OF_RESOURCE);
    INT(PMIX_OPERATION_SUCCEEDED);
    INT(PMIX_EVENT_ACTION_COMPLETE);
    INT(PMIX_DVM_IS_READY);
    INT(PMIX_ERR_DVM_MOD);
    INT(PMIX_BOOL);
    INT(PMIX_BYTE);
    INT(PMIX_STRING);
    INT(PMIX_SIZE);
    INT(PMIX_PID);
    INT(PMIX_INT);
    INT(PMIX_INT8);
    INT(PMIX_INT16);
    INT(PMIX_INT32);
    INT(PMIX_INT64);
    INT(PMIX_UINT);
    INT(PMIX_UINT8);
    INT(PMIX_UINT16);
    INT(PMIX_UINT32);
    INT(PMIX_UINT64);
    INT(PMIX_FLOAT);
    INT(PMIX_DOUBLE);
    INT(PMIX_TIME);
    INT(PMIX_STATUS);
    INT(PMIX_PROC);
    INT(PMIX_APP);
    INT(PMIX_INFO);
    INT(PMIX_BYTE_OBJECT);
    INT(PMIX_POINTER);
    INT(PMIX_DATA_RANGE);
    INT(PMIX_DATA_ARRAY);
    INT(PMIX_PROC_RANK);
    INT(PMIX_ALLOC_DIRECTIVE);
    INT(PMIX_ALLOC_INHERIT);
    INT(PMIX_REGEX);
    INT(PMIX_REGEX2);
    INT(PMIX_RANGE_CUSTOM);
    INT(PMIX_PROC_INFO);
    INT(PMIX_PROC_STATE_RUNNING);
    INT(PMIX_PROC_STATE_CONNECTED);
    INT(PMIX_ALLOC_NEW);
    INT(PMIX_ALLOC_EXTEND);
    INT(PMIX_ALLOC_RELEASE);
    INT(PMIX_RANK_WILDCARD);
    KEY(PMIX_SERVER_SCHEDULER);
    KEY(PMIX_SERVER_NSPACE);
    KEY(PMIX_SERVER_RANK);
    KEY(PMIX_SERVER_TOOL_SUPPORT);
    KEY(PMIX_SERVER_URI);
    KEY(PMIX_TOOL_NSPACE);
    KEY(PMIX_TOOL_RANK);
    KEY(PMIX_TIMEOUT);
    KEY(PMIX_CONNECT_MAX_RETRIES);
    KEY(PMIX_CONNECT_RETRY_DELAY);
    KEY(PMIX_EVENT_RETURN_OBJECT);
    KEY(PMIX_EVENT_CUSTOM_RANGE);
    KEY(PMIX_EVENT_HDLR_NAME);
    KEY(PMIX_REQUESTOR);
    KEY(PMIX_ALLOC_ID);
    KEY(PMIX_ALLOC_NODE_LIST);
    KEY(PMIX_ALLOC_NUM_NODES);
    KEY(PMIX_ALLOC_REQ_ID);
    KEY(PMIX_SESSION_INSTANTIATE);
    KEY(PMIX_SESSION_COMPLETE);
    KEY(PMIX_SESSION_TERMINATE);
    KEY(PMIX_SESSION_ID);
    KEY(PMIX_QUERY_PROC_TABLE);
    KEY(PMIX_NSPACE);
    KEY(PMIX_RANK);
    KEY(PMIX_HOSTNAME);
    KEY(PMIX_PROC_STATE_STATUS);
    return 0;
}
