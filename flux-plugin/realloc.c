/* realloc.c: the job-manager side of RFC 51 inside a flux-core job manager.
 *
 * A jobtap plugin (flux jobtap load PATH/realloc.so) that speaks the job
 * manager's RFC 51 protocol as fluxdrm's own job manager does (the schemas
 * job-manager.realloc-*, job-manager.release-*), for the owner of a running
 * job or the instance owner (docs/decisions/D470.md):
 *
 *   job-manager.realloc {id, spec_add?, spec_sub?, R?}
 *            goes on as sched.realloc; the answer comes back with the job's R.
 *            A grow: the job manager's R of the job is replaced by
 *            job.<id>.R, which the scheduler committed before answering, and a
 *            realloc-grow {alloc_id, R_delta_add} event is posted.
 *   job-manager.realloc_cancel {matchtag}
 *            cancels the sender's pending request (sched.realloc_cancel).
 *   job-manager.realloc_reset {}  (the instance owner: a newly attached
 *            scheduler) answers EAGAIN the requests the last one lost.
 *   job-manager.release {id, ranks | R, final: false}
 *            after a granted shrink: companions on those ranks are canceled
 *            and awaited, sched.free {id, R, final:false} is sent, the job's R
 *            re-read, realloc-release {alloc_id, R_delta_sub} posted, and the
 *            job's R answered.
 *   companion  a job submitted with attributes.system.realloc = {job,
 *            alloc_id} by the same user runs on that grant's R (it bypasses
 *            the scheduler, as alloc-bypass jobs do): processes on the new
 *            ranks.
 *
 * Policy (what may be granted, FIFO, DENY) and R algebra stay with the
 * scheduler, which owns job.<id>.R. This file checks who may ask, relays, and
 * writes what the scheduler decided into flux-core.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <flux/core.h>
#include <flux/idset.h>
#include <flux/jobtap.h>

#define PAYLOAD_MAX (1024 * 1024) /* bytes of a realloc request */
#define TYPE_SUCCESS 0
#define TYPE_CANCEL 2
#define TYPE_UNSUPPORTED 3

struct request {
    struct request *next;
    flux_plugin_t *p;
    flux_msg_t *msg;      /* the requester's realloc or release */
    flux_future_t *f;     /* our sched.realloc (a realloc only) */
    flux_jobid_t id;
    json_t *answer;       /* the scheduler's SUCCESS, while it is applied */
    json_t *subs;         /* a release: the shrinks it hands back */
    json_t *companions;   /* a release: ids of companions still ending */
};

struct ctx {
    flux_plugin_t *p;
    struct request *pending;
};

/* per job: grants made by realloc, {"<alloc_id>": {"R":R, "ranks":"idset",
 * "companion":id}}, the ranks they cover, and the granted shrinks not yet
 * released, [{"alloc_id":N, "R":R, "ranks":"idset"}] */
struct job_grants {
    json_t *grants;
    struct idset *grown;
    json_t *shrinks;
    int ending;           /* companions canceled at the job's end */
};

static const char *f58 (flux_jobid_t id, char *buf, size_t len)
{
    if (flux_job_id_encode (id, "f58", buf, len) < 0)
        snprintf (buf, len, "%ju", (uintmax_t)id);
    return buf;
}

static void respond_error (flux_t *h, const flux_msg_t *msg, int errnum,
                           const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (text, sizeof (text), fmt, ap);
    va_end (ap);
    if (flux_respond_error (h, msg, errnum, text) < 0)
        flux_log_error (h, "realloc: respond");
}

/* The ranks of an R v1 object (union of its R_lite entries), or NULL. */
static struct idset *R_ranks (json_t *R)
{
    json_t *lite, *entry;
    size_t i;
    struct idset *all = idset_create (0, IDSET_FLAG_AUTOGROW);

    if (!all || json_unpack (R, "{s:{s:o}}", "execution", "R_lite", &lite) < 0
        || !json_is_array (lite))
        goto error;
    json_array_foreach (lite, i, entry) {
        const char *rank;
        struct idset *ids;
        if (json_unpack (entry, "{s:s}", "rank", &rank) < 0
            || !(ids = idset_decode (rank)))
            goto error;
        int rc = idset_add (all, ids);
        idset_destroy (ids);
        if (rc < 0)
            goto error;
    }
    return all;
error:
    idset_destroy (all);
    return NULL;
}

/* The idset string of an entry's "ranks" as an idset, or NULL. */
static struct idset *entry_ranks (json_t *entry)
{
    const char *s = json_string_value (json_object_get (entry, "ranks"));
    return s ? idset_decode (s) : NULL;
}

static char *ranks_string (struct idset *ids)
{
    return ids ? idset_encode (ids, IDSET_FLAG_RANGE) : NULL;
}

static void job_grants_destroy (struct job_grants *g)
{
    if (g) {
        json_decref (g->grants);
        json_decref (g->shrinks);
        idset_destroy (g->grown);
        free (g);
    }
}

