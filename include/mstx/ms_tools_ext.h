/*
 * mstx/ms_tools_ext.h - the mstx tools extension: markers and ranges
 * (optionally in named domains) that a profiling tool records, here
 * openacl's profiler (docs/profiling.md, "mstx").
 *
 * Header-only by default: the calls are static inline functions that bind
 * to the tool library named by the environment variable
 * MSTX_INJECTION_PATH on first use (mstx_detail/mstx_impl.h); link -ldl.
 * Without a tool every call does nothing and the range starts return 0.
 * openacl's libascendcl.so is such a tool, and aclprofStart with
 * ACL_PROF_MSPROFTX sets MSTX_INJECTION_PATH to it when it is unset.
 *
 * Define MSTX_NO_IMPL before including to get declarations only, and link
 * libms_tools_ext.so, which holds the same functions.
 *
 *   mstxMarkA(msg, stream)              an instant; stream NULL: host only
 *   mstxRangeStartA(msg, stream) -> id  a range's start; 0 = not recorded
 *   mstxRangeEnd(id)                    its end
 *   mstxDomainCreateA(name) -> handle   a named domain ("default" is reserved)
 *   mstxDomainMarkA / RangeStartA / RangeEnd, mstxDomainDestroy
 *   mstxGetToolId(&id)                  MSTX_TOOL_*_ID of the bound tool
 */
#ifndef MS_TOOLS_EXT_H
#define MS_TOOLS_EXT_H

#include "mstx_detail/mstx_types.h"

#ifndef MSTX_DECLSPEC
#if defined(MSTX_BUILD_LIBRARY)
/* building libms_tools_ext.so */
#define MSTX_DECLSPEC __attribute__((visibility("default")))
#elif defined(MSTX_NO_IMPL)
#define MSTX_DECLSPEC
#else
#define MSTX_DECLSPEC static inline
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id);
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id);
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name);
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#ifndef MSTX_NO_IMPL
#include "mstx_detail/mstx_impl.h"
#endif

#endif
