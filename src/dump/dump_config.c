/*
 * dump_config.c - the active dump configuration (dump.h): a counted
 * snapshot of one `dump` section, from acl.json at aclInit or from the file
 * of aclmdlSetDump, and the aclmdlInitDump / SetDump / FinalizeDump rules
 * (prof-dump §4.1):
 *
 *   before aclInit                      ACL_ERROR_UNINITIALIZE (the API file checks)
 *   aclmdlInitDump twice                ACL_ERROR_REPEAT_INITIALIZE
 *   aclmdlInitDump after acl.json dump  ACL_ERROR_DUMP_ALREADY_RUN (uncertain: docs only)
 *   Set / Finalize without Init         ACL_ERROR_DUMP_NOT_RUN
 *   SetDump(NULL)                       ACL_ERROR_INVALID_PARAM
 *   unreadable / unparsable file        the JSON reader's code (100003 / 100006)
 *   rejected dump section, or a dump_path that cannot be created and written
 *                                       ACL_ERROR_INVALID_DUMP_CONFIG
 *
 * A model keeps the configuration in force when it was loaded (SetDump
 * applies to models loaded after it).  aclmdlFinalizeDump and aclFinalize
 * end every configuration at once by moving the dump epoch.
 *
 * Lock: cfg_lock guards the fields marked so; a leaf.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/config.h"
#include "common/config_internal.h"
#include "common/diag.h"
#include "common/env.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "dump/dump.h"

static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;
static acl__dump_cfg *active;         /* cfg_lock */
static int api_inited;                /* cfg_lock: aclmdlInitDump called, no FinalizeDump yet */
static int from_init;                 /* cfg_lock: acl.json turned dump on at aclInit */
static unsigned dump_epoch;           /* atomic */
static char path_data[PATH_MAX + 32]; /* cfg_lock: acldumpGetPath(DATA_DUMP / OVERFLOW_DUMP) */
static char path_exc[PATH_MAX + 32];  /* cfg_lock: acldumpGetPath(AIC_ERR_*) */

int acl__dump_cfg_live(const acl__dump_cfg *c) { return c->epoch == __atomic_load_n(&dump_epoch, __ATOMIC_ACQUIRE); }

