/*
 * kernel.c - kernel binaries, functions, argument buffers and launches.
 * Ownership and the rules of aclrtBinaryUnLoad are in kernel.h; the kernel
 * ABI is in include/openacl/kernel.h and docs/kernels.md.
 *
 * A launch copies its arguments into the task when the launch call is made
 * (device arguments are read with device access enabled), takes a reference
 * on the binary and queues a task.  The task's run() spreads the blocks over
 * the device's executor threads with acl__device_parallel_for; a kernel that
 * returns nonzero makes run() return ACL_ERROR_RT_AICORE_EXCEPTION and names
 * the kernel, block and value in the task's `what`, which the stream reports
 * at its next synchronisation.
 *
 * Lock order: kernel lock (kern_lock, this file) -> handle table stripe.
 * kern_lock is never taken by a task (run or release) and never held while
 * calling into streams or the backend's loader.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "prof/prof.h"
#include "rt/exception.h"
#include "rt/graph.h"
#include "rt/kernel.h"
#include "rt/memory.h"
#include "rt/overflow.h"
#include "rt/params.h"
#include "rt/rt.h"

#define KARGS_MAGIC 0x4b415247u     /* "KARG": args handle built by openacl */
#define KBLOB_MAGIC 0x4b424c42u     /* "KBLB": aclrtBinary */
#define KARGS_MAX_PARAMS 128        /* parameters (placeholders included) per args handle */
#define KARGS_ALIGN 8               /* placeholder data and copied buffers */

typedef struct kbin kbin;
typedef struct kfunc kfunc;
typedef struct kargs kargs;

struct kfunc {
  kbin *bin;
  acl__kernel_entry entry;
  kfunc *next;                      /* bin->funcs (kern_lock while loaded) */
  char name[];
};

struct kbin {
  atomic_uint refs;                 /* 1 for the user while loaded + 1 per queued launch */
  const acl__backend_ops *ops;
  acl__device *dev;
  void *module;
  char label[256];                  /* path or "<memory, N bytes>" for messages */
  kfunc *funcs;                     /* kern_lock while loaded */
  kargs *owned_args;                /* args from aclrtKernelArgsInit; kern_lock while loaded */
  void **user_args;                 /* handles in user memory: pointers only, never read */
  size_t n_user_args, cap_user_args;
  kbin *prev, *next;                /* live list (kern_lock) */
  pthread_mutex_t exc_lock;         /* leaf: guards exc_cb, exc_user (read by the failing task's thread) */
  aclrtOpExceptionCallback exc_cb;  /* aclrtBinarySetExceptionCallback (exc_lock) */
  void *exc_user;                   /* exc_lock */
};

/* One parameter of an args handle. */
typedef struct kparam {
  uint32_t offset;                  /* in the parameter area */
  uint32_t size;
  uint32_t is_placeholder;
  uint32_t data_size;               /* placeholder data bytes (0: no buffer yet) */
  unsigned char *data;              /* placeholder data */
} kparam;

enum { KARGS_BUILDING = 1, KARGS_FINAL = 2 };

/* An args handle.  It may live in the caller's memory (InitByUserMem), so
 * it holds no lock and no pointer openacl must free from user memory. */
struct kargs {
  uint32_t magic;
  uint32_t state;
  kfunc *func;
  int user_mem;
  unsigned char *buf;               /* parameter area, then (user memory) placeholder data from the end */
  size_t cap;
  size_t used;                      /* parameter bytes */
  size_t data_used;                 /* user memory: placeholder bytes taken from the end */
  uint32_t nparams;
  kparam params[KARGS_MAX_PARAMS];
  kargs *next;                      /* bin->owned_args */
};

/* aclrtCreateBinary */
typedef struct kblob {
  uint32_t magic;
  size_t len;
  struct kblob *next;               /* live list (kern_lock) */
  unsigned char data[];
} kblob;

static pthread_mutex_t kern_lock = PTHREAD_MUTEX_INITIALIZER;
static kbin *live_bins;             /* kern_lock */
static kblob *live_blobs;           /* kern_lock */

/* ---- helpers ---------------------------------------------------------- */

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Says what a pointer that is not a live handle of `want` is, for messages. */
static const char *handle_kind(const void *h, acl__handle_type want) {
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (t != (int)want && acl__handle_valid(h, (acl__handle_type)t))
      return acl__handle_type_name((acl__handle_type)t);
  return NULL;
}

static int fail_handle(const char *api, const char *arg, const void *h, acl__handle_type want) {
  const char *other = handle_kind(h, want);
  if (other != NULL)
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "%s %p is a %s handle, not a %s handle", arg, h, other, acl__handle_type_name(want));
  return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                   "%s %p is not a live %s handle (it was released - e.g. its binary was unloaded - or never "
                   "created)",
                   arg, h, acl__handle_type_name(want));
}

/* Frees a binary whose last reference is gone: nothing can reach it. */
static void bin_free(kbin *b) {
  kfunc *f = b->funcs;
  while (f != NULL) {
    kfunc *n = f->next;
    free(f);
    f = n;
  }
  kargs *a = b->owned_args;
  while (a != NULL) {
    kargs *n = a->next;
    for (uint32_t i = 0; i < a->nparams; i++)
      free(a->params[i].data);
    a->magic = 0;
    free(a->buf);
    free(a);
    a = n;
  }
  free(b->user_args);
  if (b->module != NULL)
    b->ops->module_unload(b->module);
  pthread_mutex_destroy(&b->exc_lock);
  free(b);
}

static void bin_unref(kbin *b) {
  if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) == 1)
    bin_free(b);
}

/* Unregisters a loaded binary and everything it handed out.  kern_lock held. */
static void bin_retire_locked(kbin *b) {
  for (kfunc *f = b->funcs; f != NULL; f = f->next)
    acl__handle_unregister(f);
  for (kargs *a = b->owned_args; a != NULL; a = a->next)
    acl__handle_unregister(a);
  for (size_t i = 0; i < b->n_user_args; i++)
    acl__handle_unregister(b->user_args[i]);
  b->n_user_args = 0;
  acl__handle_unregister(b);
  if (b->prev != NULL)
    b->prev->next = b->next;
  else
    live_bins = b->next;
  if (b->next != NULL)
    b->next->prev = b->prev;
  b->prev = b->next = NULL;
}

/* ---- binaries ------------------------------------------------------------ */

