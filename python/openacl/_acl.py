"""The one door to the C library: the ``acl`` extension module (pyACL's ``import acl``).

Everything in the ``openacl`` package calls openacl through this module and
nothing else (no ctypes, no second implementation).  The constants are the
vendor's enum values from ``include/acl/``; pyACL defines none itself.
"""
from __future__ import annotations

try:
    import acl  # the C extension (python/acl/*.c)
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "openacl needs the 'acl' extension module, built with the openacl C library "
        "(cmake --build build puts it in build/python: PYTHONPATH=build/python); "
        f"importing it failed: {exc}"
    ) from exc

__all__ = ["acl"]

# aclError values the package reacts to.
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018
ACL_ERROR_RT_INVALID_DEVICEID = 107001
ACL_ERROR_BAD_ALLOC = 200000

# aclrtMemMallocPolicy, aclrtMemcpyKind.
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2

# aclrtMemAttr for aclrtGetMemInfo.
ACL_HBM_MEM = 1

# aclrtDevAttr.
ACL_DEV_ATTR_AICPU_CORE_NUM = 1
ACL_DEV_ATTR_AICORE_CORE_NUM = 101
ACL_DEV_ATTR_VECTOR_CORE_NUM = 201
ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 0x12D
ACL_DEV_ATTR_PHY_CHIP_ID = 0x192

# The extra input of a model loaded with gears (OPENACL_DYNAMIC_BATCH/HW/DIMS).
ACL_DYNAMIC_TENSOR_NAME = "ascend_mbatch_shape_data"

# aclFormat values and their names.
FORMAT_NAMES = {
    -1: "UNDEFINED",
    0: "NCHW",
    1: "NHWC",
    2: "ND",
    3: "NC1HWC0",
    4: "FRACTAL_Z",
    12: "NC1HWC0_C04",
    16: "HWCN",
    27: "NDHWC",
    29: "FRACTAL_NZ",
    30: "NCDHW",
    32: "NDC1HWC0",
    33: "FRACTAL_Z_3D",
    35: "NC",
    47: "NCL",
}

# aclDataType values -> numpy type strings (None: no numpy type).
DTYPE_NUMPY = {
    0: "float32",
    1: "float16",
    2: "int8",
    3: "int32",
    4: "uint8",
    6: "int16",
    7: "uint16",
    8: "uint32",
    9: "int64",
    10: "uint64",
    11: "float64",
    12: "bool",
    16: "complex64",
    17: "complex128",
}

# aclDataType values numpy cannot hold, by name (for messages).
DTYPE_OTHER = {-1: "undefined", 13: "string", 27: "bfloat16", 29: "int4", 30: "uint1", 33: "complex32"}
