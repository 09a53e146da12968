/*
 * transport_local.c - messages between ranks of one process: the group's
 * mailboxes.  A send and a receive between the same two ranks meet in FIFO
 * order (each rank posts its messages in the order of its operations), and
 * the data moves with one memcpy between the two ops' host staging
 * buffers.  Only the progress thread posts and matches, with the group lock
 * held (hccl_int.h has the lock order).
 */
#include <string.h>

#include "hccl/hccl_transport.h"

/* The mailbox of unmatched messages of `kind` from src to dst. */
static hccl__msg **hccl__box(hccl__group *g, int send, uint32_t src, uint32_t dst) {
  return (send ? g->box_send : g->box_recv) + (size_t)src * g->nranks + dst;
}

int hccl__local_post(hccl__msg *m) {
  hccl__group *g = m->op->g;
  uint32_t me = m->op->comm->rank;
  uint32_t src = m->send ? me : m->peer, dst = m->send ? m->peer : me;
  int rc = 0;
  pthread_mutex_lock(&g->lock);
  hccl__msg **other = hccl__box(g, !m->send, src, dst);
  if (*other != NULL) {
    hccl__msg *o = *other;
    *other = o->next;
    o->next = NULL;
    hccl__msg *s = m->send ? m : o, *r = m->send ? o : m;
    if (s->bytes != r->bytes)
      rc = -1; /* both ops fail: the counts do not match */
    else if (s->bytes > 0)
      memcpy(r->buf, s->buf, s->bytes);
    m->done = o->done = rc == 0 ? 1 : -1;
    o->op->pending--;
    m->op->pending--;
  } else {
    hccl__msg **tail = hccl__box(g, m->send, src, dst);
    while (*tail != NULL)
      tail = &(*tail)->next;
    *tail = m;
  }
  pthread_mutex_unlock(&g->lock);
  return rc;
}

void hccl__local_cancel(hccl__msg *m) {
  hccl__group *g = m->op->g;
  uint32_t me = m->op->comm->rank;
  pthread_mutex_lock(&g->lock);
  hccl__msg **pp = hccl__box(g, m->send, m->send ? me : m->peer, m->send ? m->peer : me);
  while (*pp != NULL && *pp != m)
    pp = &(*pp)->next;
  if (*pp == m)
    *pp = m->next;
  m->next = NULL;
  pthread_mutex_unlock(&g->lock);
}
