/*
 * init.c - the process lifecycle: aclInit, aclFinalize,
 * aclFinalizeReference, init/finalize callbacks, and the openacl
 * configuration extensions.
 *
 * Counting (as the vendor documents it): the first aclInit initialises and
 * returns 0; every later aclInit while initialised adds one and returns
 * ACL_ERROR_REPEAT_INITIALIZE.  aclFinalize tears down whatever the count;
 * aclFinalizeReference removes one and tears down at zero.
 *
 * aclInit stages, timed and logged at INFO as the init timeline:
 *   environment -> logger -> configuration -> callbacks -> device discovery
 *   -> resource manager
 * Nothing expensive happens here: no backend is loaded, no thread started,
 * no device memory reserved (that waits for aclrtSetDevice).
 *
 * Teardown order (aclFinalize, or aclFinalizeReference reaching zero):
 *   finalize callbacks -> runtime (devices reset, leaks logged) ->
 *   configuration -> log flush.
 *
 * Lock: acl__proc.lock (recursive, so that a callback may call back into
 * the lifecycle from the same thread) guards everything in acl__proc.  It
 * is the first lock in the order given in fork.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/process.h"
#include "aclnn/nn.h"
#include "common/config.h"
#include "dump/dump.h"
#include "model/model.h"
#include "prof/prof.h"
#include "common/diag.h"
#include "common/env.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "hal/hal.h"
#include "openacl/openacl.h"
#include "rt/rt.h"

#define ACL__MAX_CALLBACKS 64

typedef struct acl__callback {
  aclRegisterCallbackType type;
  void *fn;        /* aclInitCallbackFunc or aclFinalizeCallbackFunc */
  void *user_data;
} acl__callback;

static struct {
  pthread_mutex_t lock;
  pthread_once_t lock_once;
  uint64_t ref;                /* aclInit calls not yet finalised */
  int initialised;
  int forked;                  /* state was dropped in a forked child */
  acl__env env;
  acl__config *cfg;
  acl__hal_info hal;
  char *config_path;           /* as given to the first aclInit ("" for none) */
  char *config_text;           /* its content ("" for none) */
  size_t config_len;
  char *warnings;              /* "warning <source>: <key>: <message>\n" lines of this
                                  init cycle (openaclGetInitWarnings); NULL for none */
  char *effective_json;        /* made at the first openaclGetEffectiveConfig: most
                                  programs never ask, and building it costs half of aclInit */
  /* The file used by the previous init cycle: a re-init after finalize with a
   * different file is rejected, as the vendor does. */
  char *prev_path;
  char *prev_text;
  acl__callback init_cbs[ACL__MAX_CALLBACKS];
  int n_init_cbs;
  acl__callback fini_cbs[ACL__MAX_CALLBACKS];
  int n_fini_cbs;
} acl__proc = {.lock_once = PTHREAD_ONCE_INIT};

static void acl__proc_lock_init(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&acl__proc.lock, &a);
  pthread_mutexattr_destroy(&a);
  acl__fork_register_handlers();
}

static void acl__proc_lock(void) {
  pthread_once(&acl__proc.lock_once, acl__proc_lock_init);
  pthread_mutex_lock(&acl__proc.lock);
}

static void acl__proc_unlock(void) { pthread_mutex_unlock(&acl__proc.lock); }

static double acl__ms_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Warnings about the user's input are never silent: they go to the log and
 * are kept for openaclGetInitWarnings (the openacl tool prints them).  The
 * library copies them to stderr only when the log settings ask for WARNING
 * lines (ASCEND_GLOBAL_LOG_LEVEL or ASCEND_MODULE_LOG_LEVEL ASCENDCL <= 1..2)
 * and they do not reach stdout already: a program that set the level to
 * ERROR hears nothing from the library. */
