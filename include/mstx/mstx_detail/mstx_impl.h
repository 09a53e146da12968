/*
 * mstx/mstx_detail/mstx_impl.h - the implementation behind ms_tools_ext.h.
 *
 * Each mstx call forwards to a function-pointer slot that a tool library
 * filled.  On the first call (once per translation unit, pthread_once) the
 * header reads the environment variable MSTX_INJECTION_PATH, dlopens that
 * library, looks up its InitInjectionMstx and calls it with
 * mstx_detail_get_table_, through which the tool fills the slots it
 * implements.  Without a tool (variable unset, library not loadable, no
 * entry, or the entry failing) every call does nothing, the range starts
 * return 0 and mstxGetToolId reports MSTX_TOOL_INVALID_ID.  The library is
 * never closed: a slot may be called until the process ends.
 *
 * Programs link -ldl (glibc 2.34 and later have dlopen in libc).
 * Included by ms_tools_ext.h only; not with MSTX_NO_IMPL.
 */
#ifndef MSTX_DETAIL_MSTX_IMPL_H
#define MSTX_DETAIL_MSTX_IMPL_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mstx_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The slots of this translation unit (of libms_tools_ext.so when built as
 * the library), in a function-local static so that a unit which includes
 * the header without calling mstx carries nothing unused.  Written once
 * under `once`, then only read. */
struct mstx_detail_state_ {
  pthread_once_t once;
  mstxFuncPointer core[MSTX_API_CORE_FUNC_ID_SIZE];
  mstxFuncPointer domain[MSTX_API_CORE2_FUNC_ID_SIZE];
};

static inline struct mstx_detail_state_ *mstx_detail_get_state_(void) {
  static struct mstx_detail_state_ state = {PTHREAD_ONCE_INIT, {NULL}, {NULL}};
  return &state;
}

static inline int mstx_detail_get_table_(mstxFuncModule module, mstxFuncTable *outTable, unsigned int *outSize) {
  struct mstx_detail_state_ *st = mstx_detail_get_state_();
  if (outTable == NULL || outSize == NULL)
    return MSTX_FAIL;
  switch (module) {
  case MSTX_API_MODULE_CORE:
    *outTable = st->core;
    *outSize = (unsigned int)MSTX_API_CORE_FUNC_ID_SIZE;
    return MSTX_SUCCESS;
  case MSTX_API_MODULE_CORE_DOMAIN:
    *outTable = st->domain;
    *outSize = (unsigned int)MSTX_API_CORE2_FUNC_ID_SIZE;
    return MSTX_SUCCESS;
  default:
    return MSTX_FAIL; /* the memory module is not bound by this header */
  }
}

static inline void mstx_detail_bind_(void) {
  struct mstx_detail_state_ *st = mstx_detail_get_state_();
  const char *path = getenv("MSTX_INJECTION_PATH");
  void *lib, *sym;
  mstxInitInjectionFunc init;
  if (path == NULL || path[0] == '\0')
    return;
  lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  if (lib == NULL)
    return;
  sym = dlsym(lib, "InitInjectionMstx");
  if (sym == NULL)
    return;
  memcpy(&init, &sym, sizeof(init)); /* object pointer to function pointer, as POSIX allows */
  if (init(mstx_detail_get_table_) != MSTX_SUCCESS) {
    /* a tool that failed part-way binds nothing */
    memset(st->core, 0, sizeof(st->core));
    memset(st->domain, 0, sizeof(st->domain));
  }
}

static inline mstxFuncPointer mstx_detail_core_slot_(int id) {
  struct mstx_detail_state_ *st = mstx_detail_get_state_();
  pthread_once(&st->once, mstx_detail_bind_);
  return st->core[id];
}

static inline mstxFuncPointer mstx_detail_domain_slot_(int id) {
  struct mstx_detail_state_ *st = mstx_detail_get_state_();
  pthread_once(&st->once, mstx_detail_bind_);
  return st->domain[id];
}

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream) {
  mstxFuncPointer f = mstx_detail_core_slot_(MSTX_API_CORE_MARK_A);
  if (f != NULL)
    ((mstxMarkAFunc)f)(message, stream);
}

MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream) {
  mstxFuncPointer f = mstx_detail_core_slot_(MSTX_API_CORE_RANGE_START_A);
  return f != NULL ? ((mstxRangeStartAFunc)f)(message, stream) : 0;
}

MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id) {
  mstxFuncPointer f = mstx_detail_core_slot_(MSTX_API_CORE_RANGE_END);
  if (f != NULL)
    ((mstxRangeEndFunc)f)(id);
}

MSTX_DECLSPEC void mstxGetToolId(uint64_t *id) {
  mstxFuncPointer f = mstx_detail_core_slot_(MSTX_API_CORE_GET_TOOL_ID);
  if (id == NULL)
    return;
  if (f != NULL)
    ((mstxGetToolIdFunc)f)(id);
  else
    *id = MSTX_TOOL_INVALID_ID;
}

MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name) {
  mstxFuncPointer f = mstx_detail_domain_slot_(MSTX_API_CORE2_DOMAIN_CREATE_A);
  return f != NULL ? ((mstxDomainCreateAFunc)f)(name) : NULL;
}

MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain) {
  mstxFuncPointer f = mstx_detail_domain_slot_(MSTX_API_CORE2_DOMAIN_DESTROY);
  if (f != NULL)
    ((mstxDomainDestroyFunc)f)(domain);
}

MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  mstxFuncPointer f = mstx_detail_domain_slot_(MSTX_API_CORE2_DOMAIN_MARK_A);
  if (f != NULL)
    ((mstxDomainMarkAFunc)f)(domain, message, stream);
}

MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  mstxFuncPointer f = mstx_detail_domain_slot_(MSTX_API_CORE2_DOMAIN_RANGE_START_A);
  return f != NULL ? ((mstxDomainRangeStartAFunc)f)(domain, message, stream) : 0;
}

MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  mstxFuncPointer f = mstx_detail_domain_slot_(MSTX_API_CORE2_DOMAIN_RANGE_END);
  if (f != NULL)
    ((mstxDomainRangeEndFunc)f)(domain, id);
}

#ifdef __cplusplus
}
#endif

#endif
