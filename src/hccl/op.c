/*
 * op.c - an operation's life as a stream task: allocation, the task
 * function (stage in, post the messages and drive them for a while when
 * every peer is in another process, else hand them to the progress engine
 * and park; when done, fail with the engine's verdict or compute the result
 * out), release.
 *
 * The op's plan is data the builders in ops.c fill: messages over the host
 * staging buffer or device memory (direct messages), copies in (device ->
 * staging) made before the messages, an optional reduction of n staging
 * blocks into the first (before the copies out, or between the two phases
 * of a two-phase op), and copies out (staging -> device) made after.  The
 * copies run in the task function, on a device executor with access
 * enabled.  Direct messages are read and written by MPI and the progress
 * thread through openaclDevicePtr's addresses: only where the device's
 * memory protection is not protection keys, which open device memory to
 * the executors alone (under "alias" the runtime's addresses are a mapping
 * any thread of the process may use; under "off" all memory is open).
 * A same-host peer reads a direct send in place (transport_shm.c), and the
 * reduction may read a received block there too (hccl__op_reduce).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hccl/hccl_ops.h"
#include "hccl/hccl_transport.h"
#include "openacl/openacl.h"

hccl__op *hccl__op_new(hccl__comm *c, const char *api, uint32_t nmsgs, size_t stage) {
  hccl__op *op = calloc(1, sizeof(*op));
  if (op == NULL)
    return NULL;
  op->comm = c;
  op->g = c->g;
  op->api = api;
  op->refs = 1; /* the task's */
  op->msgs = nmsgs ? calloc(nmsgs, sizeof(*op->msgs)) : NULL;
  op->msgs_cap = op->msgs != NULL ? nmsgs : 0;
  op->stage_bytes = stage; /* allocated when the task first runs (hccl__stage_take) */
  hccl__plan *p = calloc(1, sizeof(*p));
  op->extra = p;
  if ((nmsgs && op->msgs == NULL) || p == NULL) {
    free(op->msgs), free(op->stage), free(p), free(op);
    return NULL;
  }
  pthread_mutex_init(&op->lock, NULL);
  return op;
}

void hccl__op_unref(hccl__op *op) {
  pthread_mutex_lock(&op->lock);
  int last = --op->refs == 0;
  pthread_mutex_unlock(&op->lock);
  if (!last)
    return;
  hccl__plan *p = op->extra;
  if (p != NULL) {
    free(p->in), free(p->out), free(p->red_off), free(p);
  }
  pthread_mutex_destroy(&op->lock);
  free(op->msgs), free(op->stage), free(op);
}

static int hccl__grow(void **arr, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap)
    return 0;
  uint32_t n = *cap ? *cap * 2 : 8;
  while (n < need)
    n *= 2;
  void *a = realloc(*arr, (size_t)n * elem);
  if (a == NULL)
    return -1;
  *arr = a;
  *cap = n;
  return 0;
}

void hccl__plan_msg(hccl__op *op, int send, uint32_t peer, size_t stage_off, size_t bytes) {
  /* MPI counts are ints: a message above HCCL__MSG_MAX bytes goes as several,
   * split the same way on both sides, so they pair in order */
  size_t off = 0;
  do {
    size_t part = bytes - off < HCCL__MSG_MAX ? bytes - off : HCCL__MSG_MAX;
    if (op->nmsgs == op->msgs_cap &&
        hccl__grow((void **)&op->msgs, &op->msgs_cap, op->nmsgs + 1, sizeof(*op->msgs)) != 0) {
      op->plan_failed = 1;
      return;
    }
    hccl__msg *m = &op->msgs[op->nmsgs++];
    memset(m, 0, sizeof(*m));
    m->op = op;
    m->send = send;
    m->peer = peer;
    m->off = stage_off + off; /* m->buf is set once the staging buffer exists */
    m->bytes = part;
    m->local = op->g->proc[peer] < 0;
    off += part;
  } while (off < bytes);
}