static void acl__report_warnings(const acl__diags *d, const char *source) {
  int wanted = ACL__LOG_ENABLED(ACL__LOG_WARNING, ACL__MOD_ASCENDCL);
  int echo = wanted && !acl__proc.env.print_to_stdout;
  for (size_t i = 0; i < d->count; i++) {
    const acl__diag *w = &d->items[i];
    if (w->kind != ACL__DIAG_WARNING)
      continue;
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s: %s: %s", source, w->path, w->message);
    if (echo)
      fprintf(stderr, "openacl: warning: %s: %s: %s\n", source, w->path, w->message);
    size_t have = acl__proc.warnings ? strlen(acl__proc.warnings) : 0;
    size_t add = strlen(source) + strlen(w->path) + strlen(w->message) + 16;
    char *grown = realloc(acl__proc.warnings, have + add);
    if (grown == NULL)
      continue; /* the log has it; the copy is a convenience */
    snprintf(grown + have, add, "warning %s: %s: %s\n", source, w->path, w->message);
    acl__proc.warnings = grown;
  }
}

/* ---- callbacks -------------------------------------------------------- */

static int acl__callback_type_valid(aclRegisterCallbackType t) {
  return (t >= ACL_REG_TYPE_ACL_MODEL && t <= ACL_REG_TYPE_ACL_RETR) || t == ACL_REG_TYPE_OTHER;
}

/* The order the vendor documents for init callbacks; OP_EXECUTOR only runs
 * when a configuration file was given.  Types the vendor does not order run
 * between OP_EXECUTOR and DVPP, in enum order. */
static const aclRegisterCallbackType acl__init_order[] = {
    ACL_REG_TYPE_ACL_MODEL,       ACL_REG_TYPE_ACL_OP_EXECUTOR, ACL_REG_TYPE_ACL_OP_CBLAS,
    ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_TDT_CHANNEL, ACL_REG_TYPE_ACL_TDT_QUEUE,
    ACL_REG_TYPE_ACL_DVPP,        ACL_REG_TYPE_ACL_RETR,        ACL_REG_TYPE_OTHER};
static const aclRegisterCallbackType acl__fini_order[] = {
    ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL,       ACL_REG_TYPE_ACL_OP_EXECUTOR,
    ACL_REG_TYPE_ACL_OP_CBLAS,    ACL_REG_TYPE_ACL_TDT_CHANNEL, ACL_REG_TYPE_ACL_TDT_QUEUE,
    ACL_REG_TYPE_ACL_DVPP,        ACL_REG_TYPE_ACL_RETR,        ACL_REG_TYPE_OTHER};

static int acl__run_init_callback(const acl__callback *cb) {
  aclInitCallbackFunc fn = (aclInitCallbackFunc)cb->fn;
  return fn(acl__proc.config_text, acl__proc.config_len, cb->user_data);
}

static int acl__run_init_callbacks(const char *api) {
  int have_file = acl__proc.config_path[0] != '\0';
  for (size_t o = 0; o < sizeof(acl__init_order) / sizeof(acl__init_order[0]); o++) {
    if (acl__init_order[o] == ACL_REG_TYPE_ACL_OP_EXECUTOR && !have_file)
      continue;
    for (int i = 0; i < acl__proc.n_init_cbs; i++) {
      const acl__callback *cb = &acl__proc.init_cbs[i];
      if (cb->type != acl__init_order[o])
        continue;
      int rc = acl__run_init_callback(cb);
      if (rc != ACL_SUCCESS)
        return acl__fail(api, rc, __FILE__, __LINE__,
                         "the init callback %p registered for type %d returned %d, so aclInit stops. "
                         "Remedy: see why the callback failed; aclInit can be called again",
                         cb->fn, (int)cb->type, rc);
    }
  }
  return ACL_SUCCESS;
}

