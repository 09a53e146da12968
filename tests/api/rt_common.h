/* rt_common.h - small helpers shared by the runtime tests. */
#ifndef OPENACL_TEST_RT_COMMON_H
#define OPENACL_TEST_RT_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "acl/acl.h"
#include "harness.h"


/* aclInit + aclrtSetDevice(0), failing the test otherwise. */
static inline void rt_up(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static inline void rt_down(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static inline void rt_sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* A gate a host function can wait on until the test opens it. */
typedef struct rt_gate {
  atomic_int open;
  atomic_int entered;
} rt_gate;

static inline void rt_gate_wait(void *arg) {
  rt_gate *g = arg;
  atomic_fetch_add(&g->entered, 1);
  while (!atomic_load(&g->open))
    rt_sleep_ms(1);
}

/* Appends its value to a log: checks ordering. */
typedef struct rt_log {
  pthread_mutex_t lock;
  int n;
  int v[4096];
} rt_log;

typedef struct rt_note {
  rt_log *log;
  int value;
} rt_note;

static inline void rt_note_fn(void *arg) {
  rt_note *n = arg;
  pthread_mutex_lock(&n->log->lock);
  if (n->log->n < 4096)
    n->log->v[n->log->n++] = n->value;
  pthread_mutex_unlock(&n->log->lock);
}

#endif