void acl__dump_cfg_release(acl__dump_cfg *c) {
  if (c == NULL || __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  for (size_t i = 0; i < c->n_list; i++) {
    acl__dump_entry *e = &c->list[i];
    free(e->model_name);
    for (size_t k = 0; k < e->n_layer; k++)
      free(e->layer[k]);
    for (size_t k = 0; k < e->n_watch; k++)
      free(e->watch[k]);
    free(e->layer);
    free(e->watch);
  }
  free(c->list);
  free(c->path);
  free(c->base);
  free(c->exc_root);
  free(c);
}

int acl__dump_cfg_any(void) { return __atomic_load_n(&active, __ATOMIC_ACQUIRE) != NULL; }

acl__dump_cfg *acl__dump_cfg_current(void) {
  pthread_mutex_lock(&cfg_lock);
  acl__dump_cfg *c = active;
  if (c != NULL)
    __atomic_add_fetch(&c->refs, 1, __ATOMIC_ACQ_REL);
  pthread_mutex_unlock(&cfg_lock);
  return c;
}

static int copy_list(char ***dst, size_t *n, const strlist *src) {
  *n = 0;
  *dst = calloc(src->count ? src->count : 1, sizeof(**dst));
  if (*dst == NULL)
    return -1;
  for (size_t i = 0; i < src->count; i++) {
    if (((*dst)[i] = strdup(src->items[i])) == NULL)
      return -1;
    (*n)++;
  }
  return 0;
}

/* The snapshot of a parsed section (environment applied); *out NULL when it
 * turns nothing on.  0 or ACL_ERROR_BAD_ALLOC. */
static int cfg_build(const acl__config *src, acl__dump_cfg **out) {
  *out = NULL;
  dump_state st;
  acl__cfg_dump_state_of(src, &st);
  if (!(st.model || st.op || st.overflow || st.exception || st.watcher))
    return 0;
  acl__dump_cfg *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return ACL_ERROR_BAD_ALLOC;
  c->refs = 1;
  c->epoch = __atomic_load_n(&dump_epoch, __ATOMIC_ACQUIRE);
  c->model = st.model;
  c->op = st.op;
  c->overflow = st.overflow;
  c->exception = st.exception;
  c->watcher = st.watcher;
  c->mode = st.overflow ? DUMP_MODE_ALL : src->dump_mode; /* overflow dumps inputs and outputs */
  c->stats = src->dump_data == DUMP_DATA_STATS;
  c->stats_cols = src->dump_stats;
  c->level = src->dump_level;
  int bad = 0;
  if (src->dump_path_abs != NULL) {
    char stamp[32];
    acl__dump_stamp_s(stamp, sizeof(stamp));
    c->path = strdup(src->dump_path_abs);
    size_t n = strlen(src->dump_path_abs);
    int slash = n > 0 && src->dump_path_abs[n - 1] == '/'; /* "./" gives "<cwd>/<stamp>", not "<cwd>//<stamp>" */
    bad |= c->path == NULL || asprintf(&c->base, "%s%s%s", src->dump_path_abs, slash ? "" : "/", stamp) < 0;
  }
  if (src->exception_path != NULL)
    bad |= (c->exc_root = strdup(src->exception_path)) == NULL;
  c->list = calloc(src->dump_list_count ? src->dump_list_count : 1, sizeof(*c->list));
  bad |= c->list == NULL;
  for (size_t i = 0; !bad && i < src->dump_list_count; i++) {
    const dump_entry *e = &src->dump_list[i];
    acl__dump_entry *d = &c->list[c->n_list++];
    if (e->model_name != NULL)
      bad |= (d->model_name = strdup(e->model_name)) == NULL;
    d->all_layers = e->layer.count == 0;
    bad |= copy_list(&d->layer, &d->n_layer, &e->layer) != 0;
    bad |= copy_list(&d->watch, &d->n_watch, &e->watcher_nodes) != 0;
  }
  if (bad) {
    acl__dump_cfg_release(c);
    return ACL_ERROR_BAD_ALLOC;
  }
  *out = c;
  return 0;
}

/* Makes c (may be NULL) the active configuration; with cfg_lock held. */
static void set_active_locked(acl__dump_cfg *c) {
  acl__dump_cfg_release(active);
  __atomic_store_n(&active, c, __ATOMIC_RELEASE);
  path_data[0] = '\0';
  if (c != NULL && c->base != NULL)
    snprintf(path_data, sizeof(path_data), "%s", c->base);
}

static void log_on(const char *how, const acl__dump_cfg *c) {
  ACL__LOGI(ACL__MOD_ASCENDCL, "dump on (%s):%s%s%s%s%s, data '%s', exception root '%s'", how, c->model ? " model" : "",
            c->op ? " operator" : "", c->overflow ? " overflow" : "", c->exception ? " exception" : "",
            c->watcher ? " watcher" : "", c->base ? c->base : "-", c->exc_root ? c->exc_root : "-");
}

void acl__dump_config_from_init(const struct acl__config *cfg) {
  acl__dump_cfg *c = NULL;
  if (cfg == NULL)
    return;
  if (cfg_build(cfg, &c) != 0) {
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: out of host memory; the acl.json dump section has no effect");
    return;
  }
  if (c == NULL)
    return;
  acl__dump_exception_hook_install();
  log_on("acl.json", c);
  pthread_mutex_lock(&cfg_lock);
  set_active_locked(c);
  from_init = 1;
  pthread_mutex_unlock(&cfg_lock);
}

void acl__dump_config_shutdown(void) {
  pthread_mutex_lock(&cfg_lock);
  __atomic_add_fetch(&dump_epoch, 1, __ATOMIC_ACQ_REL);
  set_active_locked(NULL);
  api_inited = 0;
  from_init = 0;
  pthread_mutex_unlock(&cfg_lock);
  acl__dump_cb_unregister();
}

int acl__dump_init_api(const char *api) {
  int rc = 0;
  pthread_mutex_lock(&cfg_lock);
  if (api_inited)
    rc = acl__fail(api, ACL_ERROR_REPEAT_INITIALIZE, __FILE__, __LINE__,
                   "aclmdlInitDump was already called. Remedy: call aclmdlFinalizeDump before initialising again");
  else if (from_init && active != NULL)
    rc = acl__fail(api, ACL_ERROR_DUMP_ALREADY_RUN, __FILE__, __LINE__,
                   "dump is already configured by the dump section of the aclInit configuration file. Remedy: "
                   "configure dump either in acl.json or with aclmdlInitDump/aclmdlSetDump, not both");
  else
    api_inited = 1;
  pthread_mutex_unlock(&cfg_lock);
  return rc;
}

/* The file's dump section, validated and with the environment applied. */
static int read_section(const char *api, const char *path, acl__config **out) {
  int rc = 0;
  char *text = NULL;
  size_t len = 0;
  acl__diags d = {0};
  acl__env env;
  int have_env = 0;
  acl__config *cfg = acl__config_new();
  *out = NULL;
  if (cfg == NULL) {
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
    goto done;
  }
  rc = acl__config_read_file(path, &text, &len, &d);
  if (rc == 0)
    rc = acl__config_parse(cfg, text, len, &d);
  if (rc != 0) {
    const acl__diag *e = acl__diags_first_error(&d);
    rc = acl__fail(api, rc, __FILE__, __LINE__, "dump configuration file '%s': %s%s%s", path, e != NULL ? e->path : "",
                   e != NULL && e->path[0] ? ": " : "", e != NULL ? e->message : "rejected");
    goto done;
  }
  if (!cfg->dump_present) {
    rc = acl__fail(api, ACL_ERROR_INVALID_DUMP_CONFIG, __FILE__, __LINE__,
                   "dump configuration file '%s' has no \"dump\" object. Remedy: write the settings as in acl.json, "
                   "e.g. {\"dump\": {\"dump_path\": \"out\", \"dump_list\": [{\"model_name\": \"resnet50\"}]}}",
                   path);
    goto done;
  }
  acl__diags_free(&d);
  memset(&d, 0, sizeof(d));
  have_env = acl__env_load(&env, &d) == 0;
  acl__config_apply_env(cfg, have_env ? &env : NULL, &d);
  *out = cfg;
  cfg = NULL;
done:
  if (have_env)
    acl__env_free(&env);
  acl__diags_free(&d);
  acl__config_free(cfg);
  free(text);
  return rc;
}

int acl__dump_set_api(const char *api, const char *path) {
  int rc = 0;
  acl__config *cfg = NULL;
  acl__dump_cfg *c = NULL;
  if (path == NULL) /* null pointers first, as everywhere in openacl */
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "dumpCfgPath is NULL; pass the path of a JSON file with a \"dump\" object");
  pthread_mutex_lock(&cfg_lock);
  int inited = api_inited;
  pthread_mutex_unlock(&cfg_lock);
  if (!inited)
    return acl__fail(api, ACL_ERROR_DUMP_NOT_RUN, __FILE__, __LINE__,
                     "dump is not initialised. Remedy: call aclmdlInitDump first");
  if ((rc = read_section(api, path, &cfg)) != 0)
    goto done;
  if ((rc = cfg_build(cfg, &c)) != 0) {
    rc = acl__fail(api, rc, __FILE__, __LINE__, "out of host memory");
    goto done;
  }
  if (c != NULL && c->path != NULL && (c->model || c->op || c->overflow || c->watcher) &&
      (acl__dump_mkdirs(c->path) != 0 || access(c->path, W_OK | X_OK) != 0)) {
    rc = acl__fail(api, ACL_ERROR_INVALID_DUMP_CONFIG, __FILE__, __LINE__,
                   "dump_path '%s' (from '%s') cannot be created or written: %s. Remedy: choose a directory this "
                   "process may write",
                   c->path, path, strerror(errno));
    goto done;
  }
  if (c != NULL) {
    acl__dump_exception_hook_install();
    log_on(path, c);
  } else {
    ACL__LOGW(ACL__MOD_ASCENDCL, "dump: '%s' turns no dump on; models loaded from now on are not dumped", path);
  }
  pthread_mutex_lock(&cfg_lock);
  if (api_inited) {
    set_active_locked(c); /* models loaded earlier keep theirs */
    c = NULL;
  } else {
    rc = acl__fail(api, ACL_ERROR_DUMP_NOT_RUN, __FILE__, __LINE__,
                   "aclmdlFinalizeDump ran meanwhile on another thread. Remedy: call aclmdlInitDump first");
  }
  pthread_mutex_unlock(&cfg_lock);
done:
  acl__dump_cfg_release(c);
  acl__config_free(cfg);
  return rc;
}