static int hccl__plan_copy(hccl__op *op, int in, const void *dev, size_t stage_off, size_t bytes, int for_msg) {
  hccl__plan *p = op->extra;
  hccl__copy **arr = in ? &p->in : &p->out;
  uint32_t *n = in ? &p->nin : &p->nout, *cap = in ? &p->in_cap : &p->out_cap;
  if (bytes == 0)
    return 0;
  for (uint32_t i = 0; in && i < *n; i++)
    if ((*arr)[i].dev == dev && (*arr)[i].off == stage_off && (*arr)[i].bytes == bytes) {
      (*arr)[i].for_msg &= for_msg; /* needed by the op itself too: made even when direct */
      return 0;
    }
  if (hccl__grow((void **)arr, cap, *n + 1, sizeof(**arr)) != 0)
    return -1;
  (*arr)[(*n)++] = (hccl__copy){(void *)(uintptr_t)dev, stage_off, bytes, for_msg};
  return 0;
}

int hccl__plan_in(hccl__op *op, const void *dev, size_t stage_off, size_t bytes) {
  return hccl__plan_copy(op, 1, dev, stage_off, bytes, 0);
}

int hccl__plan_out(hccl__op *op, void *dev, size_t stage_off, size_t bytes) {
  return hccl__plan_copy(op, 0, dev, stage_off, bytes, 0);
}

int hccl__plan_own(hccl__op *op, void *dst, const void *src, size_t stage_off, size_t bytes) {
  hccl__plan *p = op->extra;
  if (bytes == 0)
    return 0;
  p->own_dst = dst;
  p->own_src = src;
  p->own_bytes = bytes;
  return hccl__plan_copy(op, 1, src, stage_off, bytes, 1) || hccl__plan_copy(op, 0, dst, stage_off, bytes, 1);
}

int hccl__plan_msg_dev(hccl__op *op, int send, uint32_t peer, size_t stage_off, const void *dev, size_t bytes) {
  uint32_t first = op->nmsgs;
  hccl__plan_msg(op, send, peer, stage_off, bytes);
  if (bytes == 0)
    return 0; /* moves nothing: no address to translate (a V count of 0 may come with any displacement) */
  for (uint32_t i = first; i < op->nmsgs; i++) /* the parts of a message above HCCL__MSG_MAX */
    op->msgs[i].dev = (char *)(uintptr_t)dev + (op->msgs[i].off - stage_off);
  return hccl__plan_copy(op, send, dev, stage_off, bytes, 1);
}

int hccl__plan_step_out(hccl__op *op, void *dev, size_t stage_off, size_t bytes) {
  hccl__plan *p = op->extra;
  p->step_dev = dev;
  p->step_off = stage_off;
  p->step_bytes = bytes;
  return hccl__plan_copy(op, 0, dev, stage_off, bytes, 1); /* made by the step instead when direct */
}

int hccl__plan_msg_step(hccl__op *op, uint32_t peer) {
  hccl__plan *p = op->extra;
  uint32_t first = op->nmsgs;
  hccl__plan_msg(op, 1, peer, p->step_off, p->step_bytes);
  for (uint32_t i = first; p->step_bytes != 0 && i < op->nmsgs; i++)
    op->msgs[i].dev = (char *)p->step_dev + (op->msgs[i].off - p->step_off);
  return op->plan_failed ? -1 : 0;
}

int hccl__plan_step_own(hccl__op *op, uint32_t k, const void *dev, const void *all, size_t all_bytes) {
  hccl__plan *p = op->extra;
  p->red_own_dev = dev;
  p->red_own_k = k;
  p->red_src_all = all;
  p->red_src_all_bytes = all_bytes;
  return hccl__plan_copy(op, 1, dev, p->red_off[k], p->red_count * hccl__dtype_size(op->dtype), 0);
}

int hccl__plan_reduce(hccl__op *op, uint32_t nblocks, const size_t *offs, uint64_t count) {
  hccl__plan *p = op->extra;
  p->red_off = malloc(nblocks * sizeof(size_t));
  if (p->red_off == NULL)
    return -1;
  memcpy(p->red_off, offs, nblocks * sizeof(size_t));
  p->red_n = nblocks;
  p->red_count = count;
  return 0;
}

void hccl__plan_phase(hccl__op *op) {
  hccl__plan *p = op->extra;
  op->nphase0 = op->nmsgs;
  p->red_between = 1;
}

