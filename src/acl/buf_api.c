/*
 * buf_api.c - shared buffers (aclrtMbuf): a data area, a 96-byte private
 * area for the user, a data length, and chains of buffers.  On a card they
 * live in memory the host and the device's control CPU share; the simulated
 * device runs on the host, so they are host memory.
 *
 * Ownership: aclrtAllocBuf makes a header and a data area; aclrtCopyBufRef
 * makes a second header on the same data area (the area is counted and
 * freed with its last header).  aclrtAppendBufChain links a buffer behind a
 * head; freeing the head frees every buffer of its chain, and a buffer in a
 * chain cannot be freed on its own.  Chains hold at most 128 buffers.
 *
 * Lock: buf_lock guards the live list and every chain link.  It is a leaf:
 * nothing else is taken while it is held.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/process.h"
#include "common/errmsg.h"
#include "prof/prof.h"

#define MBUF_MAGIC 0x4d425546u /* "MBUF" */
#define MBUF_USER_DATA_SIZE 96
#define MBUF_CHAIN_MAX 128
#define MBUF_MAX_SIZE ((size_t)4 << 30)
#define MBUF_ALIGN 64

typedef struct mbuf_data {
  atomic_uint refs; /* headers using it */
  size_t size;
  void *mem;
} mbuf_data;

typedef struct mbuf {
  uint32_t magic;
  mbuf_data *data;
  size_t data_len;
  unsigned char user[MBUF_USER_DATA_SIZE];
  struct mbuf *head;       /* the chain's head (itself when it heads one or stands alone) */
  struct mbuf *chain_next; /* the next buffer of the chain */
  uint32_t chain_num;      /* head only: buffers in the chain, itself included */
  struct mbuf *live_next, *live_prev;
} mbuf;

static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
static mbuf *live; /* buf_lock */

static int live_locked(const void *p) {
  for (mbuf *b = live; b != NULL; b = b->live_next)
    if (b == p)
      return 1;
  return 0;
}

static void unlink_free_locked(mbuf *b) {
  if (b->live_prev != NULL)
    b->live_prev->live_next = b->live_next;
  else
    live = b->live_next;
  if (b->live_next != NULL)
    b->live_next->live_prev = b->live_prev;
  if (atomic_fetch_sub(&b->data->refs, 1) == 1) {
    free(b->data->mem);
    free(b->data);
  }
  b->magic = 0;
  free(b);
}

static void link_locked(mbuf *b) {
  b->live_prev = NULL;
  b->live_next = live;
  if (live != NULL)
    live->live_prev = b;
  live = b;
}

/* The live buffer `h`, with buf_lock held; NULL after recording a failure. */
static mbuf *get_locked(const char *api, const char *arg, const void *h, int *rc) {
  if (h == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL", arg);
    return NULL;
  }
  if (!live_locked(h)) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                    "%s %p is not a live buffer: it was not made by aclrtAllocBuf or aclrtCopyBufRef, or it "
                    "was freed",
                    arg, h);
    return NULL;
  }
  return (mbuf *)h;
}

static mbuf *new_header(mbuf_data *d) {
  mbuf *b = calloc(1, sizeof *b);
  if (b == NULL)
    return NULL;
  b->magic = MBUF_MAGIC;
  b->data = d;
  b->head = b;
  b->chain_num = 1;
  atomic_fetch_add(&d->refs, 1);
  return b;
}

aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size) {
  ACL__PROF_API_SCOPE();
  if (buf == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "buf is NULL");
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (size == 0 || size > MBUF_MAX_SIZE)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size %zu is out of range: a buffer holds 1 byte to 4 GiB", size);
  mbuf_data *d = calloc(1, sizeof *d);
  void *mem = NULL;
  if (d == NULL || posix_memalign(&mem, MBUF_ALIGN, size) != 0) {
    free(d);
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a buffer of %zu bytes", size);
  }
  d->mem = mem;
  d->size = size;
  atomic_init(&d->refs, 0);
  mbuf *b = new_header(d);
  if (b == NULL) {
    free(mem);
    free(d);
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a buffer header");
  }
  pthread_mutex_lock(&buf_lock);
  link_locked(b);
  pthread_mutex_unlock(&buf_lock);
  *buf = b;
  return 0;
}

