/*
 * rt_stubs.c - the acl.rt names whose C function openacl does not export
 * yet: each keeps pyACL's arguments (checked, so wrong ones still raise
 * TypeError) and return shape, and returns ACL_ERROR_API_NOT_SUPPORT
 * (200001) with zero or empty outputs (args.c, pyacl_add_stubs).
 *
 * tests/python/test_inventory.py fails when the C library exports one of
 * these names (src/libascendcl.map) and the binding still stubs it.  Dict
 * results come back as {} rather than zero-filled dicts, and the few value
 * checks pyACL makes beyond types (key_len < 1024, non-empty names, the
 * notify timeout range) are not made: no call gets as far as using those
 * values.
 */
#include "pyacl.h"

const pyacl_stub pyacl_rt_stubs[] = {
    /* memory */
    {"reserve_mem_address", "aclrtReserveMemAddress", "zzpK", PYACL_VAL_RET},
    {"release_mem_address", "aclrtReleaseMemAddress", "p", PYACL_RET},
    {"malloc_physical", "aclrtMallocPhysical", "zdK", PYACL_VAL_RET},
    {"free_physical", "aclrtFreePhysical", "p", PYACL_RET},
    {"map_mem", "aclrtMapMem", "pzzpK", PYACL_RET},
    {"unmap_mem", "aclrtUnmapMem", "p", PYACL_RET},
    {"mem_export_to_shareable_handle", "aclrtMemExportToShareableHandle", "piK", PYACL_VAL_RET},
    {"mem_set_pid_to_shareable_handle", "aclrtMemSetPidToShareableHandle", "Kl", PYACL_RET},
    {"mem_import_from_shareable_handle", "aclrtMemImportFromShareableHandle", "Ki", PYACL_VAL_RET},
    {"mem_get_allocation_granularity", "aclrtMemGetAllocationGranularity", "di", PYACL_VAL_RET},
    {"mem_uce_repair", "aclrtMemUceRepair", "il", PYACL_RET},         /* USE_MDL only */
    {NULL, NULL, NULL, PYACL_RET},
};