static struct job_grants *job_grants (flux_plugin_t *p, flux_jobid_t id,
                                      bool create)
{
    struct job_grants *g = flux_jobtap_job_aux_get (p, id, "realloc::grants");
    if (g || !create)
        return g;
    if (!(g = calloc (1, sizeof (*g)))
        || !(g->grants = json_object ())
        || !(g->shrinks = json_array ())
        || !(g->grown = idset_create (0, IDSET_FLAG_AUTOGROW))
        || flux_jobtap_job_aux_set (p, id, "realloc::grants", g,
                                    (flux_free_f)job_grants_destroy) < 0) {
        job_grants_destroy (g);
        return NULL;
    }
    return g;
}

static void request_destroy (struct request *r)
{
    if (r) {
        flux_msg_decref (r->msg);
        flux_future_destroy (r->f);
        json_decref (r->answer);
        json_decref (r->subs);
        json_decref (r->companions);
        free (r);
    }
}

static struct request *request_create (flux_plugin_t *p, const flux_msg_t *msg,
                                       flux_jobid_t id)
{
    struct ctx *ctx = flux_plugin_aux_get (p, "realloc::ctx");
    struct request *r = calloc (1, sizeof (*r));
    if (!r)
        return NULL;
    r->p = p;
    r->id = id;
    r->msg = (flux_msg_t *)flux_msg_incref (msg);
    r->next = ctx->pending;
    ctx->pending = r;
    return r;
}

static void request_done (struct request *r)
{
    struct ctx *ctx = flux_plugin_aux_get (r->p, "realloc::ctx");
    for (struct request **pp = &ctx->pending; *pp; pp = &(*pp)->next) {
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    }
    request_destroy (r);
}

/* Clears the job manager's cached resource-status answer: a hello with
 * partial-ok is answered from its tables and changes nothing else. */
static void hello_continuation (flux_future_t *f, void *arg)
{
    if (flux_future_get (f, NULL) < 0) {
        flux_future_destroy (f);
        return;
    }
    flux_future_reset (f);
}

static void invalidate_status (flux_t *h)
{
    flux_future_t *f = flux_rpc_pack (h, "job-manager.sched-hello",
                                      FLUX_NODEID_ANY, FLUX_RPC_STREAMING,
                                      "{s:b}", "partial-ok", 1);
    if (!f || flux_future_then (f, -1., hello_continuation, NULL) < 0) {
        flux_log_error (h, "realloc: job-manager.sched-hello");
        flux_future_destroy (f);
    }
}

/* The job manager's own R of job id (borrowed), or NULL. */
static json_t *job_R (flux_plugin_t *p, flux_jobid_t id)
{
    flux_plugin_arg_t *args = flux_jobtap_job_lookup (p, id);
    json_t *R = NULL;
    if (args) {
        if (flux_plugin_arg_unpack (args, FLUX_PLUGIN_ARG_IN, "{s:o}", "R", &R) < 0
            || !json_is_object (R))
            R = NULL;
        flux_plugin_arg_destroy (args); /* the job holds its own reference */
    }
    return R;
}

/* Replaces the job manager's R of job id, in place, by R. */
static int replace_R (flux_plugin_t *p, flux_jobid_t id, json_t *R)
{
    json_t *cur = job_R (p, id);

    if (!cur || !json_is_object (R)) {
        errno = EPROTO;
        return -1;
    }
    json_object_clear (cur);
    if (json_object_update (cur, R) < 0) {
        errno = ENOMEM;
        return -1;
    }
    (void)json_object_del (cur, "scheduling");
    invalidate_status (flux_jobtap_get_flux (p));
    return 0;
}

/* Answers r with payload plus the job's R. */
static void respond_with_R (struct request *r, json_t *payload)
{
    flux_t *h = flux_jobtap_get_flux (r->p);
    json_t *o = json_deep_copy (payload);
    json_t *R = job_R (r->p, r->id);

    if (!o || !R || json_object_set (o, "R", R) < 0)
        respond_error (h, r->msg, ENOMEM, "realloc: cannot answer");
    else if (flux_respond_pack (h, r->msg, "O", o) < 0)
        flux_log_error (h, "realloc: respond");
    json_decref (o);
}

static void finish (struct request *r);

/* job.<id>.R as the scheduler committed it, then finish the request. */
static void lookup_continuation (flux_future_t *f, void *arg)
{
    struct request *r = arg;
    flux_t *h = flux_jobtap_get_flux (r->p);
    json_t *R;
    char id[32];

    if (flux_kvs_lookup_get_unpack (f, "o", &R) < 0
        || replace_R (r->p, r->id, R) < 0)
        flux_log (h, LOG_ERR, "realloc: %s: job.R not applied: %s",
                  f58 (r->id, id, sizeof (id)), strerror (errno));
    flux_future_destroy (f);
    finish (r);
}