/* The staging buffer, taken when the task first runs rather than when the
 * call queues it: a program that queues many operations at once then
 * reuses one buffer (the comm's cache) instead of holding one each, and
 * fresh memory costs page faults and unmaps that cost more than the copy.
 * 0, or -1 out of memory. */
static int hccl__stage_take(hccl__op *op) {
  hccl__comm *c = op->comm;
  for (uint32_t i = 0; i < op->nmsgs; i++)
    if (op->direct && op->msgs[i].dev != NULL)
      op->msgs[i].buf = openaclDevicePtr(op->msgs[i].dev);
  if (op->stage_bytes == 0)
    return 0;
  pthread_mutex_lock(&c->stage_lock);
  if (c->stage_cache != NULL && c->stage_cache_bytes >= op->stage_bytes) {
    op->stage = c->stage_cache;
    op->stage_cap = c->stage_cache_bytes;
    c->stage_cache = NULL;
    c->stage_cache_bytes = 0;
  }
  pthread_mutex_unlock(&c->stage_lock);
  if (op->stage == NULL) {
    if ((op->stage = malloc(op->stage_bytes)) == NULL)
      return -1;
    op->stage_cap = op->stage_bytes;
  }
  for (uint32_t i = 0; i < op->nmsgs; i++)
    if (!op->direct || op->msgs[i].dev == NULL)
      op->msgs[i].buf = (char *)op->stage + op->msgs[i].off;
  return 0;
}

static int hccl__overlap(const void *a, size_t an, const void *b, size_t bn);

static void hccl__stage_in(hccl__op *op) {
  hccl__plan *p = op->extra;
  if (op->direct && p->own_dst != NULL && p->own_dst != p->own_src) {
    if (hccl__overlap(p->own_dst, p->own_bytes, p->own_src, p->own_bytes))
      memmove(openaclDevicePtr(p->own_dst), openaclDevicePtr(p->own_src), p->own_bytes);
    else
      hccl__copy_large(openaclDevicePtr(p->own_dst), openaclDevicePtr(p->own_src), p->own_bytes);
  }
  for (uint32_t i = 0; i < p->nin; i++)
    if (!(op->direct && p->in[i].for_msg) && !(p->acc_direct && p->in[i].dev == p->red_own_dev))
      memcpy((char *)op->stage + p->in[i].off, openaclDevicePtr(p->in[i].dev), p->in[i].bytes);
}

/* Block k of the reduction: this rank's own block in sendBuf (acc_direct), a
 * held receive's data in the sender's memory, or staging. */
static const void *hccl__red_src(hccl__op *op, uint32_t k, hccl__msg **held) {
  hccl__plan *p = op->extra;
  *held = NULL;
  if (p->acc_direct && k == p->red_own_k)
    return openaclDevicePtr(p->red_own_dev);
  for (uint32_t i = 0; op->red_early && i < op->nmsgs; i++)
    if (op->msgs[i].red_block == k + 1 && op->msgs[i].held != NULL) {
      *held = &op->msgs[i];
      return op->msgs[i].held;
    }
  return (char *)op->stage + p->red_off[k];
}

void hccl__op_reduce(hccl__op *op) {
  hccl__plan *p = op->extra;
  if (p->red_done || p->red_n == 0)
    return;
  p->red_done = 1;
  char *acc = p->acc_direct ? openaclDevicePtr(p->step_dev) : (char *)op->stage + p->red_off[0];
  size_t bytes = p->red_count * hccl__dtype_size(op->dtype);
  hccl__msg *m;
  const void *src = hccl__red_src(op, 0, &m);
  if (m != NULL || p->acc_direct) { /* the accumulator must be this rank's own, writable memory */
    memcpy(acc, src, bytes);
    if (m != NULL)
      hccl__shm_release(op, m);
  }
  for (uint32_t k = 1; k < p->red_n; k++) {
    src = hccl__red_src(op, k, &m);
    hccl__reduce(acc, src, p->red_count, op->dtype, op->redop);
    if (m != NULL)
      hccl__shm_release(op, m);
  }
}