aclError aclrtFreeBuf(aclrtMbuf buf) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL && b->head != b) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                   "buf %p is in the chain of buffer %p. Remedy: free the chain's head, which frees the chain",
                   buf, (void *)b->head);
    b = NULL;
  }
  while (b != NULL) { /* the head, then the rest of its chain */
    mbuf *next = b->chain_next;
    unlink_free_locked(b);
    b = next;
  }
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (dataPtr == NULL || size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", dataPtr == NULL ? "dataPtr" : "size");
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL) {
    *dataPtr = b->data->mem;
    *size = b->data->size;
  }
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (len == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "len is NULL");
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL)
    *len = b->data_len;
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL && len > b->data->size)
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "len %zu is larger than the buffer's %zu bytes", len, b->data->size);
  else if (b != NULL)
    b->data_len = len;
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

static int check_user_span(const char *api, size_t size, size_t offset) {
  if (size == 0 || offset >= MBUF_USER_DATA_SIZE || size > MBUF_USER_DATA_SIZE - offset)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "size %zu at offset %zu does not fit: the private area is %d bytes (size >= 1, offset + "
                     "size <= %d)",
                     size, offset, MBUF_USER_DATA_SIZE, MBUF_USER_DATA_SIZE);
  return 0;
}

aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (dataPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dataPtr is NULL");
  if ((rc = check_user_span(__func__, size, offset)) != 0)
    return rc;
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL)
    memcpy(dataPtr, b->user + offset, size);
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (dataPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dataPtr is NULL");
  if ((rc = check_user_span(__func__, size, offset)) != 0)
    return rc;
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL)
    memcpy(b->user + offset, dataPtr, size);
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (newBuf == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "newBuf is NULL");
  pthread_mutex_lock(&buf_lock);
  mbuf *b = get_locked(__func__, "buf", buf, &rc);
  if (b != NULL) {
    mbuf *n = new_header(b->data);
    if (n == NULL) {
      rc = ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a buffer header");
    } else {
      n->data_len = b->data_len;
      memcpy(n->user, b->user, sizeof n->user);
      link_locked(n);
      *newBuf = n;
    }
  }
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  pthread_mutex_lock(&buf_lock);
  mbuf *h = get_locked(__func__, "headBuf", headBuf, &rc);
  mbuf *b = h == NULL ? NULL : get_locked(__func__, "buf", buf, &rc);
  if (b == NULL)
    goto out;
  if (h->head != h) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "headBuf %p is not the head of its chain (that is %p)", headBuf,
                   (void *)h->head);
  } else if (b == h || b->head != b || b->chain_num != 1) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                   "buf %p is already in a chain, or heads one: a buffer joins one chain, alone", buf);
  } else if (h->chain_num >= MBUF_CHAIN_MAX) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "the chain of headBuf %p is full: a chain holds %d buffers", headBuf,
                   MBUF_CHAIN_MAX);
  } else {
    mbuf *t = h;
    while (t->chain_next != NULL)
      t = t->chain_next;
    t->chain_next = b;
    b->head = h;
    h->chain_num++;
  }
out:
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (num == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "num is NULL");
  pthread_mutex_lock(&buf_lock);
  mbuf *h = get_locked(__func__, "headBuf", headBuf, &rc);
  if (h != NULL)
    *num = h->head->chain_num;
  pthread_mutex_unlock(&buf_lock);
  return rc;
}

aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (buf == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "buf is NULL");
  pthread_mutex_lock(&buf_lock);
  mbuf *h = get_locked(__func__, "headBuf", headBuf, &rc);
  if (h != NULL) {
    h = h->head;
    if (index >= h->chain_num) {
      rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "index %u is out of range: the chain holds %u buffer%s", index,
                     h->chain_num, h->chain_num == 1 ? "" : "s");
    } else {
      mbuf *b = h;
      for (uint32_t i = 0; i < index; i++)
        b = b->chain_next;
      *buf = b;
    }
  }
  pthread_mutex_unlock(&buf_lock);
  return rc;
}
