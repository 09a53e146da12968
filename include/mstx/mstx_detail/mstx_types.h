/*
 * mstx/mstx_detail/mstx_types.h - the constants and types of the mstx
 * tools extension (ms_tools_ext.h): result codes, tool ids, range ids,
 * domain handles, and the binding between the header and a tool library:
 * module and slot numbers of the function tables a tool fills, and the
 * signature of the InitInjectionMstx entry a tool library exports.
 * Names and numbers follow the vendor's mstx package (prof-dump.md §2).
 */
#ifndef MSTX_DETAIL_MSTX_TYPES_H
#define MSTX_DETAIL_MSTX_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* aclrtStream comes from the ACL headers (one typedef, so C99 programs may
 * include both in any order). */
#include "acl/acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* What mstxGetToolId reports: which tool is bound. */
#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

/* A range's id; 0 means "no range" (no tool, or the tool refused it). */
typedef uint64_t mstxRangeId;

/* A domain: an opaque handle a tool gives out (mstxDomainCreateA). */
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

/* Modules of function tables. */
typedef enum mstxFuncModule {
  MSTX_API_MODULE_INVALID = 0,
  MSTX_API_MODULE_CORE = 1,
  MSTX_API_MODULE_CORE_DOMAIN = 2,
  MSTX_API_MODULE_CORE_MEM = 3,
  MSTX_API_MODULE_SIZE
} mstxFuncModule;

/* Slots of MSTX_API_MODULE_CORE. */
typedef enum mstxImplCoreFuncId {
  MSTX_API_CORE_INVALID = 0,
  MSTX_API_CORE_MARK_A = 1,
  MSTX_API_CORE_RANGE_START_A = 2,
  MSTX_API_CORE_RANGE_END = 3,
  MSTX_API_CORE_GET_TOOL_ID = 4,
  MSTX_API_CORE_FUNC_ID_SIZE
} mstxImplCoreFuncId;

/* Slots of MSTX_API_MODULE_CORE_DOMAIN. */
typedef enum mstxImplCoreDomainFuncId {
  MSTX_API_CORE2_INVALID = 0,
  MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
  MSTX_API_CORE2_DOMAIN_DESTROY = 2,
  MSTX_API_CORE2_DOMAIN_MARK_A = 3,
  MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
  MSTX_API_CORE2_DOMAIN_RANGE_END = 5,
  MSTX_API_CORE2_FUNC_ID_SIZE
} mstxImplCoreDomainFuncId;

/* A slot holds a function pointer, stored as this generic type. */
typedef void (*mstxFuncPointer)(void);
/* A module's table: *table points at an array of *size slots; slot 0 is unused. */
typedef mstxFuncPointer *mstxFuncTable;

/* The signatures of the slots a tool fills. */
typedef void (*mstxMarkAFunc)(const char *message, aclrtStream stream);
typedef mstxRangeId (*mstxRangeStartAFunc)(const char *message, aclrtStream stream);
typedef void (*mstxRangeEndFunc)(mstxRangeId id);
typedef void (*mstxGetToolIdFunc)(uint64_t *id);
typedef mstxDomainHandle_t (*mstxDomainCreateAFunc)(const char *name);
typedef void (*mstxDomainDestroyFunc)(mstxDomainHandle_t domain);
typedef void (*mstxDomainMarkAFunc)(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
typedef mstxRangeId (*mstxDomainRangeStartAFunc)(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
typedef void (*mstxDomainRangeEndFunc)(mstxDomainHandle_t domain, mstxRangeId id);

/* Given to the tool: hands out a module's table (pointer to its slots and
 * their count).  MSTX_SUCCESS, or MSTX_FAIL for an unknown module. */
typedef int (*mstxGetModuleFuncTableFunc)(mstxFuncModule module, mstxFuncTable *outTable, unsigned int *outSize);

/* The entry a tool library exports under the name "InitInjectionMstx":
 * it fills the slots it implements; MSTX_SUCCESS or MSTX_FAIL. */
typedef int (*mstxInitInjectionFunc)(mstxGetModuleFuncTableFunc getFuncTable);

#ifdef __cplusplus
}
#endif

#endif
