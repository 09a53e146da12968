/*
 * graph.c - model runtime instances (aclmdlRI, "ACL graph"): the objects,
 * their lanes, lifetime, names and queries, and the debug dumps.  How an
 * RI is filled is in graph_capture.c (capture) and graph_build.c (build
 * mode), how it runs in graph_replay.c; graph_impl.h has the shapes and
 * the lock order.  docs/graphs.md has the user's view.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/graph_impl.h"

pthread_mutex_t acl__g_lock = PTHREAD_MUTEX_INITIALIZER;
_Thread_local acl__task *acl__ri_last_task;
_Thread_local acl__ri *acl__ri_last_ri;
acl__ri *acl__g_ris;
static atomic_uint g_next_id;

static const char *kind_name(int k) {
  switch (k) {
  case ACL_MODEL_RI_TASK_KERNEL:
    return "kernel";
  case ACL_MODEL_RI_TASK_EVENT_RECORD:
    return "event record";
  case ACL_MODEL_RI_TASK_EVENT_WAIT:
    return "event wait";
  case ACL_MODEL_RI_TASK_EVENT_RESET:
    return "event reset";
  case ACL_MODEL_RI_TASK_VALUE_WRITE:
    return "value write";
  case ACL_MODEL_RI_TASK_VALUE_WAIT:
    return "value wait";
  default:
    return "default";
  }
}

const char *acl__graph_kind_name(int k) { return kind_name(k); }

acl__ri *acl__ri_resolve(const char *api, aclmdlRI modelRI, int *rc) {
  if (!acl__handle_valid(modelRI, ACL__H_MODEL_RI)) {
    *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                    "modelRI %p is not a live model runtime instance (destroyed, discarded by an invalidated "
                    "capture, or not an aclmdlRI). Remedy: pass the handle aclmdlRICaptureEnd or aclmdlRIBuildBegin "
                    "gave",
                    modelRI);
    return NULL;
  }
  return (acl__ri *)modelRI;
}

acl__task *acl__ri_task_resolve(const char *api, aclmdlRITask task, int *rc) {
  if (!acl__handle_valid(task, ACL__H_RI_TASK)) {
    *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                    "task %p is not a task of a live model runtime instance. Remedy: pass a handle from "
                    "aclmdlRIGetTasksByStream",
                    task);
    return NULL;
  }
  return (acl__task *)task;
}

/* ---- objects ---------------------------------------------------------------- */

acl__ri *acl__ri_new(acl__context *ctx, ri_kind kind) {
  acl__ri *ri = calloc(1, sizeof(*ri));
  if (ri == NULL)
    return NULL;
  pthread_mutex_init(&ri->lock, NULL);
  pthread_cond_init(&ri->idle, NULL);
  ri->ctx = ctx;
  ri->dev = ctx->dev;
  ri->kind = kind;
  ri->recording = 1;
  ri->id = atomic_fetch_add(&g_next_id, 1);
  return ri;
}

ri_lane *acl__ri_add_lane(acl__ri *ri, acl__stream *s, uint32_t flag) {
  if (ri->nlanes == ri->cap_lanes) {
    uint32_t cap = ri->cap_lanes ? ri->cap_lanes * 2 : 4;
    ri_lane **nl = realloc(ri->lanes, cap * sizeof(*nl));
    if (nl == NULL)
      return NULL;
    ri->lanes = nl;
    ri->cap_lanes = cap;
  }
  ri_lane *l = calloc(1, sizeof(*l));
  if (l == NULL)
    return NULL;
  l->ri = ri;
  l->index = ri->nlanes;
  l->s = s;
  l->sid = s->id;
  l->flag = flag;
  l->bound = 1;
  ri->lanes[ri->nlanes++] = l;
  return l;
}

int acl__ri_append_locked(acl__capture *h, acl__task *t) {
  ri_lane *l = h->lane;
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? l->cap * 2 : 16;
    acl__task **nt = realloc(l->tasks, cap * sizeof(*nt));
    if (nt == NULL)
      return ACL_ERROR_BAD_ALLOC;
    l->tasks = nt;
    l->cap = cap;
  }
  t->seq = l->n + 1;
  t->next = NULL;
  if (t->executor_only)
    h->ri->executor_only = 1;
  l->tasks[l->n++] = t;
  acl__handle_register(t, ACL__H_RI_TASK);
  acl__ri_last_task = t;
  acl__ri_last_ri = h->ri;
  return 0;
}