static int check_options(const char *api, const aclrtBinaryLoadOptions *o) {
  if (o == NULL)
    return 0;
  if (o->numOpt > 0 && o->options == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "options->numOpt is %zu but options->options is NULL", o->numOpt);
  for (size_t i = 0; i < o->numOpt; i++) {
    const aclrtBinaryLoadOption *op = &o->options[i];
    switch (op->type) {
    case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
      if (op->value.isLazyLoad > 1)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "options->options[%zu]: isLazyLoad is %u; it must be 0 or 1", i, op->value.isLazyLoad);
      break;
    case ACL_RT_BINARY_LOAD_OPT_MAGIC:
      if (op->value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE && op->value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
          op->value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "options->options[%zu]: magic 0x%x is none of ACL_RT_BINARY_MAGIC_ELF_AICORE, "
                         "_VECTOR_CORE, _CUBE_CORE",
                         i, op->value.magic);
      break;
    case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
      break;
    default:
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "options->options[%zu]: type %d is not an aclrtBinaryLoadOptionType", i, (int)op->type);
    }
  }
  return 0;
}

int acl__kernel_binary_load(const char *api, const char *path, const void *data, size_t len,
                            const aclrtBinaryLoadOptions *options, aclrtBinHandle *out) {
  int rc = check_options(api, options);
  if (rc != 0)
    return rc;
  acl__context *ctx = acl__context_current(api, &rc);
  if (ctx == NULL)
    return rc;
  acl__device *dev = ctx->dev;
  if (dev->ops->module_load == NULL || dev->ops->module_get_function == NULL || dev->ops->module_unload == NULL)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "device %d (backend '%s') cannot run kernels", (int)dev->id, dev->ops->name);
  kbin *b = calloc(1, sizeof *b);
  if (b == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the binary record");
  b->ops = dev->ops;
  b->dev = dev;
  atomic_init(&b->refs, 1);
  pthread_mutex_init(&b->exc_lock, NULL);
  if (path != NULL)
    snprintf(b->label, sizeof b->label, "%s", path);
  else
    snprintf(b->label, sizeof b->label, "<memory, %zu bytes>", len);
  char why[768] = "";
  rc = dev->ops->module_load(dev->bdev, path, data, len, &b->module, why, sizeof why);
  if (rc != 0) {
    pthread_mutex_destroy(&b->exc_lock);
    free(b);
    return acl__fail(api, rc, __FILE__, __LINE__, "%s", why[0] ? why : "the backend could not load the binary");
  }
  pthread_mutex_lock(&kern_lock);
  b->next = live_bins;
  if (live_bins != NULL)
    live_bins->prev = b;
  live_bins = b;
  acl__handle_register(b, ACL__H_BINARY);
  pthread_mutex_unlock(&kern_lock);
  ACL__LOGI(ACL__MOD_RUNTIME, "%s: binary %s loaded for device %d as %p", api, b->label, (int)dev->id, (void *)b);
  *out = b;
  return 0;
}

int acl__kernel_binary_unload(const char *api, aclrtBinHandle h) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_BINARY)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "binHandle", h, ACL__H_BINARY);
  }
  kbin *b = h;
  bin_retire_locked(b);
  pthread_mutex_unlock(&kern_lock);
  unsigned pending = atomic_load(&b->refs) - 1;
  if (pending > 0)
    ACL__LOGI(ACL__MOD_RUNTIME, "%s: binary %s stays loaded until its %u queued launch%s finish", api, b->label,
              pending, pending == 1 ? "" : "es");
  bin_unref(b);
  return 0;
}

int acl__kernel_get_function(const char *api, aclrtBinHandle h, const char *name, aclrtFuncHandle *out) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_BINARY)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "binHandle", h, ACL__H_BINARY);
  }
  kbin *b = h;
  for (kfunc *f = b->funcs; f != NULL; f = f->next) {
    if (strcmp(f->name, name) == 0) {
      *out = f;
      pthread_mutex_unlock(&kern_lock);
      return 0;
    }
  }
  /* Hold a reference, not the lock, across the backend's symbol lookup. */
  atomic_fetch_add(&b->refs, 1);
  pthread_mutex_unlock(&kern_lock);

  acl__kernel_entry entry = NULL;
  int rc = b->ops->module_get_function(b->module, name, &entry);
  if (rc != 0) {
    rc = acl__fail(api, rc, __FILE__, __LINE__,
                   "kernel '%s' is not exported by binary %s (the log lists the functions it does export; define "
                   "kernels with OPENACL_KERNEL from openacl/kernel.h so they are exported under their C name)",
                   name, b->label);
    bin_unref(b);
    return rc;
  }
  size_t nlen = strlen(name);
  kfunc *f = malloc(sizeof *f + nlen + 1);
  if (f == NULL) {
    bin_unref(b);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the function record");
  }
  f->bin = b;
  f->entry = entry;
  memcpy(f->name, name, nlen + 1);

  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(b, ACL__H_BINARY)) {
    /* Unloaded by another thread meanwhile. */
    pthread_mutex_unlock(&kern_lock);
    free(f);
    bin_unref(b);
    return fail_handle(api, "binHandle", h, ACL__H_BINARY);
  }
  for (kfunc *g = b->funcs; g != NULL; g = g->next) {
    if (strcmp(g->name, name) == 0) {  /* another thread was quicker */
      *out = g;
      pthread_mutex_unlock(&kern_lock);
      free(f);
      bin_unref(b);
      return 0;
    }
  }
  f->next = b->funcs;
  b->funcs = f;
  acl__handle_register(f, ACL__H_FUNCTION);
  *out = f;
  pthread_mutex_unlock(&kern_lock);
  bin_unref(b);
  return 0;
}

int acl__kernel_function_name(const char *api, aclrtFuncHandle h, uint32_t max_len, char *name) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_FUNCTION)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "funcHandle", h, ACL__H_FUNCTION);
  }
  kfunc *f = h;
  size_t n = strlen(f->name);
  int rc = 0;
  if (n + 1 > max_len)
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "maxLen %u is too small for kernel name '%s' (%zu bytes with the terminating NUL)", max_len,
                   f->name, n + 1);
  else
    memcpy(name, f->name, n + 1);
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

/* ---- aclrtBinary ---------------------------------------------------------- */

