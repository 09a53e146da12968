/*
 * channel.c - TDT channels: a bounded FIFO of whole datasets per handle.
 *
 * acltdtCreateChannelWithCapacity: capacity 2..8192 datasets; send and
 * receive take a timeout (-1 forever, 0 at once, > 0 ms); full -> 207014,
 * empty -> 207013; clean drops what is queued; stop does nothing.
 * acltdtCreateChannel (the vendor's older device channel): timeouts must be
 * -1, only a channel whose name starts with "TF_RECEIVE_" can receive,
 * clean and size are unsupported (200006), and stop wakes the threads
 * blocked in send / receive, which then fail with ACL_ERROR_FAILURE.  It
 * holds ACL__CHANNEL_LEGACY_DEPTH datasets.
 *
 * A sent dataset travels as one wire block (wire.c): the sender copies the
 * data once, the receiving dataset takes the block.  When a dataset
 * receives again, its previous block becomes the channel's spare, which
 * the next send fills if it is large enough (fresh blocks of a MiB or more
 * cost page faults, and a block freed by another thread is often trimmed).
 *
 * Lock: each channel's `lock` guards its ring, `stopped`, `closing`,
 * `inside` and `spare`; it is a leaf (blocks are packed, unpacked and freed
 * outside it).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/tdt.h"

#define ACL__CHANNEL_CAP_MIN 2
#define ACL__CHANNEL_CAP_MAX 8192
#define ACL__CHANNEL_LEGACY_DEPTH 128
#define ACL__CHANNEL_RECV_PREFIX "TF_RECEIVE_"

struct acltdtChannelHandle {
  uint32_t dev;
  char name[ACL__TDT_NAME_MAX];
  int legacy;        /* made by acltdtCreateChannel */
  int can_receive;   /* capacity channels, or legacy ones named TF_RECEIVE_... */
  size_t cap;
  pthread_mutex_t lock;
  pthread_cond_t not_empty, not_full; /* CLOCK_MONOTONIC */
  void **ring;       /* cap wire blocks (lock) */
  size_t head, count; /* (lock) */
  int stopped;       /* legacy: stop was called (lock) */
  int closing;       /* destroy has begun (lock) */
  int inside;        /* threads in send / receive (lock) */
  void *spare;       /* a received block kept for the next send (lock) */
  pthread_cond_t idle; /* signalled when inside drops to 0 */
};

static acltdtChannelHandle *channel_new(const char *api, uint32_t deviceId, const char *name, size_t cap,
                                        int legacy) {
  int rc = 0;
  uint32_t count = 0;
  if (name == NULL) {
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "name is NULL. Remedy: name the channel");
    return NULL;
  }
  if (strlen(name) + 1 > ACL__TDT_NAME_MAX) {
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "name is %zu characters; the limit is %d",
              strlen(name), ACL__TDT_NAME_MAX - 1);
    return NULL;
  }
  if (!legacy && (cap < ACL__CHANNEL_CAP_MIN || cap > ACL__CHANNEL_CAP_MAX)) {
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "capacity %zu is out of range: %d to %d datasets",
              cap, ACL__CHANNEL_CAP_MIN, ACL__CHANNEL_CAP_MAX);
    return NULL;
  }
  if ((rc = aclrtGetDeviceCount(&count)) != 0) /* records "call aclInit first" */
    return NULL;
  if (deviceId >= count) {
    acl__fail(api, ACL_ERROR_RT_INVALID_DEVICEID, __FILE__, __LINE__,
              "deviceId %u does not exist: there are %u devices (0 to %u)", deviceId, count, count - 1);
    return NULL;
  }
  acltdtChannelHandle *ch = calloc(1, sizeof *ch);
  void **ring = calloc(cap, sizeof *ring);
  if (ch == NULL || ring == NULL) {
    free(ch);
    free(ring);
    acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a channel of %zu datasets", cap);
    return NULL;
  }
  ch->dev = deviceId;
  strcpy(ch->name, name);
  ch->legacy = legacy;
  ch->can_receive = !legacy || strncmp(name, ACL__CHANNEL_RECV_PREFIX, strlen(ACL__CHANNEL_RECV_PREFIX)) == 0;
  ch->cap = cap;
  ch->ring = ring;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_mutex_init(&ch->lock, NULL);
  pthread_cond_init(&ch->not_empty, &ca);
  pthread_cond_init(&ch->not_full, &ca);
  pthread_cond_init(&ch->idle, NULL);
  pthread_condattr_destroy(&ca);
  acl__handle_register(ch, ACL__H_TDT_CHANNEL);
  return ch;
}

acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name, size_t capacity) {
  return channel_new(__func__, deviceId, name, capacity, 0);
}

acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name) {
  return channel_new(__func__, deviceId, name, ACL__CHANNEL_LEGACY_DEPTH, 1);
}

static int check_channel(const char *api, const acltdtChannelHandle *h) {
  return acl__tdt_check(api, "handle", h, ACL__H_TDT_CHANNEL, "acltdtCreateChannel or acltdtCreateChannelWithCapacity");
}

static void drop_all_locked(acltdtChannelHandle *ch) {
  while (ch->count > 0) {
    free(ch->ring[ch->head]);
    ch->ring[ch->head] = NULL;
    ch->head = (ch->head + 1) % ch->cap;
    ch->count--;
  }
}

aclError acltdtDestroyChannel(acltdtChannelHandle *handle) {
  int rc = check_channel(__func__, handle);
  if (rc != 0)
    return rc;
  acl__handle_unregister(handle);
  pthread_mutex_lock(&handle->lock);
  handle->closing = 1; /* threads still blocked in send / receive leave with ACL_ERROR_FAILURE */
  pthread_cond_broadcast(&handle->not_empty);
  pthread_cond_broadcast(&handle->not_full);
  while (handle->inside > 0)
    pthread_cond_wait(&handle->idle, &handle->lock);
  drop_all_locked(handle);
  free(handle->spare);
  pthread_mutex_unlock(&handle->lock);
  pthread_mutex_destroy(&handle->lock);
  pthread_cond_destroy(&handle->not_empty);
  pthread_cond_destroy(&handle->not_full);
  pthread_cond_destroy(&handle->idle);
  free(handle->ring);
  free(handle);
  return 0;
}

aclError acltdtStopChannel(acltdtChannelHandle *handle) {
  int rc = check_channel(__func__, handle);
  if (rc != 0)
    return rc;
  if (handle->legacy) { /* wakes blocked senders and receivers; capacity channels: nothing to do */
    pthread_mutex_lock(&handle->lock);
    handle->stopped = 1;
    pthread_cond_broadcast(&handle->not_empty);
    pthread_cond_broadcast(&handle->not_full);
    pthread_mutex_unlock(&handle->lock);
  }
  return 0;
}

aclError acltdtCleanChannel(acltdtChannelHandle *handle) {
  int rc = check_channel(__func__, handle);
  if (rc != 0)
    return rc;
  if (handle->legacy)
    return ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED,
                     "channel '%s' was made by acltdtCreateChannel, which cannot be cleaned. Remedy: use "
                     "acltdtCreateChannelWithCapacity",
                     handle->name);
  pthread_mutex_lock(&handle->lock);
  drop_all_locked(handle);
  pthread_cond_broadcast(&handle->not_full);
  pthread_mutex_unlock(&handle->lock);
  return 0;
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size) {
  int rc = check_channel(__func__, handle);
  if (rc != 0)
    return rc;
  if (size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is NULL");
  if (handle->legacy)
    return ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED,
                     "channel '%s' was made by acltdtCreateChannel, which has no size query. Remedy: use "
                     "acltdtCreateChannelWithCapacity",
                     handle->name);
  acltdtChannelHandle *ch = (acltdtChannelHandle *)handle;
  pthread_mutex_lock(&ch->lock);
  *size = ch->count;
  pthread_mutex_unlock(&ch->lock);
  return 0;
}

static int check_timeout(const char *api, const acltdtChannelHandle *ch, int32_t timeout, struct timespec *dl) {
  if (ch->legacy && timeout != -1)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "timeout is %d: channels made by acltdtCreateChannel only block (-1). Remedy: pass -1, or use "
                     "acltdtCreateChannelWithCapacity for timeouts",
                     (int)timeout);
  return acl__tdt_deadline(api, timeout, dl);
}

/* Waits on cv until ready() or the deadline; 0, or the code to return
 * (full_code on timeout).  Called and returns with ch->lock held. */
