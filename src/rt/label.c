/*
 * label.c - labels and label lists.
 *
 * On the vendor's runtime a label is a jump target in the persistent
 * streams of a model runtime instance (aclmdlRIBuildBegin ->
 * aclmdlRIBindStream -> ... -> aclmdlRIBuildEnd): aclrtSetLabel appends a
 * label task to a bound stream, aclrtSwitchLabelByIndex a task that, when
 * the instance executes, reads an index from device memory and continues
 * at that label of the list.  Nothing runs at submission.
 *
 * openacl has the objects and every rule about them: a label belongs to the
 * context current when it was made (used from another: 507031), at most
 * 65535 live labels, lists of 1..65535 labels of that context, a label set
 * once and only after it is in a list.  openacl has no model runtime
 * instances yet, so no stream is bound to one, and aclrtSetLabel /
 * aclrtSwitchLabelByIndex end with ACL_ERROR_RT_STREAM_MODEL (107005), what
 * the vendor returns for a stream that is not bound; docs/labels.md says so.
 *
 * Ownership: a label is held by its handle and by each list that names it;
 * aclrtDestroyLabel retires the handle, the memory goes with the last list.
 * When a context is released (device reset, aclFinalize) its labels and
 * lists go with it, logged as leaks.
 *
 * Lock: lb_lock guards every label and list and the live lists; a leaf
 * (the handle table's stripes, the error-message and log locks are taken
 * inside it).  fork(): taken in the prepare step after the callback
 * registry and before the handle table (acl__label_atfork, called by
 * callback.c's fork hooks).
 */
#include "rt/label.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/callback.h"
#include "rt/graph.h"
#include "rt/memory.h"

typedef struct lb_label lb_label;
typedef struct lb_list lb_list;

struct lb_label {
  acl__context *ctx;     /* compared only once the context may be gone */
  int refs;              /* the handle (while live) + each list naming it */
  int live;              /* the handle is registered */
  int lists;             /* lists naming it */
  void *lane;            /* where aclrtSetLabel put it (a lane of a model runtime instance; graph.c), */
  uint32_t pos;          /* and the position there; lane NULL: not set */
  lb_label *prev, *next; /* live labels */
};

struct lb_list {
  acl__context *ctx;
  size_t n;
  lb_label **labels;     /* the device's table of targets */
  lb_list *prev, *next;  /* live lists */
};

static pthread_mutex_t lb_lock = PTHREAD_MUTEX_INITIALIZER;
static lb_label *lb_labels;    /* lb_lock */
static lb_list *lb_lists;      /* lb_lock */
static int lb_count;           /* live labels (lb_lock) */

void acl__label_atfork(int phase) {
  if (phase == ACL__FORK_PREPARE)
    pthread_mutex_lock(&lb_lock);
  else if (phase == ACL__FORK_PARENT)
    pthread_mutex_unlock(&lb_lock);
  else {
    /* the parent's contexts do not exist here: its labels are forgotten, not freed */
    pthread_mutex_init(&lb_lock, NULL);
    lb_labels = NULL;
    lb_lists = NULL;
    lb_count = 0;
  }
}

/* ---- helpers (lb_lock held) ---------------------------------------------------- */

static void lb_label_unref(lb_label *l) {
  if (--l->refs == 0)
    free(l);
}

/* Retires a live label's handle. */
static void lb_label_retire(lb_label *l) {
  acl__handle_unregister(l);
  l->live = 0;
  lb_count--;
  if (l->prev != NULL)
    l->prev->next = l->next;
  else
    lb_labels = l->next;
  if (l->next != NULL)
    l->next->prev = l->prev;
  lb_label_unref(l);
}

static void lb_list_free(lb_list *ls) {
  acl__handle_unregister(ls);
  if (ls->prev != NULL)
    ls->prev->next = ls->next;
  else
    lb_lists = ls->next;
  if (ls->next != NULL)
    ls->next->prev = ls->prev;
  for (size_t i = 0; i < ls->n; i++) {
    ls->labels[i]->lists--;
    lb_label_unref(ls->labels[i]);
  }
  free(ls->labels);
  free(ls);
}

static lb_label *lb_label_get(const char *api, const char *arg, aclrtLabel h, int *rc) {
  if (!acl__handle_valid(h, ACL__H_LABEL)) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                    "%s %p is not a live label (destroyed already, released with its context, or never made by "
                    "aclrtCreateLabel)",
                    arg, h);
    return NULL;
  }
  return h;
}

