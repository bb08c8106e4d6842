/*
 * An application process as a PMIx requester, for the ITs of docs/prrte.md "Applications":
 * launched inside the DVM (prun, or PMIx_Spawn by another copy of itself), its rank 0 runs the
 * steps of its command line in order and prints one line per step on stdout:
 *
 *   APP <depth> <STEP> <status name> [key=value ...]
 *
 * Steps (values in one word each):
 *   extend cpus=N | nodes=N | nlist=HOSTS [id=ALLOC]   PMIx_Allocation_request(EXTEND, ...)
 *   new    cpus=N | nodes=N | nlist=HOSTS               PMIx_Allocation_request(NEW, ...)
 *          (on new and extend, the word ready=no: do not wait for the second phase, and
 *          owner=NSPACE: PMIX_ALLOC_TARGET, the namespace the allocation is for)
 *   release nlist=HOSTS | id=ALLOC                       PMIx_Allocation_request(RELEASE, ...)
 *   spawn  np=N [id=ALLOC | target=ALLOC] -- CHILD-ARGS...
 *          PMIx_Spawn of this program with CHILD-ARGS (and $APP_OUT, $APP_STEP_TIMEOUT), into
 *          that allocation; every remaining word is the child's
 *
 * ALLOC "last" is the alloc id of this process's newest successful new; HOSTS "last1" is the first
 * host of the node list of its newest successful new or extend; in CHILD-ARGS a word
 * ending in "=^" gets this process's "last" in place of the "^", and one ending in "=^^" (for the
 * grandchild) loses one "^".
 *
 * After a successful new, extend or release the process waits for the second phase, the event
 * PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD, and prints "APP <depth> READY <event>". After a
 * successful spawn it waits for the child job's end (PMIX_NOTIFY_COMPLETION), "APP <depth>
 * CHILD-END seen": a reservation lives as long as its owner.
 *   where                                                the node each rank runs on
 *   pause S                                              sleep S seconds
 *
 * Every rank writes "<nspace> <rank> <host>" to $APP_OUT/<nspace>.<rank> (when set), so that a
 * test can see where each job ran without relying on output forwarding. Each call is bounded by
 * $APP_STEP_TIMEOUT seconds (default 90): a call that does not return prints
 * "APP <depth> <STEP> TIMEOUT" and the process exits 3.
 */
#define _GNU_SOURCE
#include <pmix.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t me;
static int depth;
static const char *current = "INIT";
static char last_id[256] = "";
static char last_host[256] = "";
static pthread_mutex_t evlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t evcond = PTHREAD_COND_INITIALIZER;
static int evcount;
static pmix_status_t evcode;
static int ends;

