/*
 * rt_stubs.c - the acl.rt names whose C function openacl does not export
 * yet: each keeps pyACL's arguments (checked, so wrong ones still raise
 * TypeError) and return shape, and returns ACL_ERROR_API_NOT_SUPPORT
 * (200001) with zero or empty outputs (args.c, pyacl_add_stubs).
 *
 * The exception-info getters and set_exception_info_callback are in
 * rt_callback.c.  Dict results come back as {} rather than zero-filled
 * dicts, and the few value checks pyACL makes beyond types (key_len < 1024,
 * non-empty names, the notify timeout range) are not made: no call gets as
 * far as using those values.
 */
#include "pyacl.h"

const pyacl_stub pyacl_rt_stubs[] = {
    /* devices */
    {"set_ts_device", "aclrtSetTsDevice", "i", PYACL_RET},
    {"set_device_sat_mode", "aclrtSetDeviceSatMode", "i", PYACL_RET},
    {"get_device_sat_mode", "aclrtGetDeviceSatMode", "", PYACL_VAL_RET},
    {"get_device_capability", "aclrtGetDeviceCapability", "iI", PYACL_VAL_RET},
    {"get_device_utilization_rate", "aclrtGetDeviceUtilizationRate", "i", PYACL_DICT_RET},
    {"device_task_abort", "aclrtDeviceTaskAbort", "iI", PYACL_RET},
    {"get_device_res_limit", "aclrtGetDeviceResLimit", "iI", PYACL_VAL_RET},
    {"set_device_res_limit", "aclrtSetDeviceResLimit", "iII", PYACL_RET},
    {"reset_device_res_limit", "aclrtResetDeviceResLimit", "i", PYACL_RET},
    {"get_devices_topo", "aclrtGetDevicesTopo", "II", PYACL_VAL_RET},
    {"get_logic_dev_id_by_user_dev_id", "aclrtGetLogicDevIdByUserDevId", "i", PYACL_VAL_RET},
    {"get_user_dev_id_by_logic_dev_id", "aclrtGetUserDevIdByLogicDevId", "i", PYACL_VAL_RET},
    {"get_logic_dev_id_by_phy_dev_id", "aclrtGetLogicDevIdByPhyDevId", "i", PYACL_VAL_RET},
    {"get_phy_dev_id_by_logic_dev_id", "aclrtGetPhyDevIdByLogicDevId", "i", PYACL_VAL_RET},
    {"device_get_uuid", "aclrtDeviceGetUuid", "i", PYACL_DICT_RET},
    {"device_peer_access_status", "aclrtDevicePeerAccessStatus", "ii", PYACL_VAL_RET},
    {"device_get_bare_tgid", "aclrtDeviceGetBareTgid", "", PYACL_VAL_RET},
    {"get_overflow_status", "aclrtGetOverflowStatus", "pzp", PYACL_RET},
    {"reset_overflow_status", "aclrtResetOverflowStatus", "p", PYACL_RET},
    /* contexts and system parameters */
    {"ctx_set_sys_param_opt", "aclrtCtxSetSysParamOpt", "iL", PYACL_RET},
    {"ctx_get_sys_param_opt", "aclrtCtxGetSysParamOpt", "i", PYACL_VAL_RET},
    {"set_sys_param_opt", "aclrtSetSysParamOpt", "iL", PYACL_RET},
    {"get_sys_param_opt", "aclrtGetSysParamOpt", "i", PYACL_VAL_RET},
    /* streams */
    {"stream_abort", "aclrtStreamAbort", "p", PYACL_RET},
    {"get_stream_available_num", "aclrtGetStreamAvailableNum", "", PYACL_VAL_RET},
    {"set_stream_overflow_switch", "aclrtSetStreamOverflowSwitch", "pI", PYACL_RET},
    {"get_stream_overflow_switch", "aclrtGetStreamOverflowSwitch", "p", PYACL_VAL_RET},
    {"set_stream_attribute", "aclrtSetStreamAttribute", "pid", PYACL_RET},
    {"get_stream_attribute", "aclrtGetStreamAttribute", "pi", PYACL_DICT_RET},
    {"get_stream_res_limit", "aclrtGetStreamResLimit", "pi", PYACL_VAL_RET},
    {"set_stream_res_limit", "aclrtSetStreamResLimit", "piI", PYACL_RET},
    {"reset_stream_res_limit", "aclrtResetStreamResLimit", "p", PYACL_RET},
    {"use_stream_res_in_current_thread", "aclrtUseStreamResInCurrentThread", "p", PYACL_RET},
    {"unuse_stream_res_in_current_thread", "aclrtUnuseStreamResInCurrentThread", "p", PYACL_RET},
    {"get_res_in_current_thread", "aclrtGetResInCurrentThread", "i", PYACL_VAL_RET},
    /* events */
    {"get_event_id", "aclrtGetEventId", "p", PYACL_VAL_RET},
    {"get_event_avail_num", "aclrtGetEventAvailNum", "", PYACL_VAL_RET},
    /* tasks and operator timeouts */
    {"get_thread_last_task_id", "aclrtGetThreadLastTaskId", "", PYACL_VAL_RET},
    {"set_op_wait_timeout", "aclrtSetOpWaitTimeout", "I", PYACL_RET},
    {"set_op_execute_time_out", "aclrtSetOpExecuteTimeOut", "I", PYACL_RET},
    {"set_op_execute_timeout_v2", "aclrtSetOpExecuteTimeOutV2", "K", PYACL_VAL_RET},
    {"get_op_timeout_interval", "aclrtGetOpTimeOutInterval", "", PYACL_VAL_RET},
    {"get_op_execute_timeout", "aclrtGetOpExecuteTimeout", "", PYACL_VAL_RET},
    /* memory */
    {"malloc_for_task_scheduler", "aclrtMallocForTaskScheduler", "zid", PYACL_VAL_RET},
    {"memcpy_async_with_condition", "aclrtMemcpyAsyncWithCondition", "pzpzip", PYACL_RET},
    {"host_register", "aclrtHostRegister", "pzi", PYACL_VAL_RET},
    {"host_register_v2", "aclrtHostRegisterV2", "KKI", PYACL_RET},
    {"host_unregister", "aclrtHostUnregister", "p", PYACL_RET},
    {"host_get_device_pointer", "aclrtHostGetDevicePointer", "KI", PYACL_VAL_RET},
    {"get_memcpy_desc_size", "aclrtGetMemcpyDescSize", "i", PYACL_VAL_RET},
    {"set_memcpy_desc", "aclrtSetMemcpyDesc", "pippzp", PYACL_VAL_RET},
    {"memcpy_async_with_desc", "aclrtMemcpyAsyncWithDesc", "pip", PYACL_RET},
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
    {"ipc_mem_get_export_key", "aclrtIpcMemGetExportKey", "pzzK", PYACL_STR_RET},
    {"ipc_mem_set_import_pid", "aclrtIpcMemSetImportPid", "sl", PYACL_RET},
    {"ipc_mem_import_by_key", "aclrtIpcMemImportByKey", "sK", PYACL_VAL_RET},
    {"ipc_mem_close", "aclrtIpcMemClose", "s", PYACL_RET},
    {"value_write", "aclrtValueWrite", "pKIp", PYACL_RET},
    {"value_wait", "aclrtValueWait", "pKIp", PYACL_RET},
    {"cmo_async", "aclrtCmoAsync", "pzip", PYACL_RET},
    {"reduce_async", "aclrtReduceAsync", "ppziipp", PYACL_RET},
    {"get_mem_uce_info", "aclrtGetMemUceInfo", "iI", PYACL_LIST_RET}, /* USE_MDL only */
    {"mem_uce_repair", "aclrtMemUceRepair", "il", PYACL_RET},         /* USE_MDL only */
    /* allocators */
    {"allocator_create_desc", "aclrtAllocatorCreateDesc", "", PYACL_HANDLE},
    {"allocator_destroy_desc", "aclrtAllocatorDestroyDesc", "p", PYACL_RET},
    {"allocator_set_obj_to_desc", "aclrtAllocatorSetObjToDesc", "pp", PYACL_RET},
    {"allocator_set_alloc_func_to_desc", "aclrtAllocatorSetAllocFuncToDesc", "pc", PYACL_RET},
    {"allocator_set_free_func_to_desc", "aclrtAllocatorSetFreeFuncToDesc", "pc", PYACL_RET},
    {"allocator_set_alloc_advise_func_to_desc", "aclrtAllocatorSetAllocAdviseFuncToDesc", "pc", PYACL_RET},
    {"allocator_set_get_addr_from_block_func_to_desc", "aclrtAllocatorSetGetAddrFromBlockFuncToDesc", "pc", PYACL_RET},
    {"allocator_register", "aclrtAllocatorRegister", "pp", PYACL_RET},
    {"allocator_unregister", "aclrtAllocatorUnregister", "p", PYACL_RET},
    /* notifies */
    {"create_notify", "aclrtCreateNotify", "K", PYACL_VAL_RET},
    {"destroy_notify", "aclrtDestroyNotify", "p", PYACL_RET},
    {"record_notify", "aclrtRecordNotify", "pp", PYACL_RET},
    {"wait_and_reset_notify", "aclrtWaitAndResetNotify", "ppL", PYACL_RET},
    {"get_notify_id", "aclrtGetNotifyId", "p", PYACL_VAL_RET},
    {"notify_batch_reset", "aclrtNotifyBatchReset", "l", PYACL_RET},
    {"notify_get_export_key", "aclrtNotifyGetExportKey", "pzK", PYACL_STR_RET},
    {"notify_set_import_pid", "aclrtNotifySetImportPid", "pl", PYACL_RET},
    {"notify_import_by_key", "aclrtNotifyImportByKey", "sK", PYACL_VAL_RET},
    /* kernels */
    {"register_cpu_func", "aclrtRegisterCpuFunc", "pss", PYACL_VAL_RET},
    {"get_function_addr", "aclrtGetFunctionAddr", "p", PYACL_VAL2_RET},
    /* groups (USE_MDL only in pyACL) */
    {"set_group", "aclrtSetGroup", "I", PYACL_RET},
    {"get_group_count", "aclrtGetGroupCount", "I", PYACL_VAL_RET},
    {"create_group_info", "aclrtCreateGroupInfo", "", PYACL_HANDLE},
    {"destroy_group_info", "aclrtDestroyGroupInfo", "p", PYACL_RET},
    {"get_all_group_info", "aclrtGetAllGroupInfo", "p", PYACL_RET},
    {"get_group_info_detail", "aclrtGetGroupInfoDetail", "pii", PYACL_LIST_RET},
    {NULL, NULL, NULL, PYACL_RET},
};