static int lb_context_check(const char *api, const char *what, const void *h, const acl__context *owner,
                            const acl__context *cur) {
  if (owner == cur)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_LABEL_CONTEXT, __FILE__, __LINE__,
                   "%s %p belongs to a context of device %d, not to this thread's current context (device %d). "
                   "Remedy: aclrtSetCurrentContext to the context that was current when it was made",
                   what, h, (int)owner->dev->id, (int)cur->dev->id);
}

/* No stream is bound to a model runtime instance: openacl has none yet. */
static int lb_unbound(const char *api, const acl__stream *s) {
  return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                   "stream %d is not bound to a model runtime instance; labels work only in the streams of one. "
                   "Remedy: bind the stream with aclmdlRIBindStream between aclmdlRIBuildBegin and "
                   "aclmdlRIBuildEnd",
                   (int)s->id);
}

/* ---- labels ------------------------------------------------------------------------ */

int acl__label_create(const char *api, acl__context *c, aclrtLabel *out) {
  int rc = 0;
  pthread_mutex_lock(&lb_lock);
  if (lb_count >= ACL__LABEL_MAX) {
    rc = acl__fail(api, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, __FILE__, __LINE__,
                   "%d labels exist already, the most a process may hold. Remedy: destroy labels you no longer "
                   "use (aclrtDestroyLabel)",
                   lb_count);
    goto out;
  }
  lb_label *l = calloc(1, sizeof(*l));
  if (l == NULL) {
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a label");
    goto out;
  }
  l->ctx = c;
  l->refs = 1;
  l->live = 1;
  l->next = lb_labels;
  if (lb_labels != NULL)
    lb_labels->prev = l;
  lb_labels = l;
  lb_count++;
  acl__handle_register(l, ACL__H_LABEL);
  *out = l;
out:
  pthread_mutex_unlock(&lb_lock);
  return rc;
}

int acl__label_destroy(const char *api, aclrtLabel label) {
  int rc = 0;
  pthread_mutex_lock(&lb_lock);
  lb_label *l = lb_label_get(api, "label", label, &rc);
  if (l != NULL)
    lb_label_retire(l);
  pthread_mutex_unlock(&lb_lock);
  return rc;
}

int acl__label_set(const char *api, aclrtLabel label, aclrtStream stream) {
  int rc = 0;
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  pthread_mutex_lock(&lb_lock);
  lb_label *l = lb_label_get(api, "label", label, &rc);
  if (l != NULL)
    rc = lb_context_check(api, "label", l, l->ctx, c);
  pthread_mutex_unlock(&lb_lock);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  if (!acl__stream_capturing(s))
    return lb_unbound(api, s);
  /* the label must be in a list first (507000 on current firmware) and is
   * set once, on one stream (507000) */
  pthread_mutex_lock(&lb_lock);
  l = lb_label_get(api, "label", label, &rc);
  if (l != NULL && l->lists == 0)
    rc = acl__fail(api, ACL_ERROR_RT_INTERNAL_ERROR, __FILE__, __LINE__,
                   "the label is in no label list yet; a label is set after it has been put in a list. Remedy: "
                   "call aclrtCreateLabelList with it first");
  else if (l != NULL && l->lane != NULL)
    rc = acl__fail(api, ACL_ERROR_RT_INTERNAL_ERROR, __FILE__, __LINE__,
                   "the label has been set already; a label marks one place. Remedy: create another label");
  pthread_mutex_unlock(&lb_lock);
  if (rc != 0)
    return rc;
  void *lane = NULL;
  uint32_t pos = 0;
  if ((rc = acl__graph_set_label(api, s, &lane, &pos)) != 0)
    return rc;
  pthread_mutex_lock(&lb_lock);
  if (acl__handle_valid(label, ACL__H_LABEL)) {
    l = label;
    l->lane = lane;
    l->pos = pos;
  }
  pthread_mutex_unlock(&lb_lock);
  return 0;
}

int acl__label_targets(const char *api, aclrtLabelList list, uint32_t n, void **lanes, uint32_t *pos) {
  int rc = 0;
  pthread_mutex_lock(&lb_lock);
  if (!acl__handle_valid(list, ACL__H_LABEL_LIST)) {
    rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                   "label list %p used by aclrtSwitchLabelByIndex was destroyed before the build ended", list);
  } else {
    lb_list *ls = list;
    for (uint32_t i = 0; i < n && i < ls->n && rc == 0; i++) {
      if (ls->labels[i]->lane == NULL)
        rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "label %u of a list used by aclrtSwitchLabelByIndex was never set (aclrtSetLabel). Remedy: "
                       "set every label of the list on a bound stream before aclmdlRIBuildEnd",
                       i);
      lanes[i] = ls->labels[i]->lane;
      pos[i] = ls->labels[i]->pos;
    }
  }
  pthread_mutex_unlock(&lb_lock);
  return rc;
}