static void apply (struct request *r)
{
    flux_t *h = flux_jobtap_get_flux (r->p);
    char key[64];
    flux_future_t *f = NULL;

    if (flux_job_kvs_key (key, sizeof (key), r->id, "R") < 0
        || !(f = flux_kvs_lookup (h, NULL, 0, key))
        || flux_future_then (f, -1., lookup_continuation, r) < 0) {
        flux_log_error (h, "realloc: kvs lookup");
        flux_future_destroy (f);
        finish (r);
    }
}

/* A release's resources are back: events, then the job's R to the caller. */
static void finish_release (struct request *r)
{
    flux_t *h = flux_jobtap_get_flux (r->p);
    json_t *sub;
    size_t i;

    json_array_foreach (r->subs, i, sub) {
        if (flux_jobtap_event_post_pack (r->p, r->id, "realloc-release",
                                         "{s:O s:O}", "alloc_id",
                                         json_object_get (sub, "alloc_id"),
                                         "R_delta_sub",
                                         json_object_get (sub, "R")) < 0)
            flux_log_error (h, "realloc: post realloc-release");
    }
    json_t *R = job_R (r->p, r->id);
    if (!R || flux_respond_pack (h, r->msg, "{s:O}", "R", R) < 0)
        flux_log_error (h, "realloc: respond to release");
    request_done (r);
}

/* A realloc's grant is in the job manager: record it, post it, answer. */
static void finish (struct request *r)
{
    flux_t *h = flux_jobtap_get_flux (r->p);
    struct job_grants *g;
    json_int_t alloc_id = 0;
    json_t *add = NULL, *sub = NULL;
    char key[32];

    if (r->subs) {
        finish_release (r);
        return;
    }
    g = job_grants (r->p, r->id, true);
    (void)json_unpack (r->answer, "{s?I s?o s?o}", "alloc_id", &alloc_id,
                       "R_delta_add", &add, "R_delta_sub", &sub);
    snprintf (key, sizeof (key), "%ju", (uintmax_t)alloc_id);
    if (g && sub) {
        /* held by the job until released (D7); no longer releasable */
        struct idset *ids = R_ranks (sub);
        char *s = ranks_string (ids);
        if (ids)
            idset_subtract (g->grown, ids);
        json_array_append_new (g->shrinks,
                               json_pack ("{s:I s:O s:s}", "alloc_id",
                                          alloc_id, "R", sub, "ranks",
                                          s ? s : ""));
        free (s);
        idset_destroy (ids);
    }
    if (g && add) {
        struct idset *ids = R_ranks (add);
        char *s = ranks_string (ids);
        if (ids)
            idset_add (g->grown, ids);
        json_object_set_new (g->grants, key,
                             json_pack ("{s:O s:s s:I}", "R", add, "ranks",
                                        s ? s : "", "companion",
                                        (json_int_t)0));
        free (s);
        idset_destroy (ids);
        if (flux_jobtap_event_post_pack (r->p, r->id, "realloc-grow",
                                         "{s:I s:O}", "alloc_id", alloc_id,
                                         "R_delta_add", add) < 0)
            flux_log_error (h, "realloc: post realloc-grow");
    }
    respond_with_R (r, r->answer);
    request_done (r);
}

/* The released ranks' processes have ended: give them back. */
static void release_free (struct request *r)
{
    flux_t *h = flux_jobtap_get_flux (r->p);
    json_t *sub;
    size_t i;

    json_array_foreach (r->subs, i, sub) {
        flux_msg_t *msg = flux_request_encode ("sched.free", NULL);
        if (!msg
            || flux_msg_pack (msg, "{s:I s:O s:b}", "id", (json_int_t)r->id,
                              "R", json_object_get (sub, "R"), "final", 0) < 0
            || flux_send (h, msg, 0) < 0)
            flux_log_error (h, "realloc: sched.free");
        flux_msg_destroy (msg);
    }
    apply (r);
}

/* Cancels the companions of job id whose grant meets ranks (all when NULL);
 * their ids are appended to ended. Returns how many. */
static int cancel_companions (flux_plugin_t *p, flux_jobid_t id,
                              struct idset *ranks, json_t *ended,
                              const char *why)
{
    struct job_grants *g = job_grants (p, id, false);
    const char *k;
    json_t *grant;
    int n = 0;

    if (!g)
        return 0;
    json_object_foreach (g->grants, k, grant) {
        json_int_t cid = 0;
        struct idset *gr = entry_ranks (grant);
        (void)json_unpack (grant, "{s:I}", "companion", &cid);
        if (cid && gr && (!ranks || idset_has_intersection (gr, ranks))
            && flux_jobtap_raise_exception (p, cid, "cancel", 0, "%s", why) == 0) {
            json_array_append_new (ended, json_integer (cid));
            n++;
        }
        idset_destroy (gr);
    }
    return n;
}