aclrtBinary acl__kernel_binary_create(const char *api, const void *data, size_t len) {
  kblob *k = malloc(sizeof *k + len);
  if (k == NULL) {
    acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a %zu-byte binary copy", len);
    return NULL;
  }
  k->magic = KBLOB_MAGIC;
  k->len = len;
  memcpy(k->data, data, len);
  pthread_mutex_lock(&kern_lock);
  k->next = live_blobs;
  live_blobs = k;
  pthread_mutex_unlock(&kern_lock);
  return k;
}

/* Removes k from the live list; 1 when it was there.  kern_lock held. */
static int blob_unlink_locked(const void *p) {
  for (kblob **pp = &live_blobs; *pp != NULL; pp = &(*pp)->next) {
    if ((const void *)*pp == p) {
      *pp = (*pp)->next;
      return 1;
    }
  }
  return 0;
}

static int blob_live_locked(const void *p) {
  for (kblob *k = live_blobs; k != NULL; k = k->next)
    if ((const void *)k == p)
      return 1;
  return 0;
}

int acl__kernel_binary_destroy(const char *api, aclrtBinary binary) {
  pthread_mutex_lock(&kern_lock);
  int found = blob_unlink_locked(binary);
  pthread_mutex_unlock(&kern_lock);
  if (!found)
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "binary %p is not a live aclrtBinary from aclrtCreateBinary", binary);
  kblob *k = binary;
  k->magic = 0;
  free(k);
  return 0;
}

int acl__kernel_binary_load_created(const char *api, aclrtBinary binary, aclrtBinHandle *out) {
  /* The blob must stay alive during the load: the live list cannot pin it,
   * so copy the few fields needed under the lock and load from the copy's
   * data, which only aclrtDestroyBinary frees (a caller destroying a binary
   * while loading it from another thread has a race of its own). */
  pthread_mutex_lock(&kern_lock);
  int live = blob_live_locked(binary);
  pthread_mutex_unlock(&kern_lock);
  if (!live)
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "binary %p is not a live aclrtBinary from aclrtCreateBinary", binary);
  const kblob *k = binary;
  return acl__kernel_binary_load(api, NULL, k->data, k->len, NULL, out);
}

/* ---- the argument builder ------------------------------------------------- */

/* Validates a function handle and returns it (kern_lock held). */
static kfunc *func_get_locked(const char *api, aclrtFuncHandle h, int *rc) {
  if (!acl__handle_valid(h, ACL__H_FUNCTION)) {
    *rc = fail_handle(api, "funcHandle", h, ACL__H_FUNCTION);
    return NULL;
  }
  return h;
}

int acl__kargs_handle_mem_size(const char *api, aclrtFuncHandle func, size_t *size) {
  int rc = 0;
  pthread_mutex_lock(&kern_lock);
  if (func_get_locked(api, func, &rc) != NULL)
    *size = sizeof(kargs);
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

/* Room for the parameters plus their alignment padding: each padding is
 * smaller than the parameter it precedes, and placeholder data is padded to
 * 8 bytes (at most KARGS_MAX_PARAMS times). */
int acl__kargs_mem_size(const char *api, aclrtFuncHandle func, size_t user_size, size_t *actual) {
  int rc = 0;
  if (user_size > (SIZE_MAX - KARGS_MAX_PARAMS * KARGS_ALIGN) / 2 - KARGS_ALIGN)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "userArgsSize %zu is too large", user_size);
  pthread_mutex_lock(&kern_lock);
  if (func_get_locked(api, func, &rc) != NULL)
    *actual = 2 * round_up(user_size, KARGS_ALIGN) + KARGS_MAX_PARAMS * KARGS_ALIGN;
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

int acl__kargs_init(const char *api, aclrtFuncHandle func, aclrtArgsHandle *out) {
  int rc = 0;
  kargs *a = calloc(1, sizeof *a);
  if (a == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for an args handle");
  pthread_mutex_lock(&kern_lock);
  kfunc *f = func_get_locked(api, func, &rc);
  if (f == NULL) {
    pthread_mutex_unlock(&kern_lock);
    free(a);
    return rc;
  }
  a->magic = KARGS_MAGIC;
  a->state = KARGS_BUILDING;
  a->func = f;
  a->next = f->bin->owned_args;
  f->bin->owned_args = a;
  acl__handle_register(a, ACL__H_ARGS);
  pthread_mutex_unlock(&kern_lock);
  *out = a;
  return 0;
}

int acl__kargs_init_user_mem(const char *api, aclrtFuncHandle func, aclrtArgsHandle handle, void *mem,
                             size_t mem_size) {
  int rc = 0;
  if (((uintptr_t)handle % _Alignof(kargs)) != 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "argsHandle %p is not %zu-byte aligned; use memory from malloc or aclrtMallocHost", handle,
                     (size_t)_Alignof(kargs));
  pthread_mutex_lock(&kern_lock);
  kfunc *f = func_get_locked(api, func, &rc);
  if (f == NULL) {
    pthread_mutex_unlock(&kern_lock);
    return rc;
  }
  kargs *a = handle;
  kbin *b = f->bin;
  /* The memory may have been freed and reused since an earlier init, so
   * nothing in it is read: the binaries' lists say whether it is known. */
  kbin *owner = NULL;
  for (kbin *x = live_bins; x != NULL && owner == NULL; x = x->next) {
    for (size_t i = 0; i < x->n_user_args; i++) {
      if (x->user_args[i] == (void *)a) {
        owner = x;
        if (x != b)
          x->user_args[i] = x->user_args[--x->n_user_args];
        break;
      }
    }
  }
  if (owner == NULL && acl__handle_valid(a, ACL__H_ARGS)) {
    pthread_mutex_unlock(&kern_lock);
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "argsHandle %p is a handle from aclrtKernelArgsInit, not caller memory", handle);
  }
  if (owner != b) {
    if (b->n_user_args == b->cap_user_args) {
      size_t cap = b->cap_user_args ? 2 * b->cap_user_args : 8;
      void **p = realloc(b->user_args, cap * sizeof *p);
      if (p == NULL) {
        if (owner != NULL)
          acl__handle_unregister(a);
        pthread_mutex_unlock(&kern_lock);
        return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
      }
      b->user_args = p;
      b->cap_user_args = cap;
    }
    b->user_args[b->n_user_args++] = a;
    if (owner == NULL)
      acl__handle_register(a, ACL__H_ARGS);
  }
  memset(a, 0, sizeof *a);
  a->magic = KARGS_MAGIC;
  a->state = KARGS_BUILDING;
  a->func = f;
  a->user_mem = 1;
  a->buf = mem;
  a->cap = mem_size;
  pthread_mutex_unlock(&kern_lock);
  return 0;
}

/* Validates an args handle (kern_lock held). */
static kargs *args_get_locked(const char *api, aclrtArgsHandle h, int *rc) {
  if (!acl__handle_valid(h, ACL__H_ARGS)) {
    *rc = fail_handle(api, "argsHandle", h, ACL__H_ARGS);
    return NULL;
  }
  return h;
}

static kparam *param_get(const char *api, kargs *a, aclrtParamHandle p, int *rc) {
  const kparam *first = a->params, *end = a->params + a->nparams;
  const kparam *q = p;
  if (q < first || q >= end || ((uintptr_t)q - (uintptr_t)first) % sizeof(kparam) != 0) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                    "paramHandle %p is not a parameter of argsHandle %p (use the handle "
                    "aclrtKernelArgsAppend or aclrtKernelArgsAppendPlaceHolder returned for these args)",
                    p, (void *)a);
    return NULL;
  }
  return (kparam *)q;
}

