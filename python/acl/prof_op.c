/*
 * prof_op.c - acl.prof (36 names) and acl.op (32 names), all stubs: openacl
 * exports none of their C functions yet (no profiler, no single-operator
 * execution).  Each keeps pyACL's name, argument format (so a wrong count or
 * type raises the same TypeError "<name> args parse failed") and return
 * shape, returns ACL_ERROR_API_NOT_SUPPORT (200001) with zero / None / empty
 * outputs, and records a message naming the C function for
 * acl.get_recent_err_msg().  When a C function lands, its entry moves to a
 * real wrapper.
 *
 * Argument kinds that the vendor accepts loosely are 'O' here: the acl.op
 * list setters take a list or a numpy array.
 */
#include "pyacl.h"

/* pyacl.md §2.5.  C names follow the `=` rule (aclprof + CamelCase) except
 * model_unsubscribe (aclprofModelUnSubscribe) and the _v2 getters, which wrap
 * the same C functions as their v1 names. */
const pyacl_stub pyacl_prof_stubs[] = {
    {"init", "aclprofInit", "s", PYACL_RET},
    {"finalize", "aclprofFinalize", "", PYACL_RET},
    {"create_config", "aclprofCreateConfig", "lipK", PYACL_HANDLE},
    {"destroy_config", "aclprofDestroyConfig", "p", PYACL_RET},
    {"set_config", "aclprofSetConfig", "is", PYACL_RET},
    {"start", "aclprofStart", "p", PYACL_RET},
    {"stop", "aclprofStop", "p", PYACL_RET},
    {"model_subscribe", "aclprofModelSubscribe", "Ip", PYACL_RET},
    {"model_unsubscribe", "aclprofModelUnSubscribe", "I", PYACL_RET},
    {"model_un_subscribe", "aclprofModelUnSubscribe", "I", PYACL_RET}, /* pyACL's alias */
    {"create_subscribe_config", "aclprofCreateSubscribeConfig", "Bii", PYACL_HANDLE},
    {"destroy_subscribe_config", "aclprofDestroySubscribeConfig", "p", PYACL_RET},
    {"get_op_desc_size", "aclprofGetOpDescSize", "", PYACL_VAL_RET},
    {"get_op_num", "aclprofGetOpNum", "pz", PYACL_VAL_RET},
    {"get_op_type_len", "aclprofGetOpTypeLen", "pzI", PYACL_VAL_RET},
    {"get_op_name_len", "aclprofGetOpNameLen", "pzI", PYACL_VAL_RET},
    {"get_op_type", "aclprofGetOpType", "pzIz", PYACL_STR_RET},
    {"get_op_name", "aclprofGetOpName", "pzIz", PYACL_STR_RET},
    {"get_op_type_v2", "aclprofGetOpType", "pzI", PYACL_NONESTR_RET},
    {"get_op_name_v2", "aclprofGetOpName", "pzI", PYACL_NONESTR_RET},
    {"get_op_start", "aclprofGetOpStart", "pzI", PYACL_HANDLE},
    {"get_op_end", "aclprofGetOpEnd", "pzI", PYACL_HANDLE},
    {"get_op_duration", "aclprofGetOpDuration", "pzI", PYACL_HANDLE},
    {"get_model_id", "aclprofGetModelId", "pzI", PYACL_HANDLE},
    {"create_step_info", "aclprofCreateStepInfo", "", PYACL_HANDLE},
    {"destroy_step_info", "aclprofDestroyStepInfo", "p", PYACL_NONE},
    {"get_step_timestamp", "aclprofGetStepTimestamp", "pip", PYACL_RET},
    {"create_stamp", "aclprofCreateStamp", "", PYACL_HANDLE},
    {"destroy_stamp", "aclprofDestroyStamp", "p", PYACL_NONE},
    {"set_stamp_trace_message", "aclprofSetStampTraceMessage", "psI", PYACL_RET},
    {"mark", "aclprofMark", "p", PYACL_RET},
    {"mark_ex", "aclprofMarkEx", "sp", PYACL_RET},
    {"push", "aclprofPush", "p", PYACL_RET},
    {"pop", "aclprofPop", "", PYACL_RET},
    {"range_start", "aclprofRangeStart", "p", PYACL_VAL_RET},
    {"range_stop", "aclprofRangeStop", "I", PYACL_RET},
    {NULL, NULL, NULL, PYACL_RET},
};

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
    {"start_dump_args", "aclopStartDumpArgs", "Is", PYACL_RET},
    {"stop_dump_args", "aclopStopDumpArgs", "I", PYACL_RET},
    {"set_max_op_queue_num", "aclopSetMaxOpQueueNum", "K", PYACL_RET},
    {NULL, NULL, NULL, PYACL_RET},
};
