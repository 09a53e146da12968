/*
 * mstx.c - openacl as an mstx tool: InitInjectionMstx, the entry that the
 * mstx header (include/mstx/ms_tools_ext.h) calls after dlopening the
 * library named by MSTX_INJECTION_PATH, fills the CORE slots 1-3 (mark,
 * range start, range end) and the DOMAIN slots 1-5 with the functions
 * below, which record into the msproftx machinery of tx.c: rows of
 * msprof_tx_*.csv with the domain column, events of the MsprofTx layer of
 * the trace.  CORE slot 4 (mstxGetToolId) is left empty, as the vendor's
 * profiler does: an older header numbers that slot differently.
 *
 * The vendor's rules (prof-dump.md §2):
 *   - marks and ranges are recorded only while msproftx collection runs
 *     (ACL_PROF_MSPROFTX, acl.json profiler.msproftx); a range start then
 *     returns 0.  Domains can be created and destroyed at any time.
 *   - a message must be non-NULL and must not start with '\0', '=', '+',
 *     '-' or '@' (a guard against CSV formula injection); else ignored.
 *   - range ids come from one process-wide counter and are never 0; an end
 *     with an id not started in the same domain is ignored.
 *   - with a stream a marker task also goes on it (the device side);
 *     NULL is host only.
 *   - a domain name is non-NULL, shorter than 1024 bytes and not
 *     "default" (the domain of the calls without one); the same name gives
 *     the same handle; a destroyed or unknown handle is ignored.
 * Misuse is logged (the mstx calls return nothing to report it with).
 *
 * Lock: mstx_lock guards the domain list and the open ranges (a leaf;
 * recording happens outside it).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "mstx/mstx_detail/mstx_inject.h"
#include "prof/prof_internal.h"

#define DOMAIN_MAGIC 0x6d737478u /* "mstx" */
#define DOMAIN_NAME_MAX 1024

struct mstxDomainRegistration_st {
  uint32_t magic;
  const char *name; /* string pool: records keep pointing at it after destroy */
  struct mstxDomainRegistration_st *next;
};

typedef struct open_range {
  mstxRangeId id;
  const struct mstxDomainRegistration_st *domain; /* NULL: default */
  uint64_t t0;
  const char *msg;
  int32_t stream;
  int16_t device;
} open_range;

static pthread_mutex_t mstx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mstxDomainRegistration_st *domains; /* mstx_lock */
static open_range *ranges;                        /* mstx_lock */
static size_t n_ranges, cap_ranges;               /* mstx_lock */
static mstxRangeId next_id = 1;                   /* mstx_lock */

/* The message to record (pooled), or NULL when it breaks the rules. */
static const char *message_ok(const char *api, const char *message) {
  if (message == NULL) {
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s: message is NULL; nothing recorded", api);
    return NULL;
  }
  if (strchr("=+-@", message[0]) != NULL) { /* also catches '\0' */
    ACL__LOGW(ACL__MOD_ASCENDCL,
              "%s: message '%.32s' is empty or starts with '=', '+', '-' or '@' (refused "
              "as in the vendor's profiler, against CSV formula injection); nothing recorded",
              api, message);
    return NULL;
  }
  return acl__prof_strdup(message, strlen(message));
}

/* Whether d is a live domain handle (mstx_lock held). */
static int domain_live_locked(const struct mstxDomainRegistration_st *d) {
  for (const struct mstxDomainRegistration_st *p = domains; p != NULL; p = p->next)
    if (p == d)
      return 1;
  return 0;
}

/* The pooled name of a live domain, NULL for the default one; *ok 0 when
 * the handle is neither. */
static const char *domain_name(const char *api, mstxDomainHandle_t domain, int *ok) {
  *ok = 1;
  if (domain == NULL)
    return NULL;
  pthread_mutex_lock(&mstx_lock);
  const char *name = domain_live_locked(domain) ? domain->name : NULL;
  pthread_mutex_unlock(&mstx_lock);
  if (name == NULL) {
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s: domain %p is no live domain of mstxDomainCreateA (destroyed?); ignored", api,
              (void *)domain);
    *ok = 0;
  }
  return name;
}

static void mark(const char *api, const char *dname, const char *message, aclrtStream stream) {
  if (!acl__prof_tx_active())
    return;
  const char *msg = message_ok(api, message);
  if (msg == NULL)
    return;
  uint64_t t = acl__prof_now(), seq = 0;
  int32_t sid = -1;
  int16_t dev = -1;
  if (stream != NULL && acl__prof_tx_marker_task(api, stream, msg, &sid, &dev, &seq) != 0) {
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s: stream %p is no usable stream; the mark '%s' is recorded on the host only", api,
              stream, msg);
    sid = -1;
    dev = -1;
  }
  acl__prof_tx_record(PTX_MARKER, msg, dname, t, t, 0, sid, dev);
}