acl__task *acl__ri_ctl_new(size_t extra, acl__task_run_fn run, const char *what) {
  acl__task *t = acl__task_new(extra, run, what);
  if (t != NULL)
    t->ri_ok = 1;
  return t;
}

int acl__ri_seal(const char *api, acl__ri *ri) {
  uint32_t ne = atomic_load(&ri->nedges);
  if (ne > 0 && (ri->edge_gen = calloc(ne, sizeof(*ri->edge_gen))) == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for aclmdlRI %u", ri->id);
  ri->main = NULL;
  for (uint32_t i = 0; i < ri->nlanes && ri->main == NULL; i++)
    if (ri->lanes[i]->flag == ACL_MODEL_STREAM_FLAG_HEAD)
      ri->main = ri->lanes[i];
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    ri_lane *l = ri->lanes[i];
    for (uint32_t j = 0; j < l->n; j++)
      if (acl__event_task_is_ext_record(l->tasks[j])) {
        acl__task **nx = realloc(ri->ext_records, (ri->n_ext + 1) * sizeof(*nx));
        if (nx == NULL)
          return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for aclmdlRI %u",
                           ri->id);
        ri->ext_records = nx;
        ri->ext_records[ri->n_ext++] = l->tasks[j];
      }
    /* a captured RI's main lane is only ever run by the replay task; in a
     * built one any lane may be activated */
    if ((l == ri->main && ri->kind == RI_CAPTURED) || l->runner != NULL || ri->kind == RI_BRANCH)
      continue;
    if ((l->runner = acl__stream_new(ri->ctx, 0, 0, 0)) == NULL)
      return acl__fail(api, ACL_ERROR_RT_NO_STREAM_RESOURCE, __FILE__, __LINE__,
                       "no stream left on device %d to run lane %u of aclmdlRI %u. Remedy: destroy streams you no "
                       "longer use",
                       (int)ri->dev->id, i, ri->id);
  }
  return 0;
}

void acl__ri_publish(acl__ri *ri) {
  pthread_mutex_lock(&ri->lock);
  ri->recording = 0;
  pthread_mutex_unlock(&ri->lock);
  if (ri->kind == RI_BRANCH)
    return; /* owned by its parent */
  pthread_mutex_lock(&acl__g_lock);
  ri->next = acl__g_ris;
  acl__g_ris = ri;
  pthread_mutex_unlock(&acl__g_lock);
}

static void ri_unlist(acl__ri *ri) {
  pthread_mutex_lock(&acl__g_lock);
  for (acl__ri **pp = &acl__g_ris; *pp != NULL; pp = &(*pp)->next)
    if (*pp == ri) {
      *pp = ri->next;
      break;
    }
  pthread_mutex_unlock(&acl__g_lock);
}

void acl__ri_free(acl__ri *ri) {
  acl__handle_unregister(ri);
  for (uint32_t i = 0; i < ri->nbranches; i++)
    acl__ri_free(ri->branches[i]);
  free(ri->branches);
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    ri_lane *l = ri->lanes[i];
    for (uint32_t j = 0; j < l->n; j++) {
      acl__task *t = l->tasks[j];
      acl__handle_unregister(t);
      if (t->release != NULL)
        t->release(t);
      else
        free(t);
    }
    free(l->tasks);
    free(l->off);
    if (l->runner != NULL)
      acl__stream_destroy(l->runner, 0, "aclmdlRIDestroy");
    free(l);
  }
  free(ri->lanes);
  free(ri->edge_gen);
  free(ri->ext_records);
  free(ri->live);
  acl__ri_cond_free(ri);
  acl__ri_update_free(ri);
  for (int i = 0; i < ri->ncbs; i++)
    ri->cbs[i].fn(ri->cbs[i].user);
  free(ri->cbs);
  pthread_cond_destroy(&ri->idle);
  pthread_mutex_destroy(&ri->lock);
  free(ri);
}

/* ---- lifetime ---------------------------------------------------------------- */