/* Appends `size` bytes (data NULL: a placeholder's pointer slot) aligned to
 * the parameter's natural alignment. */
static int args_append(const char *api, aclrtArgsHandle h, const void *data, size_t size, int placeholder,
                       aclrtParamHandle *out) {
  int rc = 0;
  pthread_mutex_lock(&kern_lock);
  kargs *a = args_get_locked(api, h, &rc);
  if (a == NULL)
    goto out;
  if (a->state == KARGS_FINAL) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "argsHandle %p is finalized; append every parameter before aclrtKernelArgsFinalize, or build "
                   "new args (aclrtKernelArgsParaUpdate changes a value in place)",
                   h);
    goto out;
  }
  if (a->nparams == KARGS_MAX_PARAMS) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "argsHandle %p already has %d parameters, the most openacl supports", h, KARGS_MAX_PARAMS);
    goto out;
  }
  size_t align = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
  size_t off = round_up(a->used, align);
  if (size > UINT32_MAX || off + size > UINT32_MAX) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "paramSize %zu is too large", size);
    goto out;
  }
  if (off + size > a->cap - a->data_used) {
    if (a->user_mem) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the %zu-byte parameter does not fit in the %zu bytes of user memory given to "
                     "aclrtKernelArgsInitByUserMem (%zu used); size it with aclrtKernelArgsGetMemSize",
                     size, a->cap, a->used + a->data_used);
      goto out;
    }
    size_t cap = a->cap ? a->cap : 64;
    while (cap < off + size)
      cap *= 2;
    unsigned char *nb = realloc(a->buf, cap);
    if (nb == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for kernel arguments");
      goto out;
    }
    a->buf = nb;
    a->cap = cap;
  }
  memset(a->buf + a->used, 0, off - a->used);
  if (data != NULL)
    memcpy(a->buf + off, data, size);
  else
    memset(a->buf + off, 0, size);
  kparam *p = &a->params[a->nparams++];
  memset(p, 0, sizeof *p);
  p->offset = (uint32_t)off;
  p->size = (uint32_t)size;
  p->is_placeholder = (uint32_t)placeholder;
  a->used = off + size;
  if (out != NULL)
    *out = p;
out:
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

int acl__kargs_append(const char *api, aclrtArgsHandle args, const void *param, size_t size,
                      aclrtParamHandle *out) {
  return args_append(api, args, param, size, 0, out);
}

int acl__kargs_append_placeholder(const char *api, aclrtArgsHandle args, aclrtParamHandle *out) {
  return args_append(api, args, NULL, sizeof(void *), 1, out);
}

int acl__kargs_placeholder_buffer(const char *api, aclrtArgsHandle h, aclrtParamHandle ph, size_t size,
                                  void **buf) {
  int rc = 0;
  pthread_mutex_lock(&kern_lock);
  kargs *a = args_get_locked(api, h, &rc);
  kparam *p = a ? param_get(api, a, ph, &rc) : NULL;
  if (p == NULL)
    goto out;
  if (!p->is_placeholder) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "paramHandle %p is an ordinary parameter, not a placeholder (aclrtKernelArgsAppendPlaceHolder)",
                   ph);
    goto out;
  }
  if (size > UINT32_MAX) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dataSize %zu is too large", size);
    goto out;
  }
  if (p->data != NULL) {
    if (size > p->data_size) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the placeholder already has a %u-byte buffer; dataSize %zu cannot grow it", p->data_size,
                     size);
      goto out;
    }
    *buf = p->data;
    goto out;
  }
  if (a->user_mem) {
    size_t need = round_up(size, KARGS_ALIGN);
    size_t top = (a->cap - a->data_used) / KARGS_ALIGN * KARGS_ALIGN;
    if (top < need || top - need < a->used) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the %zu-byte placeholder buffer does not fit in the %zu bytes of user memory given to "
                     "aclrtKernelArgsInitByUserMem; size it with aclrtKernelArgsGetMemSize",
                     size, a->cap);
      goto out;
    }
    p->data = a->buf + top - need;
    a->data_used = a->cap - (top - need);
  } else {
    p->data = calloc(1, size ? size : 1);
    if (p->data == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for placeholder data");
      goto out;
    }
  }
  p->data_size = (uint32_t)size;
  *buf = p->data;
out:
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

int acl__kargs_update(const char *api, aclrtArgsHandle h, aclrtParamHandle ph, const void *data, size_t size) {
  int rc = 0;
  pthread_mutex_lock(&kern_lock);
  kargs *a = args_get_locked(api, h, &rc);
  kparam *p = a ? param_get(api, a, ph, &rc) : NULL;
  if (p == NULL)
    goto out;
  if (p->is_placeholder) {
    if (p->data == NULL || size > p->data_size) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "paramSize %zu does not fit the placeholder's %u-byte buffer (get one with "
                     "aclrtKernelArgsGetPlaceHolderBuffer first)",
                     size, p->data_size);
      goto out;
    }
    memcpy(p->data, data, size);
    goto out;
  }
  if (size != p->size) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "paramSize %zu differs from the parameter's size %u given to aclrtKernelArgsAppend", size,
                   p->size);
    goto out;
  }
  memcpy(a->buf + p->offset, data, size);
out:
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