/* Runs every finalize callback; returns the first failure (teardown goes on). */
static int acl__run_fini_callbacks(const char *api) {
  int first = ACL_SUCCESS;
  for (size_t o = 0; o < sizeof(acl__fini_order) / sizeof(acl__fini_order[0]); o++)
    for (int i = 0; i < acl__proc.n_fini_cbs; i++) {
      const acl__callback *cb = &acl__proc.fini_cbs[i];
      if (cb->type != acl__fini_order[o])
        continue;
      int rc = ((aclFinalizeCallbackFunc)cb->fn)(cb->user_data);
      if (rc != ACL_SUCCESS && first == ACL_SUCCESS)
        first = acl__fail(api, rc, __FILE__, __LINE__,
                          "the finalize callback %p registered for type %d returned %d; teardown "
                          "finished anyway. Remedy: see why the callback failed",
                          cb->fn, (int)cb->type, rc);
    }
  return first;
}

/* Adds or updates (same type and function) an entry; -1 when the table is full. */
static int acl__callback_put(acl__callback *tab, int *n, aclRegisterCallbackType type, void *fn, void *ud) {
  for (int i = 0; i < *n; i++)
    if (tab[i].type == type && tab[i].fn == fn) {
      tab[i].user_data = ud;
      return 0;
    }
  if (*n == ACL__MAX_CALLBACKS)
    return -1;
  tab[*n].type = type;
  tab[*n].fn = fn;
  tab[*n].user_data = ud;
  (*n)++;
  return 0;
}

static int acl__callback_remove(acl__callback *tab, int *n, aclRegisterCallbackType type, void *fn) {
  for (int i = 0; i < *n; i++)
    if (tab[i].type == type && tab[i].fn == fn) {
      memmove(&tab[i], &tab[i + 1], (size_t)(*n - i - 1) * sizeof(tab[0]));
      (*n)--;
      return 0;
    }
  return -1;
}

/* ---- init / teardown -------------------------------------------------- */

/* Frees what an init cycle built.  Callbacks stay registered. */
static void acl__state_release(void) {
  acl__config_free(acl__proc.cfg);
  acl__proc.cfg = NULL;
  free(acl__proc.config_path);
  free(acl__proc.config_text);
  free(acl__proc.effective_json);
  free(acl__proc.warnings);
  acl__proc.config_path = acl__proc.config_text = acl__proc.effective_json = acl__proc.warnings = NULL;
  acl__proc.config_len = 0;
  memset(&acl__proc.hal, 0, sizeof(acl__proc.hal));
  acl__env_free(&acl__proc.env);
}

