/*
 * op_stubs.c - acl.op (30 of its 32 names; the dump pair
 * start/stop_dump_args is in mdl_dump.c), stubs: openacl exports none of
 * their C functions yet (no single-operator execution).  Each keeps pyACL's
 * name, argument format (so a wrong count or type raises the same TypeError
 * "<name> args parse failed") and return shape, returns
 * ACL_ERROR_API_NOT_SUPPORT (200001) with zero / None / empty outputs, and
 * records a message naming the C function for acl.get_recent_err_msg().
 * When a C function lands, its entry moves to a real wrapper (acl.prof's
 * did: prof.c).
 *
 * Argument kinds that the vendor accepts loosely are 'O' here: the acl.op
 * list setters take a list or a numpy array.
 */
#include "pyacl.h"

/* pyacl.md §2.6.  set_attr_data_type and set_attr_list_data_type return
 * (attr, ret) in pyACL; as stubs the handle is 0 like every other output. */
const pyacl_stub pyacl_op_stubs[] = {
    {"set_model_dir", "aclopSetModelDir", "s", PYACL_RET},
    {"load", "aclopLoad", "pz", PYACL_RET},
    {"create_attr", "aclopCreateAttr", "", PYACL_HANDLE},
    {"destroy_attr", "aclopDestroyAttr", "p", PYACL_NONE},
    {"set_attr_bool", "aclopSetAttrBool", "psb", PYACL_RET},
    {"set_attr_int", "aclopSetAttrInt", "psL", PYACL_RET},
    {"set_attr_float", "aclopSetAttrFloat", "psf", PYACL_RET},
    {"set_attr_string", "aclopSetAttrString", "pss", PYACL_RET},
    {"set_attr_data_type", "aclopSetAttrDataType", "psi", PYACL_VAL_RET},
    {"set_attr_list_bool", "aclopSetAttrListBool", "psa", PYACL_RET},
    {"set_attr_list_int", "aclopSetAttrListInt", "psa", PYACL_RET},
    {"set_attr_list_float", "aclopSetAttrListFloat", "psa", PYACL_RET},
    {"set_attr_list_string", "aclopSetAttrListString", "psl", PYACL_RET},
    {"set_attr_list_list_int", "aclopSetAttrListListInt", "psl", PYACL_RET},
    {"set_attr_list_data_type", "aclopSetAttrListDataType", "psl", PYACL_VAL_RET},
    {"execute", "aclopExecute", "sllllpp", PYACL_RET},
    {"execute_v2", "aclopExecuteV2", "sllllpp", PYACL_RET},
    {"create_handle", "aclopCreateHandle", "sllp", PYACL_VAL_RET},
    {"destroy_handle", "aclopDestroyHandle", "p", PYACL_NONE},
    {"execute_with_handle", "aclopExecWithHandle", "pllp", PYACL_RET},
    {"cast", "aclopCast", "ppppbp", PYACL_RET},
    {"create_handle_for_cast", "aclopCreateHandleForCast", "ppb", PYACL_VAL_RET},
    {"infer_shape", "aclopInferShape", "sllilp", PYACL_RET},
    {"update_params", "aclopUpdateParams", "sllp", PYACL_RET},
    {"register_compile_func", "aclopRegisterCompileFunc", "sc", PYACL_RET},
    {"unregister_compile_func", "aclopUnregisterCompileFunc", "s", PYACL_RET},
    {"create_kernel", "aclopCreateKernel", "ssspiii", PYACL_RET},
    {"set_kernel_args", "aclopSetKernelArgs", "psIpI", PYACL_RET},
    {"set_kernel_workspace_sizes", "aclopSetKernelWorkspaceSizes", "pip", PYACL_RET},
    {"set_max_op_queue_num", "aclopSetMaxOpQueueNum", "K", PYACL_RET},
    {NULL, NULL, NULL, PYACL_RET},
};