int acl__graph_destroy(const char *api, acl__ri *ri) {
  pthread_mutex_lock(&ri->lock);
  int recording = ri->recording, queued = ri->queued;
  /* a discarded replay's runners are winding down: they end at their next task */
  while (queued == 0 && ri->busy && ri->aborting)
    pthread_cond_wait(&ri->idle, &ri->lock);
  int busy = ri->busy;
  pthread_mutex_unlock(&ri->lock);
  if (ri->kind == RI_BRANCH)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is a branch of a conditional task of aclmdlRI %u and goes with it. Remedy: "
                     "destroy the root model runtime instance",
                     ri->id, ri->parent->id);
  if (recording)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is still being captured or built. Remedy: end it with aclmdlRICaptureEnd or "
                     "aclmdlRIBuildEnd first",
                     ri->id);
  if (queued > 0 || busy)
    return acl__fail(api, ACL_ERROR_RT_MODEL_RUNNING, __FILE__, __LINE__,
                     "aclmdlRI %u has %d replay(s) queued or running. Remedy: synchronize the streams it was "
                     "executed on before destroying it",
                     ri->id, queued > 0 ? queued : 1);
  ri_unlist(ri);
  acl__graph_unbind_all(ri);
  acl__ri_free(ri);
  return 0;
}

void acl__graph_context_gone(acl__context *c) {
  /* after the context's streams: no replay of its RIs runs any more */
  for (;;) {
    pthread_mutex_lock(&acl__g_lock);
    acl__ri *ri = acl__g_ris, **pp = &acl__g_ris;
    while (ri != NULL && (ri->ctx != c || ri->queued > 0)) { /* a replay outlived its stream: keep it */
      pp = &ri->next;
      ri = ri->next;
    }
    if (ri != NULL)
      *pp = ri->next;
    pthread_mutex_unlock(&acl__g_lock);
    if (ri == NULL)
      return;
    ACL__LOGW(ACL__MOD_RUNTIME, "aclmdlRI %u was not destroyed before its context went; destroyed now", ri->id);
    acl__graph_unbind_all(ri);
    acl__ri_free(ri);
  }
}

int acl__graph_callback(const char *api, acl__ri *ri, aclrtCallback fn, void *user, int add) {
  int rc = 0;
  pthread_mutex_lock(&ri->lock);
  if (add) {
    ri_cb *n = realloc(ri->cbs, (size_t)(ri->ncbs + 1) * sizeof(*n));
    if (n == NULL) {
      rc = ACL_ERROR_BAD_ALLOC;
    } else {
      ri->cbs = n;
      ri->cbs[ri->ncbs].fn = fn;
      ri->cbs[ri->ncbs].user = user;
      ri->ncbs++;
    }
  } else {
    int found = 0;
    for (int i = 0; i < ri->ncbs; i++)
      if (ri->cbs[i].fn == fn) {
        memmove(&ri->cbs[i], &ri->cbs[i + 1], (size_t)(ri->ncbs - i - 1) * sizeof(ri_cb));
        ri->ncbs--;
        found = 1;
        break;
      }
    if (!found)
      rc = ACL_ERROR_RT_PARAM_INVALID;
  }
  uint32_t id = ri->id;
  pthread_mutex_unlock(&ri->lock);
  if (rc == ACL_ERROR_BAD_ALLOC)
    return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory for a destroy callback");
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__,
                     "this function is not registered as a destroy callback of aclmdlRI %u. Remedy: pass the "
                     "function given to aclmdlRIDestroyRegisterCallback",
                     id);
  return 0;
}

/* ---- names and queries ---------------------------------------------------------- */
int acl__graph_set_name(acl__ri *ri, const char *name) {
  pthread_mutex_lock(&ri->lock);
  snprintf(ri->name, sizeof(ri->name), "%s", name);
  pthread_mutex_unlock(&ri->lock);
  return 0;
}

int acl__graph_get_name(const char *api, acl__ri *ri, uint32_t max_len, char *name) {
  pthread_mutex_lock(&ri->lock);
  size_t len = strlen(ri->name);
  int ok = (size_t)max_len >= len + 1;
  if (ok)
    memcpy(name, ri->name, len + 1);
  pthread_mutex_unlock(&ri->lock);
  if (!ok)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "maxLen %u is too small for the name of aclmdlRI %u (%zu bytes with its terminating NUL). "
                     "Remedy: pass a buffer of at least %zu bytes (512 holds any name)",
                     max_len, ri->id, len + 1, len + 1);
  return 0;
}

uint32_t acl__graph_id(acl__ri *ri) { return ri->id; }

int acl__graph_streams(acl__ri *ri, aclrtStream *streams, uint32_t *n) {
  uint32_t total = ri->nlanes, give = total;
  int small = 0;
  if (streams != NULL) {
    if (*n < total) {
      give = *n;
      small = 1;
    }
    for (uint32_t i = 0; i < give; i++)
      streams[i] = ri->lanes[i]->s;
    for (uint32_t i = give; i < *n; i++)
      streams[i] = NULL;
  }
  *n = give;
  return small;
}