int acl__kargs_finalize(const char *api, aclrtArgsHandle h) {
  int rc = 0;
  pthread_mutex_lock(&kern_lock);
  kargs *a = args_get_locked(api, h, &rc);
  if (a == NULL)
    goto out;
  if (a->state == KARGS_FINAL) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "argsHandle %p is already finalized", h);
    goto out;
  }
  for (uint32_t i = 0; i < a->nparams; i++) {
    if (a->params[i].is_placeholder && a->params[i].data == NULL) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "parameter %u of argsHandle %p is a placeholder without data; call "
                     "aclrtKernelArgsGetPlaceHolderBuffer for it before finalizing",
                     i, h);
      goto out;
    }
  }
  a->state = KARGS_FINAL;
out:
  pthread_mutex_unlock(&kern_lock);
  return rc;
}

/* ---- launches ------------------------------------------------------------- */

typedef struct klaunch {
  kbin *bin;                        /* reference held until release */
  acl__kernel_entry entry;
  const char *name;                 /* the function's, alive with bin */
  kfunc *func;                      /* for exception info (exception.c) */
  uint32_t overflow_check;          /* the stream's overflow switch at launch (overflow.c) */
  acl__device *dev;
  uint32_t num_blocks;
  atomic_uint failed_block;         /* UINT32_MAX: none yet */
  int failed_status;                /* written by the block that set failed_block */
  size_t args_size;
  unsigned char *args;              /* copy inside the same allocation */
  uint64_t deadline_ns;             /* aclrtSetOpExecuteTimeOut*: monotonic end, 0 = none (params.c) */
  atomic_int timed_out;             /* a block found the deadline passed and did not run */
} klaunch;

static uint64_t klaunch_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int klaunch_block(uint32_t i, void *arg) {
  klaunch *k = arg;
  /* A running block cannot be interrupted; the ones that have not started
   * when the operator timeout expires are not run, as a card's watchdog
   * stops the kernel. */
  if (k->deadline_ns != 0 && klaunch_now_ns() > k->deadline_ns) {
    atomic_store(&k->timed_out, 1);
    return ACL_ERROR_RT_AICORE_TIMEOUT;
  }
  int st = k->overflow_check ? acl__overflow_run_block(k->dev, k->entry, i, k->num_blocks, k->args, k->args_size)
                             : k->entry(i, k->num_blocks, k->args, k->args_size);
  if (st != 0) {
    unsigned none = UINT32_MAX;
    if (atomic_compare_exchange_strong(&k->failed_block, &none, i))
      k->failed_status = st;
  }
  return st;
}

static int klaunch_run(acl__task *t) {
  klaunch *k = acl__task_payload(t);
  uint64_t timeout_ms = acl__params_op_exec_timeout_ms();
  k->deadline_ns = timeout_ms == 0 ? 0 : klaunch_now_ns() + timeout_ms * 1000000u;
  int rc = acl__device_parallel_for(k->dev, k->num_blocks, klaunch_block, k);
  if (k->deadline_ns != 0 && (atomic_load(&k->timed_out) || klaunch_now_ns() > k->deadline_ns)) {
    snprintf(t->what, sizeof t->what, "kernel %s (%u blocks): ran past the %llu ms operator timeout", k->name,
             k->num_blocks, (unsigned long long)timeout_ms);
    ACL__LOGE(ACL__MOD_RUNTIME, "%s", t->what);
    acl__exception_note_kernel(k->func, k->args, k->args_size);
    return ACL_ERROR_RT_AICORE_TIMEOUT;
  }
  if (rc == 0)
    return 0;
  unsigned blk = atomic_load(&k->failed_block);
  ACL__LOGE(ACL__MOD_RUNTIME, "kernel %s (%u blocks): block %u returned %d", k->name, k->num_blocks, blk,
            k->failed_status);
  snprintf(t->what, sizeof t->what, "kernel %s (%u blocks): block %u returned %d", k->name, k->num_blocks, blk,
           k->failed_status);
  acl__exception_note_kernel(k->func, k->args, k->args_size);
  return ACL_ERROR_RT_AICORE_EXCEPTION;
}

static void klaunch_release(acl__task *t) {
  klaunch *k = acl__task_payload(t);
  bin_unref(k->bin);
  free(t);
}

/* ---- launches recorded in task graphs (aclmdlRITaskGetParams / SetParams) ---- */

int acl__kernel_task_params(acl__task *t, aclrtFuncHandle *func, void **args, size_t *args_size, uint32_t *blocks) {
  if (t->run != klaunch_run)
    return -1;
  klaunch *k = acl__task_payload(t);
  *func = k->func;
  *args = k->args;
  *args_size = k->args_size;
  *blocks = k->num_blocks;
  return 0;
}

int acl__kernel_task_update(const char *api, acl__task *t, aclrtFuncHandle func, const void *args, size_t args_size,
                            uint32_t blocks) {
  if (t->run != klaunch_run)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "this kernel task was not launched through a function handle (an operator's task): its "
                     "function and arguments cannot be changed");
  klaunch *k = acl__task_payload(t);
  int rc = 0;
  pthread_mutex_lock(&kern_lock);
  kfunc *f = func_get_locked(api, func, &rc);
  if (f != NULL && f->bin != k->bin)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "funcHandle is kernel '%s' of another binary than the task's ('%s'); a recorded launch keeps its "
                   "binary. Remedy: capture the launch again",
                   f->name, k->name);
  pthread_mutex_unlock(&kern_lock);
  if (rc != 0)
    return rc;
  if (args != NULL && args_size != k->args_size)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "argsSize is %zu but the recorded launch has %zu argument bytes; the arguments keep their size",
                     args_size, k->args_size);
  if (blocks == 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "numBlocks must be at least 1");
  k->func = f;
  k->entry = f->entry;
  k->name = f->name;
  k->num_blocks = blocks;
  if (args != NULL) {
    memcpy(k->args, args, args_size);
    acl__mem_dev_args(k->args, args_size);
  }
  return 0;
}

