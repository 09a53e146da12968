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
    {"mem_uce_repair", "aclrtMemUceRepair", "il", PYACL_RET},         /* USE_MDL only */
    {NULL, NULL, NULL, PYACL_RET},
};