int acl__graph_tasks_of_stream(acl__stream *s, aclmdlRITask *tasks, uint32_t *n) {
  pthread_mutex_lock(&acl__g_lock);
  ri_lane *l = NULL;
  for (acl__ri *ri = acl__g_ris; ri != NULL && l == NULL; ri = ri->next)
    for (uint32_t i = 0; i < ri->nlanes; i++)
      if (ri->lanes[i]->s == s) {
        l = ri->lanes[i];
        break;
      }
  uint32_t total = l != NULL ? l->n : 0, give = total;
  int small = 0;
  if (tasks != NULL) {
    if (*n < total) {
      give = *n;
      small = 1;
    }
    for (uint32_t i = 0; i < give; i++)
      tasks[i] = l->tasks[i];
    for (uint32_t i = give; i < *n; i++)
      tasks[i] = NULL;
  }
  *n = give;
  pthread_mutex_unlock(&acl__g_lock);
  return small;
}

uint32_t acl__graph_task_seq(acl__task *t) { return (uint32_t)t->seq; }

static void print_ri(acl__ri *ri, int depth) {
  ACL__LOGI(ACL__MOD_RUNTIME, "%*saclmdlRI %u \"%s\": %u stream(s)", depth * 2, "", ri->id, ri->name, ri->nlanes);
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    ri_lane *l = ri->lanes[i];
    ACL__LOGI(ACL__MOD_RUNTIME, "%*s stream %d (%s), %u tasks", depth * 2, "", (int)l->sid,
              l->flag == ACL_MODEL_STREAM_FLAG_HEAD ? "head" : "activated", l->n);
    for (uint32_t j = 0; j < l->n; j++)
      ACL__LOGI(ACL__MOD_RUNTIME, "%*s  task %u: %s, %s", depth * 2, "", j + 1, kind_name(l->tasks[j]->ri_type),
                l->tasks[j]->what);
  }
  for (uint32_t i = 0; i < ri->nbranches; i++)
    print_ri(ri->branches[i], depth + 1);
}

int acl__graph_debug_print(acl__ri *ri) {
  print_ri(ri, 0);
  return 0;
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s != '\0'; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

/* One complete event per task: ts = its position, tid = its stream, pid =
 * the RI (branches of cond tasks get their own pid). */
static void json_ri(FILE *f, acl__ri *ri, uint32_t flags, int *first) {
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    ri_lane *l = ri->lanes[i];
    for (uint32_t j = 0; j < l->n; j++) {
      acl__task *t = l->tasks[j];
      fputs(*first ? "  {\"name\": " : ",\n  {\"name\": ", f);
      *first = 0;
      json_str(f, t->what[0] ? t->what : kind_name(t->ri_type));
      fputs(", \"cat\": ", f);
      json_str(f, kind_name(t->ri_type));
      fprintf(f, ", \"ph\": \"X\", \"ts\": %u, \"dur\": 1, \"pid\": %u, \"tid\": %d, \"args\": {\"seq\": %u", j,
              ri->id, (int)l->sid, j + 1);
      if (flags & ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
        fputs(", \"model\": ", f);
        json_str(f, ri->name);
        fprintf(f, ", \"model_id\": %u, \"device\": %d, \"host_only\": %s", ri->id, (int)ri->dev->id,
                t->executor_only ? "true" : "false");
        const void *info = NULL;
        size_t n_op = acl__graph_task_info(ri, t, 0, &info), n_ext = acl__graph_task_info(ri, t, 1, &info);
        if (n_op > 0 || n_ext > 0) /* aclrtCacheLastTaskOpInfo / ExtendInfo: their sizes */
          fprintf(f, ", \"op_info_bytes\": %zu, \"extend_info_bytes\": %zu", n_op, n_ext);
      }
      fputs("}}", f);
    }
  }
  for (uint32_t i = 0; i < ri->nbranches; i++)
    json_ri(f, ri->branches[i], flags, first);
}

int acl__graph_debug_json(const char *api, acl__ri *ri, const char *path, uint32_t flags) {
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_FILE, __FILE__, __LINE__,
                     "cannot write '%s': %s. Remedy: pass a file path in an existing, writable directory", path,
                     strerror(errno));
  int first = 1;
  fputs("[\n", f);
  json_ri(f, ri, flags, &first);
  fputs("\n]\n", f);
  if (fclose(f) != 0)
    return acl__fail(api, ACL_ERROR_INVALID_FILE, __FILE__, __LINE__, "writing '%s' failed: %s", path, strerror(errno));
  return 0;
}