static mstxRangeId range_start(const char *api, const struct mstxDomainRegistration_st *d, const char *dname,
                               const char *message, aclrtStream stream) {
  if (!acl__prof_tx_active())
    return 0;
  const char *msg = message_ok(api, message);
  if (msg == NULL)
    return 0;
  open_range o = {0, d, acl__prof_now(), msg, -1, -1};
  uint64_t seq = 0;
  if (stream != NULL && acl__prof_tx_marker_task(api, stream, msg, &o.stream, &o.device, &seq) != 0) {
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s: stream %p is no usable stream; the range '%s' is recorded on the host only", api,
              stream, msg);
    o.stream = -1;
    o.device = -1;
  }
  (void)dname;
  pthread_mutex_lock(&mstx_lock);
  if (n_ranges == cap_ranges) {
    size_t nc = cap_ranges ? cap_ranges * 2 : 16;
    open_range *bigger = realloc(ranges, nc * sizeof(*bigger));
    if (bigger == NULL) {
      pthread_mutex_unlock(&mstx_lock);
      ACL__LOGE(ACL__MOD_ASCENDCL, "%s: out of host memory for an open range; '%s' is not recorded", api, msg);
      return 0;
    }
    ranges = bigger;
    cap_ranges = nc;
  }
  o.id = next_id++;
  if (next_id == 0)
    next_id = 1;
  ranges[n_ranges++] = o;
  pthread_mutex_unlock(&mstx_lock);
  return o.id;
}

static void range_end(const char *api, const struct mstxDomainRegistration_st *d, const char *dname, mstxRangeId id) {
  open_range o = {0};
  pthread_mutex_lock(&mstx_lock);
  for (size_t i = 0; i < n_ranges; i++)
    if (ranges[i].id == id && ranges[i].domain == d) {
      o = ranges[i];
      ranges[i] = ranges[--n_ranges];
      break;
    }
  pthread_mutex_unlock(&mstx_lock);
  if (o.id == 0) {
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s: range id %llu was not started in domain '%s' (or ended already); ignored", api,
              (unsigned long long)id, dname != NULL ? dname : "default");
    return;
  }
  if (!acl__prof_tx_active())
    return; /* collection stopped in between: the range belongs to no session */
  if (o.stream >= 0)
    ACL__LOGD(ACL__MOD_ASCENDCL, "%s: range %llu ends on the host; its device start is the marker task on stream %d",
              api, (unsigned long long)id, o.stream);
  acl__prof_tx_record(PTX_STARTEND, o.msg, dname, o.t0, acl__prof_now(), o.id, o.stream, o.device);
}

/* ---- the slots --------------------------------------------------------------- */

static void tool_mark(const char *message, aclrtStream stream) { mark("mstxMarkA", NULL, message, stream); }

static mstxRangeId tool_range_start(const char *message, aclrtStream stream) {
  return range_start("mstxRangeStartA", NULL, NULL, message, stream);
}

static void tool_range_end(mstxRangeId id) { range_end("mstxRangeEnd", NULL, NULL, id); }

static mstxDomainHandle_t tool_domain_create(const char *name) {
  if (name == NULL || name[0] == '\0' || strnlen(name, DOMAIN_NAME_MAX) >= DOMAIN_NAME_MAX ||
      strcmp(name, "default") == 0) {
    ACL__LOGW(ACL__MOD_ASCENDCL,
              "mstxDomainCreateA: name %s%.32s%s is refused: it must be non-empty, shorter than "
              "%d bytes and not \"default\" (the domain of the calls without one)",
              name ? "'" : "", name ? name : "NULL", name ? "'" : "", DOMAIN_NAME_MAX);
    return NULL;
  }
  struct mstxDomainRegistration_st *d = NULL;
  pthread_mutex_lock(&mstx_lock);
  for (d = domains; d != NULL; d = d->next)
    if (strcmp(d->name, name) == 0)
      goto out; /* the same name, the same handle */
  d = malloc(sizeof(*d));
  const char *pooled = d != NULL ? acl__prof_strdup(name, strlen(name)) : NULL;
  if (d == NULL || pooled == NULL) {
    free(d);
    d = NULL;
    ACL__LOGE(ACL__MOD_ASCENDCL, "mstxDomainCreateA: out of host memory for domain '%.32s'", name);
    goto out;
  }
  d->magic = DOMAIN_MAGIC;
  d->name = pooled;
  d->next = domains;
  domains = d;
out:
  pthread_mutex_unlock(&mstx_lock);
  return d;
}