static void answer_continuation (flux_future_t *f, void *arg)
{
    struct request *r = arg;
    flux_t *h = flux_jobtap_get_flux (r->p);
    json_t *answer;
    int type = -1;

    if (flux_rpc_get_unpack (f, "o", &answer) < 0) {
        if (errno == ENOSYS) { /* RFC 51: a scheduler without realloc */
            json_t *u = json_pack ("{s:I s:i}", "alloc_id", (json_int_t)0,
                                   "type", TYPE_UNSUPPORTED);
            respond_with_R (r, u);
            json_decref (u);
        }
        else
            respond_error (h, r->msg, errno, "%s", future_strerror (f, errno));
        request_done (r);
        return;
    }
    if (json_unpack (answer, "{s:i}", "type", &type) < 0
        || type != TYPE_SUCCESS) {
        respond_with_R (r, answer);
        request_done (r);
        return;
    }
    r->answer = json_incref (answer);
    if (json_object_get (answer, "R_delta_add"))
        apply (r);
    else
        finish (r);
}

/* flux-core 0.88 cannot end a job's shells on some of its ranks: only ranks
 * that realloc granted (and companions run on) may be shrunk. */
static int check_shrink (flux_plugin_t *p, flux_jobid_t id, json_t *R,
                         char *why, size_t len)
{
    struct job_grants *g = job_grants (p, id, false);
    struct idset *ranks = R ? R_ranks (R) : NULL;
    int rc = -1;

    if (!R)
        snprintf (why, len, "spec_sub needs R naming the ranks to release");
    else if (!ranks)
        snprintf (why, len, "R: not an R v1 object with R_lite ranks");
    else {
        struct idset *outside = g ? idset_difference (ranks, g->grown)
                                  : idset_copy (ranks);
        char *s = ranks_string (outside);
        if (outside && idset_count (outside) > 0)
            snprintf (why, len, "R names rank %s, which realloc did not grant"
                      " or is already shrinking (flux-core cannot release a"
                      " job's original ranks)", s ? s : "?");
        else
            rc = 0;
        free (s);
        idset_destroy (outside);
    }
    idset_destroy (ranks);
    return rc;
}

/* The job id of a request's payload o (key "id"), checked against the caller:
 * 0 when refused (the error is answered). */
static int check_job (flux_plugin_t *p, const flux_msg_t *msg,
                      flux_jobid_t id, const char *what)
{
    flux_t *h = flux_jobtap_get_flux (p);
    flux_plugin_arg_t *args;
    struct flux_msg_cred cred;
    int state, userid;
    char idbuf[32];

    f58 (id, idbuf, sizeof (idbuf));
    if (!(args = flux_jobtap_job_lookup (p, id))) {
        respond_error (h, msg, ENOENT, "%s: unknown job %s", what, idbuf);
        return -1;
    }
    int rc = flux_plugin_arg_unpack (args, FLUX_PLUGIN_ARG_IN, "{s:i s:i}",
                                     "state", &state, "userid", &userid);
    flux_plugin_arg_destroy (args);
    if (rc < 0) {
        respond_error (h, msg, EPROTO, "%s: job %s: no state", what, idbuf);
        return -1;
    }
    if (flux_msg_get_cred (msg, &cred) < 0
        || flux_msg_cred_authorize (cred, (uint32_t)userid) < 0) {
        respond_error (h, msg, EPERM, "%s: user %u may not act on job %s of"
                       " user %d", what, cred.userid, idbuf, userid);
        return -1;
    }
    if (state != FLUX_JOB_STATE_RUN) {
        respond_error (h, msg, EINVAL, "%s: job %s is not running (state %s)",
                       what, idbuf, flux_job_statetostr (state, "L"));
        return -1;
    }
    if (flux_jobtap_job_aux_get (p, id, "realloc::parent")) {
        respond_error (h, msg, EINVAL, "%s: job %s is a companion: ask for"
                       " the job it belongs to", what, idbuf);
        return -1;
    }
    return 0;
}

/* The payload of msg as a JSON object, or NULL (the error is answered). */
static json_t *payload (flux_t *h, const flux_msg_t *msg, const char *what)
{
    const char *s;
    size_t size = 0;
    json_error_t jerr;
    json_t *o;

    if (flux_msg_get_payload (msg, NULL, &size) == 0 && size > PAYLOAD_MAX) {
        respond_error (h, msg, E2BIG, "%s: payload of %zu bytes (limit %d)",
                       what, size, PAYLOAD_MAX);
        return NULL;
    }
    if (flux_request_decode (msg, NULL, &s) < 0 || !s) {
        respond_error (h, msg, EPROTO, "%s: no JSON payload", what);
        return NULL;
    }
    if (!(o = json_loads (s, 0, &jerr)) || !json_is_object (o)) {
        respond_error (h, msg, EPROTO, "%s: payload: %s", what,
                       o ? "not an object" : jerr.text);
        json_decref (o);
        return NULL;
    }
    return o;
}