static int check_cfg(const char *api, const aclrtLaunchKernelCfg *cfg) {
  if (cfg == NULL)
    return 0;
  if (cfg->numAttrs > 0 && cfg->attrs == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "cfg->numAttrs is %zu but cfg->attrs is NULL",
                     cfg->numAttrs);
  for (size_t i = 0; i < cfg->numAttrs; i++) {
    const aclrtLaunchKernelAttr *at = &cfg->attrs[i];
    switch (at->id) {
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
      if (at->value.engineType != ACL_RT_ENGINE_TYPE_AIC && at->value.engineType != ACL_RT_ENGINE_TYPE_AIV)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "cfg->attrs[%zu]: engineType %d is neither ACL_RT_ENGINE_TYPE_AIC nor _AIV", i,
                         (int)at->value.engineType);
      break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
      if (at->value.isBlockTaskPrefetch > 1)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "cfg->attrs[%zu]: isBlockTaskPrefetch %u must be 0 or 1", i, at->value.isBlockTaskPrefetch);
      break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
      if (at->value.isDataDump > 1)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "cfg->attrs[%zu]: isDataDump %u must be 0 or 1", i, at->value.isDataDump);
      break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
      break;
    default:
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "cfg->attrs[%zu]: id %d is not an aclrtLaunchKernelAttrId", i, (int)at->id);
    }
  }
  return 0;
}

/* Bytes of the launch's argument copy; 0 or a recorded error. */
static int args_copy_size(const char *api, const acl__launch *l, const kargs *a, size_t *size) {
  if (l->source != ACL__KARGS_HANDLE) {
    *size = l->args_size;
    return 0;
  }
  size_t total = round_up(a->used, KARGS_ALIGN);
  for (uint32_t i = 0; i < a->nparams; i++)
    if (a->params[i].is_placeholder)
      total += round_up(a->params[i].data_size, KARGS_ALIGN);
  (void)api;
  *size = total;
  return 0;
}

/* Fills the copy; device arguments are read with device access on. */
static int args_copy(const char *api, const acl__launch *l, const kargs *a, acl__device *dev, unsigned char *dst) {
  switch (l->source) {
  case ACL__KARGS_DEVICE:
    if (l->args_size > 0) {
      acl__ptr_info info;
      acl__mem_classify(l->args, &info);
      if (info.kind != ACL__PTR_DEVICE || info.dev != dev || info.alloc_size - info.offset < l->args_size)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "argsData %p must point to %zu bytes inside one aclrtMalloc allocation of device %d (%s); "
                         "for arguments in host memory use the args builder (aclrtKernelArgsInit) or "
                         "aclrtLaunchKernelWithHostArgs",
                         l->args, l->args_size, (int)dev->id,
                         info.kind == ACL__PTR_DEVICE ? (info.dev != dev ? "it is memory of another device"
                                                                         : "the allocation is smaller")
                         : info.kind == ACL__PTR_DEVICE_UNALLOCATED ? "it is not in a live allocation"
                                                                    : "it is host memory");
      acl__device_access_begin(dev);
      memcpy(dst, acl__mem_dev_ptr(l->args), l->args_size);
      acl__device_access_end(dev);
    }
    return 0;
  case ACL__KARGS_HOST:
    if (l->args_size > 0) /* hostArgs may be NULL with no bytes: memcpy must not see it */
      memcpy(dst, l->args, l->args_size);
    for (size_t i = 0; i < l->placeholder_count; i++) {
      const aclrtPlaceHolderInfo *p = &l->placeholders[i];
      if ((size_t)p->addrOffset + sizeof(void *) > l->args_size || p->dataOffset >= l->args_size)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "placeHolderArray[%zu]: addrOffset %u (+%zu pointer bytes) or dataOffset %u is outside "
                         "the %zu argument bytes",
                         i, p->addrOffset, sizeof(void *), p->dataOffset, l->args_size);
      void *ptr = dst + p->dataOffset;
      memcpy(dst + p->addrOffset, &ptr, sizeof ptr);
    }
    return 0;
  case ACL__KARGS_HANDLE: {
    memcpy(dst, a->buf, a->used);
    size_t off = round_up(a->used, KARGS_ALIGN);
    memset(dst + a->used, 0, off - a->used);
    for (uint32_t i = 0; i < a->nparams; i++) {
      const kparam *p = &a->params[i];
      if (!p->is_placeholder)
        continue;
      memcpy(dst + off, p->data, p->data_size);
      void *ptr = dst + off;
      memcpy(dst + p->offset, &ptr, sizeof ptr);
      off += round_up(p->data_size, KARGS_ALIGN);
    }
    return 0;
  }
  }
  return 0;
}

/* "kernel <name> (<n> blocks)" into what (size bytes), for the profile's
 * task names: without snprintf, which costs more than the rest of a launch. */
static void prof_kernel_name(char *what, size_t size, const char *name, uint32_t blocks) {
  char digits[16];
  int nd = 0;
  do {
    digits[nd++] = (char)('0' + blocks % 10);
    blocks /= 10;
  } while (blocks != 0);
  size_t k = 0;
  const char *parts[3] = {"kernel ", name, " ("};
  for (int p = 0; p < 3; p++)
    for (const char *c = parts[p]; *c != '\0' && k + 1 < size; c++)
      what[k++] = *c;
  while (nd > 0 && k + 1 < size)
    what[k++] = digits[--nd];
  for (const char *c = " blocks)"; *c != '\0' && k + 1 < size; c++)
    what[k++] = *c;
  what[k] = '\0';
}