int acl__dump_finalize_api(const char *api) {
  int rc = 0;
  pthread_mutex_lock(&cfg_lock);
  if (!api_inited) {
    rc = acl__fail(api, ACL_ERROR_DUMP_NOT_RUN, __FILE__, __LINE__,
                   "dump is not initialised. Remedy: call aclmdlInitDump (and aclmdlSetDump) first");
  } else {
    __atomic_add_fetch(&dump_epoch, 1, __ATOMIC_ACQ_REL);
    set_active_locked(NULL);
    api_inited = 0;
  }
  pthread_mutex_unlock(&cfg_lock);
  return rc;
}

const char *acl__dump_get_path(acldumpType type) {
  const char *r = NULL;
  pthread_mutex_lock(&cfg_lock);
  if (type == DATA_DUMP || type == OVERFLOW_DUMP) {
    r = path_data[0] != '\0' ? path_data : NULL;
  } else if (type == AIC_ERR_BRIEF_DUMP || type == AIC_ERR_NORM_DUMP || type == AIC_ERR_DETAIL_DUMP) {
    const char *root = active != NULL && active->exc_root != NULL ? active->exc_root
                       : active != NULL && active->path != NULL   ? active->path
                                                                  : ".";
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof(tmp), "%s/extra-info/data-dump", root);
    if (acl__dump_mkdirs(tmp) == 0 && realpath(tmp, path_exc) != NULL)
      r = path_exc;
  }
  pthread_mutex_unlock(&cfg_lock);
  return r;
}