static void realloc_cb (flux_t *h, flux_msg_handler_t *mh,
                        const flux_msg_t *msg, void *arg)
{
    flux_plugin_t *p = arg;
    json_t *o, *fwd = NULL, *add = NULL, *sub = NULL, *R = NULL;
    json_error_t jerr;
    json_int_t id;
    struct request *r;
    char idbuf[32], why[256];

    if (!(o = payload (h, msg, "realloc")))
        return;
    if (json_unpack_ex (o, &jerr, JSON_STRICT, "{s:I s?o s?o s?o}",
                        "id", &id, "spec_add", &add, "spec_sub", &sub,
                        "R", &R) < 0) {
        respond_error (h, msg, EPROTO, "realloc: payload: %s", jerr.text);
        goto done;
    }
    if ((!add && !sub) || (add && !json_is_object (add))
        || (sub && !json_is_object (sub)) || (R && !json_is_object (R))) {
        respond_error (h, msg, EPROTO, "realloc: expected spec_add and/or"
                       " spec_sub (jobspec objects) and an optional R object");
        goto done;
    }
    if (check_job (p, msg, id, "realloc") < 0)
        goto done;
    if (sub && check_shrink (p, id, R, why, sizeof (why)) < 0) {
        respond_error (h, msg, EINVAL, "realloc: job %s: %s",
                       f58 (id, idbuf, sizeof (idbuf)), why);
        goto done;
    }
    /* RFC 51's sched.realloc names the job "job_id" */
    if (!(fwd = json_deep_copy (o)) || json_object_del (fwd, "id") < 0
        || json_object_set_new (fwd, "job_id", json_integer (id)) < 0
        || !(r = request_create (p, msg, id))) {
        respond_error (h, msg, ENOMEM, "realloc: out of memory");
        goto done;
    }
    if (!(r->f = flux_rpc_pack (h, "sched.realloc", FLUX_NODEID_ANY, 0, "O", fwd))
        || flux_future_then (r->f, -1., answer_continuation, r) < 0) {
        respond_error (h, msg, errno, "realloc: sched.realloc: %s",
                       strerror (errno));
        request_done (r);
    }
    else
        flux_log (h, LOG_INFO, "realloc: %s: sched.realloc sent (%s%s%s)",
                  f58 (id, idbuf, sizeof (idbuf)), add ? "spec_add" : "",
                  add && sub ? ", " : "", sub ? "spec_sub" : "");
done:
    json_decref (fwd);
    json_decref (o);
}

/* job-manager.release {id, ranks | R, final: false}: hands back whole granted
 * shrinks; their companions end first, then sched.free. */
static void release_cb (flux_t *h, flux_msg_handler_t *mh,
                        const flux_msg_t *msg, void *arg)
{
    flux_plugin_t *p = arg;
    json_t *o, *R = NULL, *sub;
    const char *ranks = NULL;
    json_error_t jerr;
    json_int_t id;
    int final = 0;
    struct idset *want = NULL, *got = NULL;
    struct job_grants *g;
    struct request *r = NULL;
    char idbuf[32], why[128];
    size_t i;

    if (!(o = payload (h, msg, "release")))
        return;
    if (json_unpack_ex (o, &jerr, JSON_STRICT, "{s:I s?s s?o s?b}", "id", &id,
                        "ranks", &ranks, "R", &R, "final", &final) < 0) {
        respond_error (h, msg, EPROTO, "release: payload: %s", jerr.text);
        goto done;
    }
    if (final || (!ranks == !R)) {
        respond_error (h, msg, EINVAL, "release: expected exactly one of ranks"
                       " and R, and final false (a job ends by finishing)");
        goto done;
    }
    if (check_job (p, msg, id, "release") < 0)
        goto done;
    if (!(want = ranks ? idset_decode (ranks) : R_ranks (R))) {
        respond_error (h, msg, EPROTO, "release: %s: not an idset or R",
                       ranks ? "ranks" : "R");
        goto done;
    }
    if (!(got = idset_create (0, IDSET_FLAG_AUTOGROW))
        || !(r = request_create (p, msg, id))
        || !(r->subs = json_array ()) || !(r->companions = json_array ()))
        goto nomem;
    g = job_grants (p, id, false);
    for (i = 0; g && i < json_array_size (g->shrinks); ) {
        struct idset *sr = entry_ranks (sub = json_array_get (g->shrinks, i));
        struct idset *rest = sr ? idset_difference (sr, want) : NULL;
        if (sr && rest && idset_count (rest) == 0) {
            idset_add (got, sr);
            json_array_append (r->subs, sub);
            json_array_remove (g->shrinks, i);
        }
        else
            i++;
        idset_destroy (rest);
        idset_destroy (sr);
    }
    if (!idset_equal (got, want)) {
        /* put back what was taken: nothing changes */
        json_array_foreach (r->subs, i, sub)
            json_array_append (g->shrinks, sub);
        struct idset *extra = idset_difference (want, got);
        char *s = ranks_string (extra);
        respond_error (h, msg, EINVAL, "release: job %s: rank %s is not in a"
                       " granted shrink (expected: the ranks of whole shrinks"
                       " not yet released)", f58 (id, idbuf, 32), s ? s : "?");
        free (s);
        idset_destroy (extra);
        request_done (r);
        goto done;
    }
    snprintf (why, sizeof (why), "realloc: job %s released these ranks",
              f58 (id, idbuf, 32));
    if (cancel_companions (p, id, want, r->companions, why) == 0)
        release_free (r);
    goto done;
nomem:
    respond_error (h, msg, ENOMEM, "release: out of memory");
    if (r)
        request_done (r);
done:
    idset_destroy (want);
    idset_destroy (got);
    json_decref (o);
}