int acl__kernel_launch(const char *api, const acl__launch *l) {
  int rc = check_cfg(api, l->cfg);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(api, l->stream, &rc);
  if (s == NULL)
    return rc;
  acl__device *dev = s->ctx->dev;

  /* Pin the binary (and so the function and owned args) with a reference. */
  pthread_mutex_lock(&kern_lock);
  kfunc *f = func_get_locked(api, l->func, &rc);
  kargs *a = NULL;
  if (f != NULL && l->source == ACL__KARGS_HANDLE) {
    a = args_get_locked(api, l->handle, &rc);
    if (a != NULL && a->func != f)
      rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "argsHandle %p was built for kernel '%s', not for funcHandle %p (kernel '%s')", l->handle,
                     a->func->name, l->func, f->name);
    else if (a != NULL && a->state != KARGS_FINAL)
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "argsHandle %p is not finalized; call aclrtKernelArgsFinalize before launching", l->handle);
  }
  if (rc == 0 && f->bin->dev != dev)
    rc = acl__fail(api, ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, __FILE__, __LINE__,
                   "kernel '%s' belongs to a binary loaded for device %d, but the stream is on device %d; load the "
                   "binary again while device %d is current",
                   f->name, (int)f->bin->dev->id, (int)dev->id, (int)dev->id);
  if (rc != 0) {
    pthread_mutex_unlock(&kern_lock);
    return rc;
  }
  kbin *b = f->bin;
  atomic_fetch_add(&b->refs, 1);
  pthread_mutex_unlock(&kern_lock);

  size_t args_size = 0;
  args_copy_size(api, l, a, &args_size);
  size_t head = round_up(sizeof(klaunch), 16);
  /* `what` is written only if the launch fails (klaunch_run): formatting it
   * here would cost every launch for the rare error. */
  acl__task *t = acl__task_new(head + args_size, klaunch_run, NULL);
  if (t == NULL) {
    bin_unref(b);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "out of host memory for a launch with %zu argument bytes", args_size);
  }
  klaunch *k = acl__task_payload(t);
  k->bin = b;
  k->entry = f->entry;
  k->name = f->name;
  k->func = f;
  k->overflow_check = acl__overflow_switch_get(s);
  k->dev = dev;
  k->num_blocks = l->num_blocks;
  atomic_init(&k->failed_block, UINT32_MAX);
  atomic_init(&k->timed_out, 0);
  k->deadline_ns = 0;
  k->args_size = args_size;
  k->args = (unsigned char *)k + head;
  t->release = klaunch_release;
  rc = args_copy(api, l, a, dev, k->args);
  if (rc != 0) {
    klaunch_release(t);
    return rc;
  }
  acl__mem_dev_args(k->args, args_size); /* device pointers as the kernel must use them (memory.h) */
  t->ri_type = ACL_MODEL_RI_TASK_KERNEL;
  t->ri_ok = 1; /* runs the same way each time: a capture may record it (graph.c) */
  if (ACL__PROF_ON() || acl__stream_capturing(s)) /* the profile and graphs name the kernel */
    prof_kernel_name(t->what, sizeof t->what, k->name, k->num_blocks);
  rc = acl__stream_submit(s, t);   /* releases the task on failure */
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT) /* else a capture refused it and said why (graph.c) */
    return acl__fail(api, rc, __FILE__, __LINE__, "the stream no longer accepts work (it is being destroyed)");
  return rc;
}

/* ---- teardown and fork ---------------------------------------------------- */

void acl__kernel_finalize(void) {
  pthread_mutex_lock(&kern_lock);
  int nb = 0, nd = 0;
  kbin *bins = NULL;
  while (live_bins != NULL) {
    kbin *b = live_bins;
    bin_retire_locked(b);
    b->next = bins;
    bins = b;
    nb++;
  }
  kblob *blobs = live_blobs;
  live_blobs = NULL;
  pthread_mutex_unlock(&kern_lock);
  while (bins != NULL) {
    kbin *n = bins->next;
    bin_unref(bins);
    bins = n;
  }
  while (blobs != NULL) {
    kblob *n = blobs->next;
    free(blobs);
    blobs = n;
    nd++;
  }
  if (nb > 0 || nd > 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "aclFinalize: %d kernel binar%s still loaded and %d aclrtBinary not destroyed; released now", nb,
              nb == 1 ? "y was" : "ies were", nd);
}

void acl__kernel_atfork_prepare(void) { pthread_mutex_lock(&kern_lock); }
void acl__kernel_atfork_parent(void) { pthread_mutex_unlock(&kern_lock); }
void acl__kernel_atfork_child(void) { pthread_mutex_init(&kern_lock, NULL); }

/* ---- function queries (issue 10 §2: src/acl/function_query_api.c) ---------- */

int acl__kernel_function_binary(const char *api, aclrtFuncHandle h, aclrtBinHandle *bin) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_FUNCTION)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "funcHandle", h, ACL__H_FUNCTION);
  }
  *bin = ((kfunc *)h)->bin;
  pthread_mutex_unlock(&kern_lock);
  return 0;
}

int acl__kernel_function_entry(const char *api, aclrtFuncHandle h, void **entry) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_FUNCTION)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "funcHandle", h, ACL__H_FUNCTION);
  }
  *entry = (void *)((kfunc *)h)->entry;
  pthread_mutex_unlock(&kern_lock);
  return 0;
}

/* A function handle already made whose entry is `entry`: in binary `h`, or
 * in any loaded binary when h is NULL.  1 when found. */
int acl__kernel_find_by_entry(aclrtBinHandle h, const void *entry, aclrtFuncHandle *out) {
  int found = 0;
  pthread_mutex_lock(&kern_lock);
  for (kbin *b = live_bins; b != NULL && !found; b = b->next) {
    if (h != NULL && b != h)
      continue;
    for (kfunc *f = b->funcs; f != NULL; f = f->next)
      if ((const void *)f->entry == entry) {
        *out = f;
        found = 1;
        break;
      }
  }
  pthread_mutex_unlock(&kern_lock);
  return found;
}

/* ---- device globals, symbol sizes, per-binary exception callbacks ---------- */
/* (docs/kernels.md "Device globals"; the backend hooks of version 3)          */

static int bin_has_symbols(const kbin *b) {
  return b->ops->version >= 3 && b->ops->module_symbol != NULL && b->ops->module_symbol_at != NULL;
}

/* The live binary h with a reference taken, or NULL with the error recorded. */
static kbin *bin_pin(const char *api, aclrtBinHandle h, int *rc) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_BINARY)) {
    pthread_mutex_unlock(&kern_lock);
    *rc = fail_handle(api, "binHandle", h, ACL__H_BINARY);
    return NULL;
  }
  kbin *b = h;
  atomic_fetch_add(&b->refs, 1);
  pthread_mutex_unlock(&kern_lock);
  return b;
}

static int fail_no_symbols(const char *api, const kbin *b) {
  return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "the '%s' backend of device %d cannot look up symbols in kernel binaries", b->ops->name,
                   (int)b->dev->id);
}

int acl__kernel_binary_global(const char *api, aclrtBinHandle h, const char *name, void **addr, size_t *size) {
  int rc = 0;
  kbin *b = bin_pin(api, h, &rc);
  if (b == NULL)
    return rc;
  if (!bin_has_symbols(b)) {
    rc = fail_no_symbols(api, b);
  } else {
    char why[512] = "";
    rc = b->ops->module_symbol(b->module, name, ACL__SYM_DATA, addr, size, why, sizeof why);
    if (rc != 0)
      rc = acl__fail(api, rc, __FILE__, __LINE__,
                     "%s. Remedy: define the global in the kernel source with OPENACL_GLOBAL (openacl/kernel.h) so "
                     "it is exported under its C name",
                     why[0] ? why : "no such global");
  }
  bin_unref(b);
  return rc;
}