static int wait_locked(const char *api, acltdtChannelHandle *ch, pthread_cond_t *cv, int want_space, int32_t timeout,
                       const struct timespec *dl, int full_code) {
  for (;;) {
    if (ch->closing)
      return acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                       "channel '%s' was destroyed while this call waited. Remedy: stop using a channel before "
                       "acltdtDestroyChannel",
                       ch->name);
    if (ch->stopped)
      return acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                       "channel '%s' was stopped by acltdtStopChannel. Remedy: destroy it; make a new channel to "
                       "transfer more",
                       ch->name);
    if (want_space ? ch->count < ch->cap : ch->count > 0)
      return 0;
    if (timeout == 0 || (timeout > 0 && pthread_cond_timedwait(cv, &ch->lock, dl) != 0 &&
                         !(want_space ? ch->count < ch->cap : ch->count > 0)))
      return acl__fail_polled(api, full_code, __FILE__, __LINE__,
                              "channel '%s' is %s (%zu of %zu datasets) after %d ms. Remedy: %s, or wait longer",
                              ch->name, want_space ? "full" : "empty", ch->count, ch->cap, (int)timeout,
                              want_space ? "receive from it" : "send to it");
    if (timeout < 0)
      pthread_cond_wait(cv, &ch->lock);
  }
}

aclError acltdtSendTensor(const acltdtChannelHandle *handle, const acltdtDataset *dataset, int32_t timeout) {
  struct timespec dl;
  void *wire = NULL;
  size_t bytes = 0;
  int rc = check_channel(__func__, handle);
  if (rc == 0)
    rc = acl__tdt_check(__func__, "dataset", dataset, ACL__H_TDT_DATASET, "acltdtCreateDataset");
  if (rc == 0)
    rc = check_timeout(__func__, handle, timeout, &dl);
  if (rc != 0)
    return rc;
  acltdtChannelHandle *ch = (acltdtChannelHandle *)handle;
  pthread_mutex_lock(&ch->lock);
  void *reuse = ch->spare;
  ch->spare = NULL;
  pthread_mutex_unlock(&ch->lock);
  if ((rc = acl__tdt_wire_pack(__func__, dataset, reuse, &wire, &bytes)) != 0)
    return rc;
  pthread_mutex_lock(&ch->lock);
  ch->inside++;
  rc = wait_locked(__func__, ch, &ch->not_full, 1, timeout, &dl, ACL_ERROR_RT_QUEUE_FULL);
  if (rc == 0) {
    ch->ring[(ch->head + ch->count) % ch->cap] = wire;
    ch->count++;
    wire = NULL;
    pthread_cond_signal(&ch->not_empty);
  }
  if (--ch->inside == 0)
    pthread_cond_broadcast(&ch->idle);
  pthread_mutex_unlock(&ch->lock);
  free(wire);
  return rc;
}

aclError acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset, int32_t timeout) {
  struct timespec dl;
  void *wire = NULL;
  int rc = check_channel(__func__, handle);
  if (rc == 0)
    rc = acl__tdt_check(__func__, "dataset", dataset, ACL__H_TDT_DATASET, "acltdtCreateDataset");
  if (rc == 0)
    rc = check_timeout(__func__, handle, timeout, &dl);
  if (rc != 0)
    return rc;
  if (!handle->can_receive)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "channel '%s' is a send channel: channels made by acltdtCreateChannel receive only when their "
                     "name starts with \"" ACL__CHANNEL_RECV_PREFIX "\"",
                     handle->name);
  if (!dataset->received && dataset->n != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dataset %p already holds %zu items of its own: receive into an empty dataset, or one filled "
                     "by an earlier acltdtReceiveTensor. Remedy: pass a new acltdtCreateDataset()",
                     (void *)dataset, dataset->n);
  acltdtChannelHandle *ch = (acltdtChannelHandle *)handle;
  void *old = acl__tdt_dataset_take_wire(dataset), *drop = NULL;
  pthread_mutex_lock(&ch->lock);
  if (old != NULL) { /* the dataset's previous block becomes the channel's spare */
    drop = ch->spare;
    ch->spare = old;
  }
  ch->inside++;
  rc = wait_locked(__func__, ch, &ch->not_empty, 0, timeout, &dl, ACL_ERROR_RT_QUEUE_EMPTY);
  if (rc == 0) {
    wire = ch->ring[ch->head];
    ch->ring[ch->head] = NULL;
    ch->head = (ch->head + 1) % ch->cap;
    ch->count--;
    pthread_cond_signal(&ch->not_full);
  }
  if (--ch->inside == 0)
    pthread_cond_broadcast(&ch->idle);
  pthread_mutex_unlock(&ch->lock);
  free(drop);
  if (rc == 0)
    rc = acl__tdt_wire_unpack(__func__, dataset, wire);
  return rc;
}