static void send_cancel (struct request *r)
{
    flux_t *h = flux_jobtap_get_flux (r->p);
    flux_future_t *f = flux_rpc_pack (h, "sched.realloc_cancel",
                                      FLUX_NODEID_ANY, FLUX_RPC_NORESPONSE,
                                      "{s:i}", "matchtag",
                                      (int)flux_rpc_get_matchtag (r->f));
    if (!f)
        flux_log_error (h, "realloc: sched.realloc_cancel");
    flux_future_destroy (f);
}

/* job-manager.realloc_cancel {matchtag}: RFC 51's cancel, from the sender of
 * the request; never answered. */
static void cancel_cb (flux_t *h, flux_msg_handler_t *mh,
                       const flux_msg_t *msg, void *arg)
{
    struct ctx *ctx = flux_plugin_aux_get (arg, "realloc::ctx");
    const char *sender = flux_msg_route_first (msg);
    int matchtag;

    if (flux_request_unpack (msg, NULL, "{s:i}", "matchtag", &matchtag) < 0
        || !sender) {
        flux_log (h, LOG_ERR, "realloc_cancel: malformed request");
        return;
    }
    for (struct request *r = ctx->pending; r; r = r->next) {
        uint32_t tag;
        const char *from = flux_msg_route_first (r->msg);
        if (r->f && !r->answer && from && !strcmp (from, sender)
            && flux_msg_get_matchtag (r->msg, &tag) == 0
            && tag == (uint32_t)matchtag) {
            send_cancel (r);
            return;
        }
    }
}

/* job-manager.realloc_reset (the instance owner: a scheduler that has just
 * attached, before it serves sched.realloc): requests forwarded to the one
 * before it are lost with it, so each is answered EAGAIN now, not never. */
static void reset_cb (flux_t *h, flux_msg_handler_t *mh,
                      const flux_msg_t *msg, void *arg)
{
    struct ctx *ctx = flux_plugin_aux_get (arg, "realloc::ctx");
    struct request *r = ctx->pending, *next;
    int n = 0;

    for (; r; r = next) {
        next = r->next;
        if (!r->f || r->answer)
            continue;
        respond_error (h, r->msg, EAGAIN, "realloc: the scheduler restarted"
                       " and lost this request (nothing was granted): ask"
                       " again");
        request_done (r);
        n++;
    }
    if (n > 0)
        flux_log (h, LOG_INFO, "realloc: a new scheduler: %d lost request(s)"
                  " answered EAGAIN", n);
    if (flux_respond_pack (h, msg, "{s:i}", "failed", n) < 0)
        flux_log_error (h, "realloc: respond to realloc_reset");
}

/* job.validate: a companion names {job, alloc_id}; it runs on that grant. */
static int validate_cb (flux_plugin_t *p, const char *topic,
                        flux_plugin_arg_t *args, void *arg)
{
    json_t *link = NULL, *grant;
    json_int_t parent, alloc_id, cid = 0, id;
    int userid, puserid, pstate;
    flux_plugin_arg_t *pargs;
    struct job_grants *g;
    char key[32], idbuf[32];

    if (flux_plugin_arg_unpack (args, FLUX_PLUGIN_ARG_IN,
                                "{s:I s:i s:{s?{s?{s?o}}}}", "id", &id,
                                "userid", &userid, "jobspec", "attributes",
                                "system", "realloc", &link) < 0 || !link)
        return 0;
    if (json_unpack (link, "{s:I s:I}", "job", &parent,
                     "alloc_id", &alloc_id) < 0)
        return flux_jobtap_reject_job (p, args, "system.realloc: expected"
                                       " {\"job\": ID, \"alloc_id\": ID}");
    f58 (parent, idbuf, sizeof (idbuf));
    if (!(pargs = flux_jobtap_job_lookup (p, parent)))
        return flux_jobtap_reject_job (p, args, "system.realloc: unknown job"
                                       " %s", idbuf);
    int rc = flux_plugin_arg_unpack (pargs, FLUX_PLUGIN_ARG_IN, "{s:i s:i}",
                                     "userid", &puserid, "state", &pstate);
    flux_plugin_arg_destroy (pargs);
    if (rc < 0 || pstate != FLUX_JOB_STATE_RUN)
        return flux_jobtap_reject_job (p, args, "system.realloc: job %s is"
                                       " not running", idbuf);
    if (puserid != userid)
        return flux_jobtap_reject_job (p, args, "system.realloc: job %s"
                                       " belongs to another user", idbuf);
    snprintf (key, sizeof (key), "%ju", (uintmax_t)alloc_id);
    if (!(g = job_grants (p, parent, false))
        || !(grant = json_object_get (g->grants, key)))
        return flux_jobtap_reject_job (p, args, "system.realloc: job %s holds"
                                       " no grant with alloc_id %s", idbuf,
                                       key);
    (void)json_unpack (grant, "{s:I}", "companion", &cid);
    if (cid != 0)
        return flux_jobtap_reject_job (p, args, "system.realloc: grant %s of"
                                       " job %s already runs a companion",
                                       key, idbuf);
    json_t *R = json_object_get (grant, "R");
    json_t *pl = json_pack ("{s:I s:O}", "job", parent, "R", R);
    if (!pl || flux_jobtap_job_aux_set (p, FLUX_JOBTAP_CURRENT_JOB,
                                        "realloc::parent", pl,
                                        (flux_free_f)json_decref) < 0) {
        json_decref (pl);
        return flux_jobtap_reject_job (p, args, "system.realloc: %s",
                                       strerror (errno));
    }
    if (flux_jobtap_job_set_flag (p, FLUX_JOBTAP_CURRENT_JOB,
                                  "alloc-bypass") < 0)
        return flux_jobtap_reject_job (p, args, "system.realloc: %s",
                                       strerror (errno));
    json_object_set_new (grant, "companion", json_integer (id));
    return 0;
}