/* Reads path ("" = none) into text; records aclInit's failure. */
static int acl__load_config_text(const char *path, char **text, size_t *len) {
  if (path[0] == '\0') {
    *text = strdup("");
    *len = 0;
    return *text ? ACL_SUCCESS : acl__fail("aclInit", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
  }
  acl__diags d = {0};
  int rc = acl__config_read_file(path, text, len, &d);
  if (rc != ACL_SUCCESS) {
    const acl__diag *e = acl__diags_first_error(&d);
    rc = acl__fail("aclInit", rc, __FILE__, __LINE__, "configuration file '%s': %s", path,
                   e ? e->message : "cannot be read");
  }
  acl__diags_free(&d);
  return rc;
}

/* Parses the text of `path` ("" = no file: defaults only) into *out. */
static int acl__parse_config(const char *path, const char *text, size_t len, acl__config **out) {
  acl__diags d = {0};
  acl__config *cfg = acl__config_new();
  if (cfg == NULL)
    return acl__fail("aclInit", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
  int rc = path[0] ? acl__config_parse(cfg, text, len, &d) : ACL_SUCCESS;
  if (rc == ACL_SUCCESS)
    acl__config_apply_env(cfg, &acl__proc.env, &d);
  const acl__diag *e = acl__diags_first_error(&d);
  if (rc != ACL_SUCCESS || e != NULL) {
    if (rc == ACL_SUCCESS)
      rc = e->code;
    size_t more = acl__diags_error_count(&d) - 1;
    rc = acl__fail("aclInit", rc, __FILE__, __LINE__, "configuration file '%s': %s%s%s%s", path,
                   e ? e->path : "", e && e->path[0] ? ": " : "", e ? e->message : "invalid",
                   more ? " (there are more problems: openaclCheckConfigFile lists every one)" : "");
    acl__config_free(cfg);
  } else {
    acl__report_warnings(&d, path[0] ? path : "defaults");
    *out = cfg;
  }
  acl__diags_free(&d);
  return rc;
}

/* Logs a text longer than one log record allows, in numbered parts. */
static void acl__log_long_text(const char *what, const char *text) {
  enum { PART = 900 };
  size_t len = strlen(text), parts = (len + PART - 1) / PART;
  for (size_t i = 0; i < parts; i++)
    ACL__LOGI(ACL__MOD_ASCENDCL, "%s (%zu/%zu): %.*s", what, i + 1, parts, (int)PART, text + i * PART);
}

static int acl__init_first(const char *path) {
  struct timespec t0, ts;
  double ms_env = 0, ms_log = 0, ms_cfg = 0, ms_cb = 0, ms_disc = 0, ms_rm = 0;
  acl__diags envd = {0};
  int rc;

  clock_gettime(CLOCK_MONOTONIC, &t0);
  ts = t0;
  rc = acl__env_load(&acl__proc.env, &envd);
  ms_env = acl__ms_since(&ts);
  if (rc != ACL_SUCCESS) {
    acl__diags_free(&envd);
    acl__env_free(&acl__proc.env);
    return acl__fail("aclInit", rc, __FILE__, __LINE__, "out of host memory while reading the environment");
  }

  clock_gettime(CLOCK_MONOTONIC, &ts);
  acl__log_configure(&acl__proc.env);
  acl__report_warnings(&envd, "environment");
  acl__diags_free(&envd);
  ms_log = acl__ms_since(&ts);

  clock_gettime(CLOCK_MONOTONIC, &ts);
  acl__proc.config_path = strdup(path);
  if (acl__proc.config_path == NULL) {
    rc = acl__fail("aclInit", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
    goto fail;
  }
  rc = acl__load_config_text(path, &acl__proc.config_text, &acl__proc.config_len);
  if (rc != ACL_SUCCESS)
    goto fail;
  if (path[0] != '\0' && acl__proc.prev_path != NULL &&
      strcmp(acl__proc.prev_text, acl__proc.config_text) != 0) {
    rc = acl__fail("aclInit", ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "configuration file '%s' differs from '%s', which an earlier aclInit of this process "
                   "used; a process must keep one configuration. Remedy: use the same file in every "
                   "aclInit, or start a new process",
                   path, acl__proc.prev_path);
    goto fail;
  }
  rc = acl__parse_config(path, acl__proc.config_text, acl__proc.config_len, &acl__proc.cfg);
  if (rc != ACL_SUCCESS)
    goto fail;
  ms_cfg = acl__ms_since(&ts);

  clock_gettime(CLOCK_MONOTONIC, &ts);
  rc = acl__run_init_callbacks("aclInit");
  if (rc != ACL_SUCCESS)
    goto fail;
  ms_cb = acl__ms_since(&ts);

  clock_gettime(CLOCK_MONOTONIC, &ts);
  acl__hal_discover(&acl__proc.env, &acl__proc.hal);
  if (acl__proc.hal.visibility_error[0] != '\0')
    ACL__LOGW(ACL__MOD_ASCENDCL, "%s; device calls will fail with ACL_ERROR_RT_INVALID_DEVICEID",
              acl__proc.hal.visibility_error);
  ms_disc = acl__ms_since(&ts);

  clock_gettime(CLOCK_MONOTONIC, &ts);
  acl__errmsg_set_mode(acl__config_err_msg_mode(acl__proc.cfg));
  rc = acl__rt_init(&acl__proc.hal, acl__config_default_device(acl__proc.cfg));
  if (rc != ACL_SUCCESS) {
    rc = acl__fail("aclInit", rc, __FILE__, __LINE__, "out of host memory for the device table");
    goto fail;
  }
  ms_rm = acl__ms_since(&ts);
  acl__dump_config_from_init(acl__proc.cfg); /* the acl.json dump section takes effect (src/dump/) */
  acl__prof_process_start(acl__proc.cfg);     /* and the profiler section (src/prof/) */
  acl__nn_init(NULL);                         /* aclInit initialises aclnn too (src/aclnn/) */

  if (path[0] != '\0') {
    char *pp = strdup(path), *pt = strdup(acl__proc.config_text);
    if (pp == NULL || pt == NULL) {
      free(pp);
      free(pt);
      acl__dump_config_shutdown();
      acl__model_finalize();
      acl__rt_shutdown();
      rc = acl__fail("aclInit", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
      goto fail;
    }
    free(acl__proc.prev_path);
    free(acl__proc.prev_text);
    acl__proc.prev_path = pp;
    acl__proc.prev_text = pt;
  }

  acl__proc.initialised = 1;
  acl__proc.forked = 0;
  acl__proc.ref = 1;
  ACL__LOGI(ACL__MOD_ASCENDCL,
            "aclInit timeline: environment %.3f ms, logger %.3f ms, configuration %.3f ms, "
            "callbacks %.3f ms, device discovery %.3f ms (%d visible of %d, SoC %s), resource manager "
            "%.3f ms; total %.3f ms",
            ms_env, ms_log, ms_cfg, ms_cb, ms_disc, acl__proc.hal.visible_count, acl__proc.hal.physical_count,
            acl__proc.hal.soc_name, ms_rm, acl__ms_since(&t0));
  if (ACL__LOG_ENABLED(ACL__LOG_INFO, ACL__MOD_ASCENDCL)) {
    char *line = acl__config_to_json(acl__proc.cfg, &acl__proc.env, 1);
    acl__log_long_text("effective configuration", line ? line : "(out of memory)");
    free(line);
  }
  return ACL_SUCCESS;

fail:
  acl__state_release();
  acl__log_flush(0);
  return rc;
}

/* A repeated aclInit: counted; a different configuration is reported, and
 * the first configuration stays. */
static void acl__init_repeat(const char *path) {
  acl__proc.ref++;
  ACL__LOGI(ACL__MOD_ASCENDCL, "aclInit called again while initialised (count now %llu)",
            (unsigned long long)acl__proc.ref);
  if (strcmp(path, acl__proc.config_path) == 0 && path[0] == '\0')
    return;
  char *text = NULL;
  size_t len = 0;
  acl__diags d = {0};
  if (path[0] != '\0' && acl__config_read_file(path, &text, &len, &d) != ACL_SUCCESS) {
    acl__fail("aclInit", ACL_ERROR_REPEAT_INITIALIZE, __FILE__, __LINE__,
              "already initialised with '%s'; the new configuration file '%s' cannot be read and is "
              "ignored. Remedy: the first configuration stays in effect",
              acl__proc.config_path[0] ? acl__proc.config_path : "(no file)", path);
    goto out;
  }
  if (text == NULL)
    text = strdup("");
  if (text == NULL || strcmp(text, acl__proc.config_text) == 0)
    goto out;
  acl__config *other = acl__config_new();
  char *diff = NULL;
  if (other != NULL && (path[0] == '\0' || acl__config_parse(other, text, len, &d) == ACL_SUCCESS))
    diff = acl__config_diff(acl__proc.cfg, other);
  acl__fail("aclInit", ACL_ERROR_REPEAT_INITIALIZE, __FILE__, __LINE__,
            "already initialised with '%s'; the configuration '%s' differs (%s) and is ignored. "
            "Remedy: the first configuration stays in effect; pass the same file to every aclInit",
            acl__proc.config_path[0] ? acl__proc.config_path : "(no file)", path[0] ? path : "(no file)",
            diff && diff[0] ? diff : "the contents differ");
  free(diff);
  acl__config_free(other);
out:
  free(text);
  acl__diags_free(&d);
}

aclError aclInit(const char *configPath) {
  ACL__PROF_API_SCOPE();
  const char *path = configPath ? configPath : "";
  acl__proc_lock();
  int rc;
  if (acl__proc.initialised) {
    acl__init_repeat(path);
    rc = ACL_ERROR_REPEAT_INITIALIZE;
  } else {
    rc = acl__init_first(path);
  }
  acl__proc_unlock();
  return rc;
}

static int acl__teardown(const char *api) {
  int rc = acl__run_fini_callbacks(api);
  acl__dump_config_shutdown(); /* dump off before the models go (src/dump/) */
  acl__model_finalize();       /* models still loaded: unloaded, logged as leaked */
  acl__rt_shutdown();
  acl__prof_process_stop(); /* every task has run: the profile is written (src/prof/) */
  acl__nn_finalize();
  int flush_ms = acl__proc.env.log_flush_timeout_ms;
  acl__state_release();
  acl__proc.initialised = 0;
  acl__proc.ref = 0;
  acl__errmsg_set_mode(0);
  ACL__LOGI(ACL__MOD_ASCENDCL, "%s: openacl finalised", api);
  if (acl__log_flush(flush_ms) != 0 && flush_ms > 0)
    if (ACL__LOG_ENABLED(ACL__LOG_WARNING, ACL__MOD_ASCENDCL))
      fprintf(stderr, "openacl: warning: %s: log lines not written within ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=%d ms\n",
            api, flush_ms);
  return rc;
}

static int acl__not_initialised(const char *api) {
  if (acl__proc.forked)
    return acl__fail(api, ACL_ERROR_REPEAT_FINALIZE, __FILE__, __LINE__,
                     "this process was forked from one that had initialised openacl; a forked child "
                     "inherits nothing and was never initialised itself. Remedy: call aclInit in the "
                     "child first");
  return acl__fail(api, ACL_ERROR_REPEAT_FINALIZE, __FILE__, __LINE__,
                   "openacl is not initialised (aclInit was not called, or it was already finalised). "
                   "Remedy: call aclFinalize once after aclInit");
}

aclError aclFinalize(void) {
  ACL__PROF_API_SCOPE();
  acl__proc_lock();
  int rc = acl__proc.initialised ? acl__teardown("aclFinalize") : acl__not_initialised("aclFinalize");
  acl__proc_unlock();
  return rc;
}

aclError aclFinalizeReference(uint64_t *refCount) {
  ACL__PROF_API_SCOPE();
  acl__proc_lock();
  int rc = ACL_SUCCESS;
  if (!acl__proc.initialised)
    rc = acl__not_initialised("aclFinalizeReference");
  else if (acl__proc.ref > 1)
    acl__proc.ref--;
  else
    rc = acl__teardown("aclFinalizeReference");
  if (refCount != NULL)
    *refCount = acl__proc.ref;
  acl__proc_unlock();
  return rc;
}

aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData) {
  ACL__PROF_API_SCOPE();
  if (cbFunc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cbFunc is NULL; pass the callback to register");
  if (!acl__callback_type_valid(type))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "type %d is not an aclRegisterCallbackType", (int)type);
  acl__proc_lock();
  int rc = ACL_SUCCESS;
  if (acl__proc.initialised) {
    /* Registered after aclInit: runs at once; a failure leaves it unregistered. */
    acl__callback cb = {type, (void *)cbFunc, userData};
    rc = acl__run_init_callback(&cb);
    if (rc != ACL_SUCCESS)
      rc = ACL__FAIL(rc, "the callback ran at once (openacl is already initialised) and returned %d; it "
                         "was not registered", rc);
  }
  if (rc == ACL_SUCCESS &&
      acl__callback_put(acl__proc.init_cbs, &acl__proc.n_init_cbs, type, (void *)cbFunc, userData) != 0)
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%d init callbacks are registered already; that is the limit",
                   ACL__MAX_CALLBACKS);
  acl__proc_unlock();
  return rc;
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  ACL__PROF_API_SCOPE();
  if (cbFunc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cbFunc is NULL");
  acl__proc_lock();
  int rc = acl__callback_remove(acl__proc.init_cbs, &acl__proc.n_init_cbs, type, (void *)cbFunc);
  acl__proc_unlock();
  return rc == 0 ? ACL_SUCCESS
                 : ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                             "no init callback %p is registered for type %d", (void *)cbFunc, (int)type);
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                     void *userData) {
  ACL__PROF_API_SCOPE();
  if (cbFunc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cbFunc is NULL; pass the callback to register");
  if (!acl__callback_type_valid(type))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "type %d is not an aclRegisterCallbackType", (int)type);
  acl__proc_lock();
  int rc = acl__callback_put(acl__proc.fini_cbs, &acl__proc.n_fini_cbs, type, (void *)cbFunc, userData);
  acl__proc_unlock();
  return rc == 0 ? ACL_SUCCESS
                 : ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                             "%d finalize callbacks are registered already; that is the limit", ACL__MAX_CALLBACKS);
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc) {
  ACL__PROF_API_SCOPE();
  if (cbFunc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cbFunc is NULL");
  acl__proc_lock();
  int rc = acl__callback_remove(acl__proc.fini_cbs, &acl__proc.n_fini_cbs, type, (void *)cbFunc);
  acl__proc_unlock();
  return rc == 0 ? ACL_SUCCESS
                 : ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                             "no finalize callback %p is registered for type %d", (void *)cbFunc, (int)type);
}

/* ---- for the rest of the library ------------------------------------- */

int acl__process_require_init(const char *api) {
  acl__proc_lock();
  int ok = acl__proc.initialised, forked = acl__proc.forked;
  acl__proc_unlock();
  if (ok)
    return ACL_SUCCESS;
  if (forked)
    return acl__fail(api, ACL_ERROR_UNINITIALIZE, __FILE__, __LINE__,
                     "this process was forked from one that had initialised openacl, and a forked child "
                     "inherits nothing. Remedy: call aclInit in the child first");
  return acl__fail(api, ACL_ERROR_UNINITIALIZE, __FILE__, __LINE__,
                   "openacl is not initialised. Remedy: call aclInit first");
}

int acl__process_precision_mode(void) {
  acl__proc_lock();
  int m = acl__proc.initialised ? acl__proc.env.precision_mode : 0;
  acl__proc_unlock();
  return m;
}

const acl__hal_info *acl__process_hal_info(void) {
  acl__proc_lock();
  const acl__hal_info *h = acl__proc.initialised ? &acl__proc.hal : NULL;
  acl__proc_unlock();
  return h;
}

void acl__process_atfork_prepare(void) { acl__proc_lock(); }
void acl__process_atfork_parent(void) { acl__proc_unlock(); }

void acl__process_atfork_child(void) {
  /* Only this thread exists now; the parent's state is consistent (we held
   * the lock) and is dropped.  Callbacks stay registered, as in the parent. */
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&acl__proc.lock, &a);
  pthread_mutexattr_destroy(&a);
  if (acl__proc.initialised) {
    acl__rt_atfork_child();
    acl__state_release();
    acl__proc.initialised = 0;
    acl__proc.ref = 0;
    acl__proc.forked = 1;
  }
}

