/*
 * stream_task_ext_api.c - openacl/stream_task.h: host tasks on a stream for
 * libraries built on openacl (libhccl.so runs each collective as one).
 *
 * The task is an acl__task carrying the library's function, release and
 * argument; openaclStreamTask is that acl__task, so a wake is
 * acl__stream_unpark of the stream the runtime stored in it at submit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/errmsg.h"
#include "openacl/stream_task.h"
#include "prof/prof.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"
#include "rt/rt.h"

typedef struct acl__ext_task {
  acl__task base;               /* first: openaclStreamTask * is this struct */
  openaclStreamTaskFn fn;
  openaclStreamTaskRelease release;
  void *arg;
  int ran;                      /* fn was called at least once */
} acl__ext_task;

static int acl__ext_task_run(acl__task *t) {
  acl__ext_task *e = (acl__ext_task *)t;
  e->ran = 1;
  int rc = e->fn((openaclStreamTask *)t, e->arg);
  return rc == OPENACL_STREAM_TASK_PARK ? ACL__TASK_PARK : rc;
}

static void acl__ext_task_release(acl__task *t) {
  acl__ext_task *e = (acl__ext_task *)t;
  if (e->release != NULL)
    e->release(e->arg, e->ran && !t->discarded);
  free(e);
}

aclError openaclLaunchStreamTask(aclrtStream stream, const char *what, openaclStreamTaskFn fn,
                                 openaclStreamTaskRelease release, void *arg) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (fn == NULL) {
    if (release != NULL)
      release(arg, 0);
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "fn is NULL. Remedy: pass the task's function");
  }
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  acl__ext_task *e = s != NULL ? calloc(1, sizeof(*e)) : NULL;
  if (e == NULL) {
    if (release != NULL)
      release(arg, 0);
    return s == NULL ? rc : ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a task");
  }
  e->base.run = acl__ext_task_run;
  e->base.release = acl__ext_task_release;
  e->fn = fn;
  e->release = release;
  e->arg = arg;
  if (what != NULL)
    snprintf(e->base.what, sizeof(e->base.what), "%s", what);
  rc = acl__stream_submit(s, &e->base); /* releases the task on failure */
  if (rc == 0)
    return ACL_SUCCESS;
  return ACL__FAIL(rc, "stream %d does not accept tasks (it is being destroyed, or out of host memory)", s->id);
}

void openaclStreamTaskWake(openaclStreamTask *task) {
  if (task != NULL)
    acl__stream_unpark(((acl__task *)task)->stream);
}

void openaclStreamTaskSetWhat(openaclStreamTask *task, const char *what) {
  if (task != NULL && what != NULL)
    snprintf(((acl__task *)task)->what, sizeof(((acl__task *)task)->what), "%s", what);
}

void *openaclDevicePtr(const void *p) { return acl__mem_dev_ptr(p); }

int32_t openaclDeviceOfRange(const void *p, uint64_t size) {
  acl__ptr_info in;
  if (p == NULL)
    return -1;
  acl__mem_classify(p, &in);
  if ((in.kind != ACL__PTR_DEVICE && in.kind != ACL__PTR_MANAGED) || in.dev == NULL)
    return -1;
  if (size > in.alloc_size - in.offset)
    return -1;
  return in.dev->id;
}

int openaclDeviceMemoryLocate(const void *p, uint64_t size, openaclDeviceMemoryLocation *loc) {
  int32_t fd = -1;
  uint64_t off = 0;
  struct stat st;
  if (p == NULL || loc == NULL || acl__mem_ipc_locate(p, size, &fd, &off) != 0 || fstat(fd, &st) != 0 ||
      off + size > (uint64_t)st.st_size)
    return -1;
  loc->pid = (int32_t)getpid();
  loc->fd = fd;
  loc->inode = (uint64_t)st.st_ino;
  loc->objectSize = (uint64_t)st.st_size;
  loc->offset = off;
  return 0;
}