static void commit_continuation (flux_future_t *f, void *arg)
{
    flux_plugin_t *p = arg;
    flux_jobid_t id = *(flux_jobid_t *)flux_future_aux_get (f, "id");

    if (flux_future_get (f, NULL) < 0)
        flux_jobtap_raise_exception (p, id, "alloc", 0, "realloc: commit of"
                                     " R failed: %s", strerror (errno));
    else if (flux_jobtap_event_post_pack (p, id, "alloc", "{s:b}",
                                          "bypass", 1) < 0)
        flux_jobtap_raise_exception (p, id, "alloc", 0, "realloc: alloc"
                                     " event: %s", strerror (errno));
    flux_future_destroy (f);
}

/* job.state.sched: a companion gets its grant's R (committed first, as a
 * scheduler does) without asking the scheduler, which counts it as the
 * parent's already. */
static int sched_cb (flux_plugin_t *p, const char *topic,
                     flux_plugin_arg_t *args, void *arg)
{
    json_t *pl = flux_jobtap_job_aux_get (p, FLUX_JOBTAP_CURRENT_JOB,
                                          "realloc::parent");
    flux_t *h = flux_jobtap_get_flux (p);
    flux_kvs_txn_t *txn = NULL;
    flux_future_t *f = NULL;
    flux_jobid_t *idp = NULL;
    json_int_t id;
    char key[64];

    if (!pl)
        return 0;
    json_t *R = json_object_get (pl, "R");
    if (flux_plugin_arg_unpack (args, FLUX_PLUGIN_ARG_IN, "{s:I}", "id", &id) < 0
        || flux_job_kvs_key (key, sizeof (key), id, "R") < 0
        || !(txn = flux_kvs_txn_create ())
        || flux_kvs_txn_pack (txn, 0, key, "O", R) < 0
        || !(f = flux_kvs_commit (h, NULL, 0, txn))
        || !(idp = malloc (sizeof (*idp)))
        || (*idp = id, flux_future_aux_set (f, "id", idp, free) < 0)
        || flux_future_then (f, -1., commit_continuation, p) < 0) {
        flux_jobtap_raise_exception (p, FLUX_JOBTAP_CURRENT_JOB, "alloc", 0,
                                     "realloc: commit of R: %s",
                                     strerror (errno));
        if (f && !flux_future_aux_get (f, "id"))
            free (idp);
        flux_future_destroy (f);
    }
    flux_kvs_txn_destroy (txn);
    return flux_plugin_arg_pack (args, FLUX_PLUGIN_ARG_OUT, "{s:O}", "R", R);
}

/* A companion is gone: its grant is free for another; a release or the
 * parent's end waiting for it goes on. */