/* ---- openacl extensions ------------------------------------------------ */

/* Copies text into buf as openacl's buffer convention says. */
static int acl__copy_out(const char *api, const char *text, char *buf, size_t size, size_t *needed, int truncate_ok) {
  size_t n = strlen(text) + 1;
  if (needed == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "needed is NULL");
  *needed = n;
  if (buf == NULL && size != 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "buf is NULL but bufSize is %zu", size);
  if (size >= n) {
    memcpy(buf, text, n);
    return ACL_SUCCESS;
  }
  if (size > 0) {
    memcpy(buf, text, size - 1);
    buf[size - 1] = '\0';
  }
  if (truncate_ok)
    return ACL_SUCCESS;
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "the buffer holds %zu bytes but %zu are needed. Remedy: call again with a buffer of "
                   "*needed bytes",
                   size, n);
}

aclError openaclGetEffectiveConfig(char *buf, size_t bufSize, size_t *needed) {
  acl__proc_lock();
  int rc;
  if (!acl__proc.initialised) {
    rc = acl__process_require_init(__func__);
  } else {
    if (acl__proc.effective_json == NULL)
      acl__proc.effective_json = acl__config_to_json(acl__proc.cfg, &acl__proc.env, 0);
    rc = acl__proc.effective_json == NULL ? ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory")
                                          : acl__copy_out(__func__, acl__proc.effective_json, buf, bufSize, needed, 0);
  }
  acl__proc_unlock();
  return rc;
}