int acl__kernel_function_size(const char *api, aclrtFuncHandle h, size_t *size) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_FUNCTION)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "funcHandle", h, ACL__H_FUNCTION);
  }
  kfunc *f = h;
  kbin *b = f->bin;
  atomic_fetch_add(&b->refs, 1);
  pthread_mutex_unlock(&kern_lock);
  int rc = 0;
  if (!bin_has_symbols(b)) {
    rc = fail_no_symbols(api, b);
  } else {
    void *addr = NULL;
    char why[512] = "";
    rc = b->ops->module_symbol(b->module, f->name, ACL__SYM_FUNC, &addr, size, why, sizeof why);
    if (rc != 0)
      rc = acl__fail(api, rc, __FILE__, __LINE__, "%s", why[0] ? why : "the kernel's symbol was not found");
  }
  bin_unref(b);
  return rc;
}

int acl__kernel_function_params(const char *api, aclrtFuncHandle h, uint32_t *count,
                                uint32_t sizes[ACL__KERNEL_MAX_PARAMS]) {
  pthread_mutex_lock(&kern_lock);
  if (!acl__handle_valid(h, ACL__H_FUNCTION)) {
    pthread_mutex_unlock(&kern_lock);
    return fail_handle(api, "funcHandle", h, ACL__H_FUNCTION);
  }
  kfunc *f = h;
  kbin *b = f->bin;
  atomic_fetch_add(&b->refs, 1);
  pthread_mutex_unlock(&kern_lock);
  int rc = 0;
  char sym[320];
  snprintf(sym, sizeof sym, "openacl_params_%s", f->name);
  void *addr = NULL;
  size_t size = 0;
  char why[512] = "";
  if (!bin_has_symbols(b)) {
    rc = fail_no_symbols(api, b);
  } else if (strlen(f->name) > sizeof sym - 16 ||
             b->ops->module_symbol(b->module, sym, ACL__SYM_DATA, &addr, &size, why, sizeof why) != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "kernel '%s' of binary %s has no parameter description (no exported '%s'). Remedy: describe its "
                   "parameters with OPENACL_KERNEL_PARAMS(%s, <size of each parameter>) from openacl/kernel.h",
                   f->name, b->label, sym, f->name);
  } else {
    uint32_t n = 0;
    if (size >= sizeof n)
      memcpy(&n, addr, sizeof n);
    if (size < sizeof n || n > ACL__KERNEL_MAX_PARAMS || size < (size_t)(n + 1) * sizeof n) {
      rc = acl__fail(api, ACL_ERROR_INVALID_FILE, __FILE__, __LINE__,
                     "the parameter description '%s' of binary %s is malformed: %zu bytes, count %u (at most %d "
                     "parameters, one 32-bit size each after the count)",
                     sym, b->label, size, n, ACL__KERNEL_MAX_PARAMS);
    } else {
      *count = n;
      memcpy(sizes, (const uint32_t *)addr + 1, n * sizeof n);
    }
  }
  bin_unref(b);
  return rc;
}

int acl__kernel_symbol_lookup(const char *api, const void *symbol, acl__device *prefer, acl__ksym *out) {
  /* Snapshot the live binaries with a reference each: the backend is not
   * called under kern_lock. */
  kbin *local[32], **bins = local;
  size_t n = 0, cap = sizeof local / sizeof local[0];
  pthread_mutex_lock(&kern_lock);
  size_t total = 0;
  for (kbin *b = live_bins; b != NULL; b = b->next)
    total++;
  if (total > cap) {
    bins = malloc(total * sizeof *bins);
    cap = total;
  }
  if (bins != NULL)
    for (kbin *b = live_bins; b != NULL && n < cap; b = b->next) {
      atomic_fetch_add(&b->refs, 1);
      bins[n++] = b;
    }
  pthread_mutex_unlock(&kern_lock);
  if (bins == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to search the binaries");
  kbin *found = NULL;
  void *start = NULL;
  size_t size = 0;
  for (size_t i = 0; i < n; i++) {
    void *st = NULL;
    size_t sz = 0;
    if (!bin_has_symbols(bins[i]) || bins[i]->ops->module_symbol_at(bins[i]->module, symbol, &st, &sz) != 0)
      continue;
    if (found == NULL || (found->dev != prefer && bins[i]->dev == prefer)) {
      found = bins[i];
      start = st;
      size = sz;
    }
  }
  for (size_t i = 0; i < n; i++)
    if (bins[i] != found)
      bin_unref(bins[i]);
  if (bins != local)
    free(bins);
  if (found == NULL)
    return acl__fail(api, ACL_ERROR_RT_INVALID_SYMBOL, __FILE__, __LINE__,
                     "symbol %p is not a global variable of a loaded kernel binary. Remedy: pass the address "
                     "aclrtBinaryGetGlobal returned for a global of a binary that is still loaded",
                     symbol);
  if (start != symbol) {
    size_t off = (size_t)((const char *)symbol - (const char *)start);
    bin_unref(found);
    return acl__fail(api, ACL_ERROR_RT_INVALID_SYMBOL, __FILE__, __LINE__,
                     "symbol %p is %zu bytes into the %zu-byte global at %p, not its start. Remedy: pass the "
                     "global's own address and give the position as the copy's offset",
                     symbol, off, size, start);
  }
  out->bin = found;
  out->dev = found->dev;
  out->addr = start;
  out->size = size;
  return 0;
}

void acl__kernel_symbol_unpin(void *bin) {
  if (bin != NULL)
    bin_unref(bin);
}

int acl__kernel_set_exception_callback(const char *api, aclrtBinHandle h, aclrtOpExceptionCallback cb, void *user) {
  int rc = 0;
  kbin *b = bin_pin(api, h, &rc);
  if (b == NULL)
    return rc;
  pthread_mutex_lock(&b->exc_lock);
  b->exc_cb = cb;
  b->exc_user = user;
  pthread_mutex_unlock(&b->exc_lock);
  bin_unref(b);
  return 0;
}

/* Called by exception.c on the failing task's thread: the launch's reference
 * keeps the binary alive. */
aclrtOpExceptionCallback acl__kernel_exception_callback(aclrtFuncHandle func, void **user) {
  kbin *b = ((kfunc *)func)->bin;
  pthread_mutex_lock(&b->exc_lock);
  aclrtOpExceptionCallback cb = b->exc_cb;
  *user = b->exc_user;
  pthread_mutex_unlock(&b->exc_lock);
  return cb;
}