static void tool_domain_destroy(mstxDomainHandle_t domain) {
  struct mstxDomainRegistration_st *gone = NULL;
  pthread_mutex_lock(&mstx_lock);
  for (struct mstxDomainRegistration_st **p = &domains; *p != NULL; p = &(*p)->next)
    if (*p == domain) {
      gone = *p;
      *p = gone->next;
      break;
    }
  /* its open ranges can no longer end */
  for (size_t i = 0; gone != NULL && i < n_ranges;)
    if (ranges[i].domain == gone)
      ranges[i] = ranges[--n_ranges];
    else
      i++;
  pthread_mutex_unlock(&mstx_lock);
  if (gone == NULL) {
    ACL__LOGW(ACL__MOD_ASCENDCL, "mstxDomainDestroy: %p is no live domain; ignored", (void *)domain);
    return;
  }
  gone->magic = 0;
  free(gone);
}

static void tool_domain_mark(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  int ok = 0;
  const char *dname = domain_name("mstxDomainMarkA", domain, &ok);
  if (ok)
    mark("mstxDomainMarkA", dname, message, stream);
}

static mstxRangeId tool_domain_range_start(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  int ok = 0;
  const char *dname = domain_name("mstxDomainRangeStartA", domain, &ok);
  return ok ? range_start("mstxDomainRangeStartA", domain, dname, message, stream) : 0;
}

static void tool_domain_range_end(mstxDomainHandle_t domain, mstxRangeId id) {
  int ok = 0;
  const char *dname = domain_name("mstxDomainRangeEnd", domain, &ok);
  if (ok)
    range_end("mstxDomainRangeEnd", domain, dname, id);
}

/* Stores f in slot id of the module's table when the table has that slot. */
static int fill(mstxGetModuleFuncTableFunc get, mstxFuncModule module, unsigned id, mstxFuncPointer f) {
  mstxFuncTable table = NULL;
  unsigned size = 0;
  if (get(module, &table, &size) != MSTX_SUCCESS || table == NULL || id >= size)
    return MSTX_FAIL;
  table[id] = f;
  return MSTX_SUCCESS;
}

ACL_FUNC_VISIBILITY int InitInjectionMstx(mstxGetModuleFuncTableFunc getFuncTable) {
  if (getFuncTable == NULL) {
    ACL__LOGE(ACL__MOD_ASCENDCL, "InitInjectionMstx: getFuncTable is NULL; mstx is not bound");
    return MSTX_FAIL;
  }
  int bad = 0;
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE, MSTX_API_CORE_MARK_A, (mstxFuncPointer)tool_mark);
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE, MSTX_API_CORE_RANGE_START_A, (mstxFuncPointer)tool_range_start);
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE, MSTX_API_CORE_RANGE_END, (mstxFuncPointer)tool_range_end);
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_CREATE_A,
              (mstxFuncPointer)tool_domain_create);
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_DESTROY,
              (mstxFuncPointer)tool_domain_destroy);
  bad |=
      fill(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_MARK_A, (mstxFuncPointer)tool_domain_mark);
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_RANGE_START_A,
              (mstxFuncPointer)tool_domain_range_start);
  bad |= fill(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_RANGE_END,
              (mstxFuncPointer)tool_domain_range_end);
  if (bad) {
    ACL__LOGE(ACL__MOD_ASCENDCL,
              "InitInjectionMstx: the mstx header offered tables without the CORE slots 1-3 or "
              "the DOMAIN slots 1-5; mstx is not bound. Remedy: build with openacl's include/mstx/ms_tools_ext.h");
    return MSTX_FAIL;
  }
  ACL__LOGI(ACL__MOD_ASCENDCL, "mstx bound to openacl's profiler (marks and ranges go to msprof_tx)");
  return MSTX_SUCCESS;
}

/* aclprofStart with ACL_PROF_MSPROFTX (and acl.json msproftx): points the
 * mstx header at this library, unless the user chose a tool.  Effective for
 * translation units whose first mstx call comes later. */
void acl__prof_mstx_advertise(void) {
  const char *cur = getenv("MSTX_INJECTION_PATH");
  if (cur != NULL && cur[0] != '\0')
    return;
  Dl_info info;
  if (dladdr((void *)&acl__prof_mstx_advertise, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0') {
    ACL__LOGW(ACL__MOD_ASCENDCL, "cannot find the path of the library holding InitInjectionMstx; mstx calls are "
                                 "not recorded. Remedy: set MSTX_INJECTION_PATH to libascendcl.so");
    return;
  }
  if (setenv("MSTX_INJECTION_PATH", info.dli_fname, 0) == 0)
    ACL__LOGI(ACL__MOD_ASCENDCL, "MSTX_INJECTION_PATH set to %s", info.dli_fname);
}