aclError openaclGetInitWarnings(char *buf, size_t bufSize, size_t *needed) {
  acl__proc_lock();
  int rc = !acl__proc.initialised
               ? acl__process_require_init(__func__)
               : acl__copy_out(__func__, acl__proc.warnings ? acl__proc.warnings : "", buf, bufSize, needed, 0);
  acl__proc_unlock();
  return rc;
}

aclError openaclCheckConfigFile(const char *path, char *report, size_t reportSize, size_t *needed) {
  if (path == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "path is NULL; pass the acl.json file to check");
  acl__diags d = {0};
  acl__env env;
  char *text = NULL, *out = NULL, *json = NULL;
  size_t len = 0;
  acl__config *cfg = NULL;
  int rc = acl__env_load(&env, NULL);
  if (rc == ACL_SUCCESS)
    rc = acl__config_read_file(path, &text, &len, &d);
  if (rc == ACL_SUCCESS) {
    cfg = acl__config_new();
    rc = cfg ? acl__config_parse(cfg, text, len, &d) : ACL_ERROR_BAD_ALLOC;
    if (rc == ACL_SUCCESS)
      acl__config_apply_env(cfg, &env, &d);
    const acl__diag *e = acl__diags_first_error(&d);
    if (rc == ACL_SUCCESS && e != NULL)
      rc = e->code;
  }
  /* One line per problem, then the effective configuration when valid. */
  size_t cap = 256, pos = 0;
  for (size_t i = 0; i < d.count; i++)
    cap += strlen(d.items[i].path) + strlen(d.items[i].message) + 16;
  if (rc == ACL_SUCCESS && (json = acl__config_to_json(cfg, &env, 0)) != NULL)
    cap += strlen(json);
  out = malloc(cap);
  if (out != NULL) {
    out[0] = '\0';
    for (size_t i = 0; i < d.count; i++)
      pos += (size_t)snprintf(out + pos, cap - pos, "%s %s: %s\n",
                              d.items[i].kind == ACL__DIAG_ERROR ? "error" : "warning",
                              d.items[i].path[0] ? d.items[i].path : "(file)", d.items[i].message);
    if (json != NULL)
      snprintf(out + pos, cap - pos, "%s\n", json);
  }
  int crc = (report != NULL || needed != NULL)
                ? (out ? acl__copy_out(__func__, out, report, reportSize, needed, 1) : ACL_ERROR_BAD_ALLOC)
                : ACL_SUCCESS;
  if (rc == ACL_SUCCESS)
    rc = crc;
  free(out);
  free(json);
  free(text);
  acl__config_free(cfg);
  acl__diags_free(&d);
  acl__env_free(&env);
  return rc;
}

/* At process exit without aclFinalize (or after it): write out buffered log
 * lines.  Nothing else is torn down here: other threads may still run, and
 * the operating system reclaims the rest. */
__attribute__((destructor)) static void acl__at_exit(void) { acl__log_flush(0); }