void hccl__op_reduce_early(hccl__op *op) {
  hccl__plan *p = op->extra;
  if (!op->red_early || p->red_done || (p->red_between && op->phase != 0))
    return;
  uint32_t end = p->red_between ? op->nphase0 : op->nmsgs;
  for (uint32_t i = 0; i < end; i++)
    if (!op->msgs[i].send && op->msgs[i].done <= 0)
      return;
  hccl__op_reduce(op);
}

void hccl__op_step(hccl__op *op) {
  hccl__plan *p = op->extra;
  char *s = op->stage;
  hccl__op_reduce(op);
  if (op->direct && p->step_dev != NULL && !p->acc_direct)
    memcpy(openaclDevicePtr(p->step_dev), s + p->step_off, p->step_bytes);
}

static void hccl__stage_out(hccl__op *op) {
  hccl__plan *p = op->extra;
  char *s = op->stage;
  if (!p->red_between)
    hccl__op_reduce(op);
  for (uint32_t i = 0; i < p->nout; i++)
    if (!(op->direct && p->out[i].for_msg))
      memmove(openaclDevicePtr(p->out[i].dev), s + p->out[i].off, p->out[i].bytes);
}

/* The op no longer counts as in flight for HcclCommDestroy: called by the
 * task's last run, before it returns (so a synchronisation that sees the task
 * done sees the count down), or by release when the task never finished.
 * The last run also hands the staging buffer back to the comm's cache,
 * unless MPI may still use it (a zombie) - release cannot: the comm may be
 * gone by then, and a discarded task's messages may still be posted. */
static void hccl__op_settle(hccl__op *op, int last_run) {
  if (op->settled)
    return;
  op->settled = 1;
  hccl__comm *c = op->comm;
  if (last_run && op->stage != NULL && !op->zombie) {
    void *old = NULL;
    pthread_mutex_lock(&c->stage_lock);
    if (op->stage_cap > c->stage_cache_bytes) {
      old = c->stage_cache;
      c->stage_cache = op->stage;
      c->stage_cache_bytes = op->stage_cap;
    } else {
      old = op->stage;
    }
    pthread_mutex_unlock(&c->stage_lock);
    free(old);
    op->stage = NULL;
  }
  atomic_fetch_sub(&c->inflight, 1);
}

static int hccl__op_run(openaclStreamTask *t, void *arg) {
  hccl__op *op = arg;
  pthread_mutex_lock(&op->lock);
  int st = op->state;
  if (st == HCCL__OP_NEW) {
    op->task = t;
    op->state = HCCL__OP_POSTED;
  }
  pthread_mutex_unlock(&op->lock);
  if (st == HCCL__OP_NEW) {
    if (hccl__stage_take(op) != 0) {
      /* the peers will time out waiting for this rank, naming it */
      openaclStreamTaskSetWhat(t, "HCCL: out of host memory for the staging buffer");
      hccl__op_settle(op, 1);
      return ACL_ERROR_BAD_ALLOC;
    }
    hccl__stage_in(op);
    if (op->nmsgs == 0 || (op->remote_only && hccl__engine_try(op))) {
      hccl__stage_out(op);
      hccl__op_settle(op, 1);
      return 0;
    }
    if (!op->posted_by_task)
      hccl__engine_post(op);
    return OPENACL_STREAM_TASK_PARK;
  }
  if (st == HCCL__OP_POSTED)
    return OPENACL_STREAM_TASK_PARK; /* woken early: the engine's wake will come */
  if (op->error != 0) {
    openaclStreamTaskSetWhat(t, op->errwhat);
    hccl__op_settle(op, 1);
    return op->error;
  }
  hccl__stage_out(op);
  hccl__op_settle(op, 1);
  return 0;
}

static void hccl__op_release(void *arg, int ran) {
  hccl__op *op = arg;
  (void)ran;
  pthread_mutex_lock(&op->lock);
  op->task = NULL;
  pthread_mutex_unlock(&op->lock);
  hccl__op_settle(op, 0);
  hccl__op_unref(op);
}

static int hccl__overlap(const void *a, size_t an, const void *b, size_t bn) {
  const char *x = a, *y = b;
  return x < y + bn && y < x + an;
}

