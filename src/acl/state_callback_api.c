/*
 * state_callback_api.c - registering named callbacks for stream and device
 * state changes and for the stages of aclrtDeviceTaskAbort
 * (src/rt/state_callback.c keeps the registries).  They work before aclInit
 * and survive aclFinalize: the registries belong to the process.
 */
#include "common/errmsg.h"
#include "rt/state_callback.h"
#include "prof/prof.h"

aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback, void *args) {
  ACL__PROF_API_SCOPE();
  return acl__statecb_register(__func__, ACL__STATECB_STREAM, regName, (void (*)(void))callback, args);
}

aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback, void *args) {
  ACL__PROF_API_SCOPE();
  return acl__statecb_register(__func__, ACL__STATECB_DEVICE, regName, (void (*)(void))callback, args);
}

aclError aclrtSetDeviceTaskAbortCallback(const char *regName, aclrtDeviceTaskAbortCallback callback, void *args) {
  ACL__PROF_API_SCOPE();
  return acl__statecb_register(__func__, ACL__STATECB_TASK_ABORT, regName, (void (*)(void))callback, args);
}