static int inactive_cb (flux_plugin_t *p, const char *topic,
                        flux_plugin_arg_t *args, void *arg)
{
    struct ctx *ctx = flux_plugin_aux_get (p, "realloc::ctx");
    json_t *pl = flux_jobtap_job_aux_get (p, FLUX_JOBTAP_CURRENT_JOB,
                                          "realloc::parent");
    json_int_t id, parent;
    struct job_grants *g;
    const char *k;
    json_t *grant;

    if (!pl || flux_plugin_arg_unpack (args, FLUX_PLUGIN_ARG_IN, "{s:I}",
                                       "id", &id) < 0
        || json_unpack (pl, "{s:I}", "job", &parent) < 0)
        return 0;
    if ((g = job_grants (p, parent, false))) {
        json_object_foreach (g->grants, k, grant) {
            if (json_integer_value (json_object_get (grant, "companion")) == id)
                json_object_set_new (grant, "companion", json_integer (0));
        }
        if (g->ending > 0 && --g->ending == 0)
            flux_jobtap_epilog_finish (p, parent, "realloc", 0);
    }
    for (struct request *r = ctx->pending; r; r = r->next) {
        size_t i;
        json_t *v;
        if (r->id != (flux_jobid_t)parent || !r->companions)
            continue;
        json_array_foreach (r->companions, i, v) {
            if (json_integer_value (v) == id) {
                json_array_remove (r->companions, i);
                if (json_array_size (r->companions) == 0)
                    release_free (r);
                return 0;
            }
        }
    }
    return 0;
}

/* The job ends: its pending reallocs are canceled at the scheduler, and its
 * companions are ended before the job's resources are freed (an epilog). */
static int cleanup_cb (flux_plugin_t *p, const char *topic,
                       flux_plugin_arg_t *args, void *arg)
{
    struct ctx *ctx = flux_plugin_aux_get (p, "realloc::ctx");
    struct job_grants *g;
    json_int_t id;
    json_t *ended;

    if (flux_plugin_arg_unpack (args, FLUX_PLUGIN_ARG_IN, "{s:I}", "id", &id) < 0)
        return 0;
    struct request *r = ctx->pending, *next;
    for (; r; r = next) {
        next = r->next;
        if (r->id != (flux_jobid_t)id || !r->f || r->answer)
            continue;
        /* the scheduler may be gone: answer CANCEL here, not on its word; a
         * grant it makes meanwhile is the job's and goes with its final free */
        json_t *c = json_pack ("{s:I s:i s:s}", "alloc_id", (json_int_t)0,
                               "type", TYPE_CANCEL, "note", "the job ended");
        send_cancel (r);
        respond_with_R (r, c);
        json_decref (c);
        request_done (r);
    }
    if (!(g = job_grants (p, id, false)) || !(ended = json_array ()))
        return 0;
    int n = cancel_companions (p, id, NULL, ended, "realloc: its job ended");
    json_decref (ended);
    if (n > 0 && flux_jobtap_epilog_start (p, "realloc") == 0)
        g->ending = n;
    return 0;
}

static void ctx_destroy (struct ctx *ctx)
{
    if (ctx) {
        flux_t *h = flux_jobtap_get_flux (ctx->p);
        while (ctx->pending) {
            struct request *r = ctx->pending;
            ctx->pending = r->next;
            if (r->f && !r->answer)
                send_cancel (r);
            respond_error (h, r->msg, ENOSYS, "realloc: the plugin was"
                           " unloaded");
            request_destroy (r);
        }
        free (ctx);
    }
}

static const struct flux_plugin_handler tab[] = {
    { "job.validate", validate_cb, NULL },
    { "job.state.sched", sched_cb, NULL },
    { "job.state.cleanup", cleanup_cb, NULL },
    { "job.state.inactive", inactive_cb, NULL },
    { 0 },
};

/* A handler for a job-manager topic outside the plugin's own namespace (the
 * topics of fluxdrm's job-manager protocol), destroyed with the plugin. */
static int register_topic (flux_plugin_t *p, const char *topic,
                           flux_msg_handler_f cb, uint32_t rolemask)
{
    struct flux_match match = FLUX_MATCH_REQUEST;
    flux_msg_handler_t *mh;

    match.topic_glob = (char *)topic;
    if (!(mh = flux_msg_handler_create (flux_jobtap_get_flux (p), match, cb, p))
        || flux_plugin_aux_set (p, NULL, mh,
                                (flux_free_f)flux_msg_handler_destroy) < 0) {
        flux_msg_handler_destroy (mh);
        return -1;
    }
    flux_msg_handler_allow_rolemask (mh, rolemask);
    flux_msg_handler_start (mh);
    return 0;
}

int flux_plugin_init (flux_plugin_t *p)
{
    struct ctx *ctx = calloc (1, sizeof (*ctx));

    if (!ctx)
        return -1;
    ctx->p = p;
    if (flux_plugin_aux_set (p, "realloc::ctx", ctx,
                             (flux_free_f)ctx_destroy) < 0) {
        free (ctx);
        return -1;
    }
    if (flux_plugin_register (p, "realloc", tab) < 0
        || flux_jobtap_service_register_ex (p, NULL, FLUX_ROLE_USER,
                                            realloc_cb, p) < 0
        || register_topic (p, "job-manager.realloc_cancel", cancel_cb,
                           FLUX_ROLE_USER) < 0
        || register_topic (p, "job-manager.release", release_cb,
                           FLUX_ROLE_USER) < 0
        || register_topic (p, "job-manager.realloc_reset", reset_cb, 0) < 0)
        return -1;
    return 0;
}

// vi:ts=4 sw=4 expandtab
