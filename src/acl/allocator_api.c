/*
 * allocator_api.c - the ten aclrtAllocator* functions of rt-breadth §6
 * (include/acl/acl_rt_allocator.h): descriptors, and their registration for
 * a stream (src/rt/allocator.c; docs/allocators.md).
 */
#include "common/errmsg.h"
#include "rt/allocator.h"
#include "rt/device.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
  ACL__PROF_API_SCOPE();
  aclrtAllocatorDesc d = acl__allocator_desc_create();
  if (d == NULL)
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for an allocator descriptor");
  return d;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__allocator *a = acl__allocator_desc_get(__func__, allocatorDesc, &rc);
  if (a == NULL)
    return rc;
  acl__allocator_desc_destroy(a); /* a registration keeps its own copy */
  return 0;
}

/* The descriptor and a non-NULL value, or a recorded failure. */
static acl__allocator *desc_for_set(const char *api, aclrtAllocatorDesc desc, const void *value, const char *what,
                                    int *rc) {
  acl__allocator *a = acl__allocator_desc_get(api, desc, rc);
  if (a != NULL && value == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL", what);
    return NULL;
  }
  return a;
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__allocator *a = desc_for_set(__func__, allocatorDesc, allocator, "allocator", &rc);
  if (a != NULL)
    a->obj = allocator;
  return rc;
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__allocator *a = desc_for_set(__func__, allocatorDesc, (const void *)(uintptr_t)func, "func", &rc);
  if (a != NULL)
    a->alloc = func;
  return rc;
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__allocator *a = desc_for_set(__func__, allocatorDesc, (const void *)(uintptr_t)func, "func", &rc);
  if (a != NULL)
    a->free = func;
  return rc;
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__allocator *a = desc_for_set(__func__, allocatorDesc, (const void *)(uintptr_t)func, "func", &rc);
  if (a != NULL)
    a->alloc_advise = func;
  return rc;
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__allocator *a = desc_for_set(__func__, allocatorDesc, (const void *)(uintptr_t)func, "func", &rc);
  if (a != NULL)
    a->get_addr = func;
  return rc;
}

/* A stream argument of the registry: not the default stream (NULL), a live
 * stream of the current context. */
static acl__stream *registry_stream(const char *api, aclrtStream stream, int *rc) {
  if (stream == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                    "stream is NULL; allocators are registered for streams made by aclrtCreateStream*, not for "
                    "the default stream");
    return NULL;
  }
  return acl__stream_resolve(api, stream, rc);
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = registry_stream(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__allocator *a = acl__allocator_desc_get(__func__, allocatorDesc, &rc);
  if (a == NULL)
    return rc;
  const char *missing = a->obj == NULL        ? "the allocator object (aclrtAllocatorSetObjToDesc)"
                        : a->alloc == NULL    ? "the alloc function (aclrtAllocatorSetAllocFuncToDesc)"
                        : a->free == NULL     ? "the free function (aclrtAllocatorSetFreeFuncToDesc)"
                        : a->get_addr == NULL ? "the get-address function (aclrtAllocatorSetGetAddrFromBlockFuncToDesc)"
                                              : NULL;
  if (missing != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "allocatorDesc %p has no %s; an allocator needs its object, alloc, free and get-address "
                     "functions (alloc-advise is optional)",
                     allocatorDesc, missing);
  return acl__allocator_register(__func__, s, allocatorDesc, a);
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc, aclrtAllocator *allocator,
                                   aclrtAllocatorAllocFunc *allocFunc, aclrtAllocatorFreeFunc *freeFunc,
                                   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (allocatorDesc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
  acl__stream *s = registry_stream(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  aclrtAllocatorDesc desc = NULL;
  acl__allocator fns;
  if (!acl__allocator_lookup(s, &desc, &fns))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "stream %d has no allocator registered. Remedy: aclrtAllocatorRegister one first", (int)s->id);
  /* the other outputs are optional */
  *allocatorDesc = desc;
  if (allocator != NULL)
    *allocator = fns.obj;
  if (allocFunc != NULL)
    *allocFunc = fns.alloc;
  if (freeFunc != NULL)
    *freeFunc = fns.free;
  if (allocAdviseFunc != NULL)
    *allocAdviseFunc = fns.alloc_advise;
  if (getAddrFromBlockFunc != NULL)
    *getAddrFromBlockFunc = fns.get_addr;
  return 0;
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = registry_stream(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__allocator_unregister(s); /* none registered: nothing to do */
  return 0;
}