/* ---- lists --------------------------------------------------------------------------- */

int acl__label_list_create(const char *api, acl__context *c, aclrtLabel *labels, size_t num, aclrtLabelList *out) {
  int rc = 0;
  lb_list *ls = calloc(1, sizeof(*ls));
  lb_label **tab = calloc(num, sizeof(*tab));
  if (ls == NULL || tab == NULL) {
    free(ls);
    free(tab);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a list of %zu labels",
                     num);
  }
  pthread_mutex_lock(&lb_lock);
  for (size_t i = 0; i < num && rc == 0; i++) {
    char arg[32];
    snprintf(arg, sizeof(arg), "labels[%zu]", i);
    lb_label *l = lb_label_get(api, arg, labels[i], &rc);
    if (l != NULL)
      rc = lb_context_check(api, arg, l, l->ctx, c);
    tab[i] = l;
  }
  if (rc == 0) {
    for (size_t i = 0; i < num; i++) {
      tab[i]->refs++;
      tab[i]->lists++;
    }
    ls->ctx = c;
    ls->n = num;
    ls->labels = tab;
    ls->next = lb_lists;
    if (lb_lists != NULL)
      lb_lists->prev = ls;
    lb_lists = ls;
    acl__handle_register(ls, ACL__H_LABEL_LIST);
    *out = ls;
  }
  pthread_mutex_unlock(&lb_lock);
  if (rc != 0) {
    free(tab);
    free(ls);
  }
  return rc;
}

int acl__label_list_destroy(const char *api, aclrtLabelList list) {
  int rc = 0;
  pthread_mutex_lock(&lb_lock);
  if (!acl__handle_valid(list, ACL__H_LABEL_LIST))
    rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                   "labelList %p is not a live label list (destroyed already, released with its context, or "
                   "never made by aclrtCreateLabelList)",
                   list);
  else
    lb_list_free(list);
  pthread_mutex_unlock(&lb_lock);
  return rc;
}

int acl__label_switch(const char *api, void *ptr, uint32_t max_value, aclrtLabelList list, aclrtStream stream) {
  int rc = 0;
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  pthread_mutex_lock(&lb_lock);
  size_t n = 0;
  if (!acl__handle_valid(list, ACL__H_LABEL_LIST)) {
    rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                   "labelList %p is not a live label list (destroyed already, released with its context, or "
                   "never made by aclrtCreateLabelList)",
                   list);
  } else {
    lb_list *ls = list;
    n = ls->n;
    rc = lb_context_check(api, "labelList", ls, ls->ctx, c);
  }
  pthread_mutex_unlock(&lb_lock);
  if (rc != 0)
    return rc;
  if (max_value != n)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "maxValue is %u but the list holds %zu labels; maxValue is the number of labels in the list",
                     max_value, n);
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  acl__ptr_info info;
  acl__mem_classify(ptr, &info);
  if (info.kind != ACL__PTR_DEVICE || info.dev != s->dev || info.alloc_size - info.offset < sizeof(uint32_t))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "ptr %p must point to a uint32_t index in device memory of device %d (aclrtMalloc), where the "
                     "switch reads it when the model runs",
                     ptr, (int)s->dev->id);
  if (!acl__stream_capturing(s))
    return lb_unbound(api, s);
  return acl__graph_switch_label(api, ptr, max_value, list, s);
}

/* ---- teardown ------------------------------------------------------------------------- */

void acl__label_context_gone(acl__context *c) {
  int labels = 0, lists = 0;
  pthread_mutex_lock(&lb_lock);
  for (lb_list *ls = lb_lists, *next; ls != NULL; ls = next) {
    next = ls->next;
    if (ls->ctx == c) {
      lb_list_free(ls);
      lists++;
    }
  }
  for (lb_label *l = lb_labels, *next; l != NULL; l = next) {
    next = l->next;
    if (l->ctx == c) {
      lb_label_retire(l);
      labels++;
    }
  }
  pthread_mutex_unlock(&lb_lock);
  if (labels != 0 || lists != 0)
    ACL__LOGW(ACL__MOD_RUNTIME, "a context of device %d was released with %d label(s) and %d label list(s) not "
              "destroyed; they were destroyed",
              (int)c->dev->id, labels, lists);
}