/* Whether the op's messages may use device memory itself: the comm's device
 * lets the runtime's threads reach it (no protection keys: the progress
 * thread and MPI have no access of their own to enable), and no direct
 * receive overlaps another direct message of its phase, nor the rank's own
 * block a direct message of phase 0 (in-place uses then go through staging,
 * which gives every message its own memory). */
static int hccl__direct_ok(hccl__op *op) {
  hccl__comm *c = op->comm;
  int d = atomic_load(&c->direct);
  if (d == 0) {
    const char *mech = NULL;
    d = hccl__env_zero_copy() && openaclGetMemoryProtection(c->device, &mech) == ACL_SUCCESS && mech != NULL &&
                strcmp(mech, "pkeys") != 0 ? 1 : 2;
    atomic_store(&c->direct, d);
  }
  if (d != 1)
    return 0;
  hccl__plan *p = op->extra;
  for (uint32_t i = 0; i < op->nmsgs; i++) {
    hccl__msg *a = &op->msgs[i];
    /* the own block is copied before phase 0: a send of that very data may read either */
    if (p->own_dst != NULL && a->dev != NULL && i < op->nphase0 &&
        !(a->send && p->own_dst == p->own_src) && hccl__overlap(a->dev, a->bytes, p->own_dst, p->own_bytes))
      return 0;
    for (uint32_t j = i + 1; a->dev != NULL && j < op->nmsgs; j++) {
      hccl__msg *b = &op->msgs[j];
      if (b->dev != NULL && (!a->send || !b->send) && (i < op->nphase0) == (j < op->nphase0) &&
          hccl__overlap(a->dev, a->bytes, b->dev, b->bytes))
        return 0;
    }
  }
  return 1;
}

HcclResult hccl__op_launch(hccl__op *op, aclrtStream stream) {
  hccl__comm *c = op->comm;
  const char *api = op->api;
  char what[64];
  if (op->plan_failed) {
    hccl__op_unref(op);
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory for the operation's messages");
  }
  if (op->nphase0 == 0)
    op->nphase0 = op->nmsgs; /* one phase */
  op->direct = hccl__direct_ok(op);
  hccl__plan *p = op->extra;
  p->acc_direct = op->direct && p->red_own_dev != NULL && p->step_dev != NULL && p->step_off == p->red_off[0] &&
                  !hccl__overlap(p->step_dev, p->step_bytes, p->red_src_all, p->red_src_all_bytes);
  op->remote_only = 1;
  for (uint32_t i = 0; i < op->nmsgs; i++) {
    hccl__msg *m = &op->msgs[i];
    op->remote_only &= !m->local;
    if (!m->local) /* numbered in launch order, the order the peer pairs them in (transport_shm.c) */
      m->seq = c->seq[2 * (size_t)m->peer + (m->send != 0)]++;
  }
  /* a receive that is a whole block of the reduction may be read in place
   * from the sender's memory (transport_shm.c) when every message of the
   * op goes through MPI, whose receives only the driver marks done */
  size_t rb = p->red_count * hccl__dtype_size(op->dtype);
  for (uint32_t i = 0; op->remote_only && c->peer_memory && i < op->nmsgs; i++) {
    hccl__msg *m = &op->msgs[i];
    if (m->send || m->bytes < HCCL__SHM_MIN || m->bytes != rb || (p->red_between && i >= op->nphase0))
      continue;
    for (uint32_t k = 0; k < p->red_n; k++)
      if (p->red_off[k] == m->off) {
        m->red_block = k + 1;
        op->red_early = 1;
      }
  }
  snprintf(what, sizeof(what), "%s (rank %u of %u)", api, c->rank, c->nranks);
  atomic_fetch_add(&c->inflight, 1);
  aclError rc = openaclLaunchStreamTask(stream, what, hccl__op_run, hccl__op_release, op);
  if (rc != ACL_SUCCESS)
    return hccl__fail(api, HCCL_E_RUNTIME, "the stream refused the task (%d; aclGetRecentErrMsg has the runtime's "
                      "reason). Remedy: pass a stream of the communicator's device, made by this thread's context",
                      (int)rc);
  return HCCL_SUCCESS;
}
