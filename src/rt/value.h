/*
 * value.h - value writes and waits on streams (value.c), and the built-in
 * device tasks of aclrtReduceAsync (reduce.c) and aclrtRandomNumAsync
 * (random.c).  The API layer (src/acl/stream_task_api.c) checks the
 * arguments; these queue the task.
 */
#ifndef OPENACL_RT_VALUE_H
#define OPENACL_RT_VALUE_H

#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

/* 1 when the word `cur` satisfies an aclrtValueWait condition (flag
 * ACL_STREAM_WAIT_VALUE_*). */
int acl__value_holds(uint64_t cur, uint64_t value, uint32_t flag);
/* Queues a value write (is_wait 0) or wait on s; addr is a live, 8-byte
 * aligned device word, as the program gave it.  0, or an error code (nothing recorded). */
int acl__value_submit(acl__stream *s, void *addr, uint64_t value, uint32_t flag, int is_wait);

/* A value write or wait recorded in a task graph: its parameters (-1: t
 * is neither), and their replacement (checked by the caller; nothing
 * runs it meanwhile). */
int acl__value_task_params(acl__task *t, void **addr, uint64_t *value, uint32_t *flag);
void acl__value_task_update(acl__task *t, void *addr, uint64_t value, uint32_t flag);

/* dst[i] = dst[i] OP src[i] over `bytes` bytes of `type` elements (kind:
 * aclrtReduceKind).  0, or an error code (nothing recorded). */
int acl__reduce_submit(acl__stream *s, void *dst, const void *src, uint64_t bytes, aclrtReduceKind kind,
                       aclDataType type);

/* The resolved parameters of an aclrtRandomNumAsync task: inline values are
 * decoded at the call; parameters given as device addresses are read when
 * the task runs. */
typedef struct acl__random_param {
  int is_addr;
  uint8_t bytes[8];            /* inline value, little-endian, `size` bytes */
  const void *addr;            /* device address when is_addr */
  uint8_t size;
} acl__random_param;

typedef struct acl__random_job {
  aclrtRandomNumFuncType func;
  aclDataType type;
  acl__random_param p1, p2;    /* dropout: p1 = ratio; uniform: min, max; normal: mean, stddev */
  acl__random_param seed, num;
  void *result;
  void *counter;               /* 16 bytes: the Philox counter, advanced by each task */
} acl__random_job;

/* result_cap: the bytes from job->result to the end of its allocation (a
 * count read from device memory is checked against it when the task runs). */
int acl__random_submit(acl__stream *s, const acl__random_job *job, size_t result_cap);

#endif
