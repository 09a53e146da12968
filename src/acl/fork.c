/*
 * fork.c - what happens to openacl across fork().
 *
 * The child inherits nothing in use: its copy of the parent's state is
 * dropped and it must call aclInit again; until it does, calls that need
 * initialisation fail with a message that names fork() as the cause.
 *
 * No lock can be inherited in a held state: before fork() the prepare
 * handler takes every process-wide openacl lock, in the documented order
 *   process lock (init.c) -> callback registry (callback.c) -> kernel
 *   table (kernel.c) -> model registry (model.c) -> handle table stripes
 *   (handle.c) -> error-message lock (errmsg.c) -> log locks (log.c)
 * and both parent and child release or re-create them afterwards.  Device,
 * stream and event locks are not taken: the child drops every device
 * (acl__rt_atfork_child) without touching them.  memory.c registers its
 * own handlers for its tables.
 */
#include <pthread.h>

#include "acl/process.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "model/model.h"
#include "rt/callback.h"
#include "rt/kernel.h"
#include "rt/rt.h"

static void acl__fork_prepare(void) {
  acl__process_atfork_prepare();
  acl__callback_atfork_prepare();
  acl__kernel_atfork_prepare();
  acl__model_atfork_prepare();
  acl__handle_atfork_prepare();
  acl__errmsg_atfork_prepare();
  acl__log_atfork_prepare();
}

static void acl__fork_parent(void) {
  acl__log_atfork_parent();
  acl__errmsg_atfork_parent();
  acl__handle_atfork_parent();
  acl__model_atfork_parent();
  acl__kernel_atfork_parent();
  acl__callback_atfork_parent();
  acl__process_atfork_parent();
}

static void acl__fork_child(void) {
  acl__log_atfork_child();
  acl__errmsg_atfork_child();
  acl__handle_atfork_child();
  acl__model_atfork_child();
  acl__kernel_atfork_child();
  acl__callback_atfork_child();
  acl__process_atfork_child();
}

static pthread_once_t acl__fork_once = PTHREAD_ONCE_INIT;

static void acl__fork_install(void) { pthread_atfork(acl__fork_prepare, acl__fork_parent, acl__fork_child); }

void acl__fork_register_handlers(void) { pthread_once(&acl__fork_once, acl__fork_install); }