static void on_end(size_t id, pmix_status_t status, const pmix_proc_t *source,
                   pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id;
    (void) status;
    (void) source;
    (void) info;
    (void) ninfo;
    (void) results;
    (void) nresults;
    pthread_mutex_lock(&evlock);
    ends++;
    pthread_cond_broadcast(&evcond);
    pthread_mutex_unlock(&evlock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id;
    (void) source;
    (void) info;
    (void) ninfo;
    (void) results;
    (void) nresults;
    pthread_mutex_lock(&evlock);
    evcount++;
    evcode = status;
    pthread_cond_broadcast(&evcond);
    pthread_mutex_unlock(&evlock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* waits for the second phase, the seen-th event (PRRTE's PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD,
 * or fluxdrm's relay of one), within the step timeout */
static void await_ready(int seen)
{
    const char *t = getenv("APP_STEP_TIMEOUT");
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += NULL == t ? 90 : atoi(t);
    pthread_mutex_lock(&evlock);
    while (evcount <= seen && 0 == pthread_cond_timedwait(&evcond, &evlock, &until)) {
    }
    if (evcount > seen) {
        printf("APP %d READY %s\n", depth, PMIx_Error_string(evcode));
    } else {
        printf("APP %d READY TIMEOUT\n", depth);
    }
    pthread_mutex_unlock(&evlock);
    fflush(stdout);
}

static void on_alarm(int sig)
{
    char line[128];
    int n = snprintf(line, sizeof line, "APP %d %s TIMEOUT\n", depth, current);
    (void) sig;
    if (n > 0) {
        (void) !write(1, line, (size_t) n);
    }
    _exit(3);
}

static void arm(const char *step)
{
    const char *t = getenv("APP_STEP_TIMEOUT");
    current = step;
    alarm(NULL == t ? 90 : (unsigned) atoi(t));
}

static void print_results(const char *step, pmix_status_t rc, pmix_info_t *info, size_t n)
{
    size_t i;
    printf("APP %d %s %s", depth, step, PMIx_Error_string(rc));
    for (i = 0; i < n; i++) {
        if (PMIX_STRING == info[i].value.type) {
            printf(" %s=%s", info[i].key, info[i].value.data.string);
            if (0 == strcmp(info[i].key, PMIX_ALLOC_ID) && PMIX_SUCCESS == rc &&
                0 == strcmp(step, "NEW")) {
                snprintf(last_id, sizeof last_id, "%s", info[i].value.data.string);
            }
            if (0 == strcmp(info[i].key, PMIX_ALLOC_NODE_LIST) && PMIX_SUCCESS == rc &&
                0 != strcmp(step, "RELEASE")) {
                snprintf(last_host, sizeof last_host, "%.*s",
                         (int) strcspn(info[i].value.data.string, ":,"),
                         info[i].value.data.string);
            }
        } else {
            printf(" %s=(type %d)", info[i].key, (int) info[i].value.type);
        }
    }
    printf("\n");
    fflush(stdout);
}

/* the allocation request of one step: "cpus=N", "nodes=N", "nlist=H", "id=A" words */
static int allocate(pmix_alloc_directive_t dir, const char *step, char **words, int nwords)
{
    pmix_info_t info[4];
    size_t n = 0, nres = 0;
    pmix_info_t *res = NULL;
    pmix_status_t rc;
    int i, seen, wait = 1;
    for (i = 0; i < nwords && n < 4; i++) {
        char *v = strchr(words[i], '=');
        uint64_t u;
        if (NULL == v) {
            fprintf(stderr, "app-requester: %s: %s (expected: key=value)\n", step, words[i]);
            return 2;
        }
        v++;
        if (0 == strncmp(words[i], "cpus=", 5)) {
            u = strtoull(v, NULL, 10);
            PMIX_INFO_LOAD(&info[n++], PMIX_ALLOC_NUM_CPUS, &u, PMIX_UINT64);
        } else if (0 == strncmp(words[i], "nodes=", 6)) {
            u = strtoull(v, NULL, 10);
            PMIX_INFO_LOAD(&info[n++], PMIX_ALLOC_NUM_NODES, &u, PMIX_UINT64);
        } else if (0 == strncmp(words[i], "nlist=", 6)) {
            PMIX_INFO_LOAD(&info[n++], PMIX_ALLOC_NODE_LIST, 0 == strcmp(v, "last1") ? last_host : v,
                           PMIX_STRING);
        } else if (0 == strncmp(words[i], "id=", 3)) {
            PMIX_INFO_LOAD(&info[n++], PMIX_ALLOC_ID, 0 == strcmp(v, "last") ? last_id : v,
                           PMIX_STRING);
        } else if (0 == strncmp(words[i], "owner=", 6)) {
            PMIX_INFO_LOAD(&info[n++], PMIX_ALLOC_TARGET, v, PMIX_STRING);
        } else if (0 == strcmp(words[i], "ready=no")) {
            wait = 0;
        } else {
            fprintf(stderr, "app-requester: %s: unknown word %s\n", step, words[i]);
            return 2;
        }
    }
    pthread_mutex_lock(&evlock);
    seen = evcount;
    pthread_mutex_unlock(&evlock);
    arm(step);
    rc = PMIx_Allocation_request(dir, info, n, &res, &nres);
    alarm(0);
    print_results(step, rc, res, nres);
    if (PMIX_SUCCESS == rc && wait) {
        await_ready(seen);
    }
    if (NULL != res) {
        PMIX_INFO_FREE(res, nres);
    }
    return 0;
}

static int spawn(char *self, char **words, int nwords)
{
    pmix_app_t app;
    pmix_info_t jinfo[3];
    bool yes = true;
    int before;
    size_t nj = 0;
    pmix_nspace_t child;
    pmix_status_t rc;
    int i, nenv, np = 1, rest = nwords;
    char d[16];
    for (i = 0; i < nwords; i++) {
        char *v = strchr(words[i], '=');
        if (0 == strcmp(words[i], "--")) {
            rest = i + 1;
            break;
        }
        if (NULL == v) {
            fprintf(stderr, "app-requester: SPAWN: %s (expected: key=value or --)\n", words[i]);
            return 2;
        }
        v++;
        if (0 == strncmp(words[i], "np=", 3)) {
            np = atoi(v);
        } else if (0 == strncmp(words[i], "id=", 3)) {
            PMIX_INFO_LOAD(&jinfo[nj++], PMIX_ALLOC_ID, 0 == strcmp(v, "last") ? last_id : v,
                           PMIX_STRING);
        } else if (0 == strncmp(words[i], "target=", 7)) {
            PMIX_INFO_LOAD(&jinfo[nj++], PMIX_SPAWN_TARGET, 0 == strcmp(v, "last") ? last_id : v,
                           PMIX_STRING);
        } else {
            fprintf(stderr, "app-requester: SPAWN: unknown word %s\n", words[i]);
            return 2;
        }
    }
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(self);
    app.maxprocs = np;
    app.argv = calloc((size_t) (nwords - rest) + 3, sizeof(char *));
    app.argv[0] = strdup(self);
    snprintf(d, sizeof d, "%d", depth + 1);
    app.argv[1] = strdup(d);
    for (i = rest; i < nwords; i++) {
        size_t len = strlen(words[i]);
        if (len >= 2 && 0 == strcmp(words[i] + len - 2, "=^")) {
            char *w = NULL;
            if (0 > asprintf(&w, "%.*s%s", (int) (len - 1), words[i], last_id)) {
                return 2;
            }
            app.argv[2 + i - rest] = w;
        } else if (len >= 3 && 0 == strcmp(words[i] + len - 3, "=^^")) {
            app.argv[2 + i - rest] = strndup(words[i], len - 1);
        } else {
            app.argv[2 + i - rest] = strdup(words[i]);
        }
    }
    app.env = calloc(3, sizeof(char *));
    for (i = 0, nenv = 0; i < 2; i++) {
        const char *name = 0 == i ? "APP_OUT" : "APP_STEP_TIMEOUT";
        const char *v = getenv(name);
        if (NULL != v && 0 > asprintf(&app.env[nenv++], "%s=%s", name, v)) {
            return 2;
        }
    }
    app.cwd = get_current_dir_name();
    /* the parent stays until its child job ended: its reservations live as long as it does */
    PMIX_INFO_LOAD(&jinfo[nj++], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    pthread_mutex_lock(&evlock);
    before = ends;
    pthread_mutex_unlock(&evlock);
    arm("SPAWN");
    rc = PMIx_Spawn(jinfo, nj, &app, 1, child);
    alarm(0);
    printf("APP %d SPAWN %s", depth, PMIx_Error_string(rc));
    if (PMIX_SUCCESS == rc) {
        printf(" nspace=%s", child);
    }
    printf("\n");
    fflush(stdout);
    PMIX_APP_DESTRUCT(&app);
    if (PMIX_SUCCESS == rc) {
        struct timespec until;
        const char *t = getenv("APP_STEP_TIMEOUT");
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += NULL == t ? 90 : atoi(t);
        pthread_mutex_lock(&evlock);
        while (ends <= before && 0 == pthread_cond_timedwait(&evcond, &evlock, &until)) {
        }
        printf("APP %d CHILD-END %s\n", depth, ends > before ? "seen" : "TIMEOUT");
        pthread_mutex_unlock(&evlock);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    pmix_status_t rc;
    char host[256] = "";
    const char *out = getenv("APP_OUT");
    int i, start;

    /* argv[1]: the depth (0 for the job prun starts); the steps follow */
    depth = argc > 1 ? atoi(argv[1]) : 0;
    signal(SIGALRM, on_alarm);
    arm("INIT");
    rc = PMIx_Init(&me, NULL, 0);
    alarm(0);
    if (PMIX_SUCCESS != rc) {
        printf("APP %d INIT %s\n", depth, PMIx_Error_string(rc));
        return 1;
    }
    if (0 == me.rank) {
        pmix_status_t codes[2] = {PMIX_DVM_IS_READY, PMIX_ERR_DVM_MOD};
        pmix_status_t end = PMIX_EVENT_JOB_END;
        PMIx_Register_event_handler(codes, 2, NULL, 0, on_event, NULL, NULL);
        PMIx_Register_event_handler(&end, 1, NULL, 0, on_end, NULL, NULL);
    }
    gethostname(host, sizeof host - 1);
    if (NULL != out) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof path, "%s/%s.%u", out, me.nspace, me.rank);
        f = fopen(path, "w");
        if (NULL != f) {
            fprintf(f, "%s %u %s %d\n", me.nspace, me.rank, host, depth);
            fclose(f);
        }
    }
    if (0 == me.rank) {
        for (i = 2; i < argc;) {
            char *step = argv[i];
            start = ++i;
            if (0 == strcmp(step, "spawn")) {
                spawn(argv[0], &argv[start], argc - start);
                break; /* the rest of the line was the child's */
            }
            while (i < argc && NULL != strchr(argv[i], '=')) {
                i++;
            }
            if (0 == strcmp(step, "extend")) {
                allocate(PMIX_ALLOC_EXTEND, "EXTEND", &argv[start], i - start);
            } else if (0 == strcmp(step, "new")) {
                allocate(PMIX_ALLOC_NEW, "NEW", &argv[start], i - start);
            } else if (0 == strcmp(step, "release")) {
                allocate(PMIX_ALLOC_RELEASE, "RELEASE", &argv[start], i - start);
            } else if (0 == strcmp(step, "pause") && i < argc) {
                sleep((unsigned) atoi(argv[i++]));
            } else if (0 == strcmp(step, "where")) {
                printf("APP %d WHERE %s\n", depth, host);
                fflush(stdout);
            } else {
                fprintf(stderr, "app-requester: unknown step %s\n", step);
                break;
            }
        }
    }
    arm("FINALIZE");
    PMIx_Finalize(NULL, 0);
    alarm(0);
    printf("APP %d DONE rank=%u\n", depth, me.rank);
    return 0;
}
