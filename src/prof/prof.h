/*
 * prof.h - what the runtime, the model engine and the API layer report to
 * the profiler (src/prof/).  Every hook sits behind ACL__PROF_ON(): one
 * relaxed load of a global and a branch predicted not-taken, so with
 * profiling off the hot paths pay nothing more.  While on, records go to a
 * buffer of the calling thread (recorder.c) without locks; the files are
 * written when collection stops (aclprofStop, aclprofFinalize, aclFinalize).
 *
 * Times are CLOCK_MONOTONIC nanoseconds, the clock the executors and
 * acl__now_ns use: the simulated device's clock.
 */
#ifndef OPENACL_PROF_PROF_H
#define OPENACL_PROF_PROF_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* What is being collected: ACL__PROF_F_* bits, 0 when nothing is. */
extern _Atomic unsigned acl__prof_flags;

#define ACL__PROF_F_API 0x01u   /* AscendCL API calls (ACL_PROF_ACL_API, acl.json ascendcl/acl_api) */
#define ACL__PROF_F_RT 0x02u    /* runtime: task submissions (ACL_PROF_RUNTIME_API) */
#define ACL__PROF_F_TASK 0x04u  /* every task on every stream (ACL_PROF_TASK_TIME*) */
#define ACL__PROF_F_OP 0x08u    /* model operators (task time with op info) */
#define ACL__PROF_F_TX 0x10u    /* msproftx markers and ranges (ACL_PROF_MSPROFTX) */
#define ACL__PROF_F_MEM 0x20u   /* device memory in use over time (ACL_PROF_TASK_MEMORY) */
#define ACL__PROF_F_SUB 0x40u   /* a model subscription wants operator records */

#define ACL__PROF_ON() __builtin_expect(atomic_load_explicit(&acl__prof_flags, memory_order_relaxed) != 0, 0)

uint64_t acl__prof_now(void);

struct acl__task;
struct acl__stream;

/* API layer: t0 = ACL__PROF_ON() ? acl__prof_now() : 0 on entry, then
 * acl__prof_api(name, t0) on the way out when t0 != 0.  `name` is a
 * string literal (kept by pointer). */
void acl__prof_api(const char *name, uint64_t t0);

/* The same as one line at the top of a public function: the call is
 * recorded when the function returns, by whatever return (the variable's
 * cleanup).  Only the outermost public call of a thread is the user's: the
 * public functions the runtime calls itself (an execution reading its
 * datasets through the getters) are not recorded, nor calls on the
 * runtime's own threads (executors and the engine's thread start at depth
 * 1; a host function runs at 0 again).  Profiling off: one relaxed load on
 * entry, one test on exit. */
extern _Thread_local int acl__prof_api_depth;
typedef struct acl__prof_scope {
  uint64_t t0; /* 0: not counted; 1: nested, counted but not recorded */
  const char *name;
} acl__prof_scope;
static inline uint64_t acl__prof_scope_begin(void) {
  if (!ACL__PROF_ON())
    return 0;
  return acl__prof_api_depth++ == 0 ? acl__prof_now() : 1;
}
static inline void acl__prof_scope_end(acl__prof_scope *s) {
  if (__builtin_expect(s->t0 != 0, 0)) {
    acl__prof_api_depth--;
    if (s->t0 != 1)
      acl__prof_api(s->name, s->t0);
  }
}
#define ACL__PROF_API_SCOPE()                                                                      \
  acl__prof_scope acl__prof_scope_ __attribute__((cleanup(acl__prof_scope_end), unused)) = {       \
      acl__prof_scope_begin(), __func__}

/* Executor (executor.c).  Submission, with the stream lock held and the
 * task's seq set; t0 taken on entry to the submit call. */
void acl__prof_submit(const struct acl__stream *s, const struct acl__task *t, uint64_t t0);
/* A task ran from t0 to now with result rc (ACL__TASK_PARK included: a
 * parked run is recorded as a wait). */
void acl__prof_task(const struct acl__task *t, uint64_t t0, int rc);

/* Model execution (model/run.c), on the thread that runs the engine:
 * operators recorded between enter and leave belong to this execution. */
void acl__prof_exec_enter(const struct acl__task *t, uint32_t model_id);
void acl__prof_exec_leave(void);

/* One operator of a model (model/engine/profile.c).  `info` comes from
 * acl__prof_opinfo_intern and lives until aclFinalize. */
typedef struct acl__prof_opinfo acl__prof_opinfo;
const acl__prof_opinfo *acl__prof_opinfo_intern(const char *name, const char *type, const char *impl,
                                                const char *in_shapes, const char *in_types,
                                                const char *out_shapes, const char *out_types,
                                                const char *formats_in, const char *formats_out);
void acl__prof_op(const acl__prof_opinfo *info, uint64_t t0, uint64_t t1);

/* The model engine's step si of plan p ran from t0 to now: recorded as an
 * operator (src/model/engine/profile.c, which knows the engine's types). */
struct acl__engine;
struct eng_plan;
struct eng_inst;
void acl__eng_prof_step(const struct acl__engine *e, const struct eng_plan *p, struct eng_inst *in, int si,
                        uint64_t t0);

/* Device memory: bytes now in use on a device after an allocation or free. */
void acl__prof_mem(int32_t device, uint64_t bytes_in_use);

/* Process lifecycle (src/acl/init.c): the acl.json "profiler" section
 * starts collection for the whole process; aclFinalize stops it and writes
 * the files.  Failures are logged, not returned: a profile never stops a
 * program from running. */
struct acl__config;
void acl__prof_process_start(const struct acl__config *cfg);
void acl__prof_process_stop(void);

#endif
