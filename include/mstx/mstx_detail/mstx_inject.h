/*
 * mstx/mstx_detail/mstx_inject.h - the tool side of the mstx binding: the
 * entry a tool library exports, which the header (mstx_impl.h) looks up
 * with dlsym after dlopening MSTX_INJECTION_PATH.  openacl's
 * libascendcl.so defines it (src/prof/mstx.c); programs never call it.
 */
#ifndef MSTX_DETAIL_MSTX_INJECT_H
#define MSTX_DETAIL_MSTX_INJECT_H

#include "mstx_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills the slots the tool implements through getFuncTable; MSTX_SUCCESS
 * or MSTX_FAIL (then the header binds nothing). */
ACL_FUNC_VISIBILITY int InitInjectionMstx(mstxGetModuleFuncTableFunc getFuncTable);

#ifdef __cplusplus
}
#endif

#endif
