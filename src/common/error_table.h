/*
 * error_table.h - every error code openacl knows, listed once.
 *
 *   XX(NAME, value, "meaning", "likely causes", "remedy")
 *
 * NAME and value are the vendor's (include/acl/acl_base_rt.h,
 * include/acl/error_codes/rt_error_codes.h, ge_error_codes.h); the test
 * api/errors/table_matches_headers checks the table against every constant
 * there, both ways.  The first entry for a value is its canonical name;
 * aliases (ACL_ERROR_NONE, ACL_RT_SUCCESS) follow it.
 *
 * The texts speak to the user: what happened, why it usually happens in the
 * user's terms, and what to do (what to call first, what to check, which
 * variable to set).  openacl's devices are simulated on the host CPU, so
 * codes about hardware say what they mean there.  The remedy is appended to
 * aclGetRecentErrMsg messages, so it must read well on its own.
 */
#ifndef OPENACL_COMMON_ERROR_TABLE_H
#define OPENACL_COMMON_ERROR_TABLE_H

#define ACL__ERROR_TABLE(XX) \
  /* ACL codes (acl_base_rt.h): 1xxxxx caller and environment errors, 2xxxxx resources and \
   * support, 3xxxxx business conditions, 5xxxxx internal errors. */ \
  XX(ACL_SUCCESS, 0, "success", \
     "the call did what was asked", \
     "nothing to do") \
  XX(ACL_ERROR_NONE, 0, "success (deprecated alias of ACL_SUCCESS)", \
     "the call did what was asked", \
     "nothing to do; new code should compare with ACL_SUCCESS") \
  XX(ACL_RT_SUCCESS, 0, "success (the runtime's name for ACL_SUCCESS)", \
     "the call did what was asked", \
     "nothing to do") \
  XX(ACL_ERROR_INVALID_PARAM, 100000, "a parameter check failed", \
     "a NULL pointer, a size of 0, a value outside its enum, or a combination the API does not accept", \
     "read aclGetRecentErrMsg: it names the argument and the rule; check the call against the API " \
     "reference") \
  XX(ACL_ERROR_UNINITIALIZE, 100001, "openacl (or the feature used) is not initialised", \
     "aclInit was not called, aclFinalize already ran, or the feature needs its own init first " \
     "(aclmdlInitDump, aclprofInit)", \
     "call aclInit once at start-up (and the feature's init call) before this API; call aclFinalize only " \
     "at the end") \
  XX(ACL_ERROR_REPEAT_INITIALIZE, 100002, "repeated initialisation or repeated load", \
     "aclInit (or aclmdlInitDump, aclprofInit, a model load) was called again while already done", \
     "usually harmless: a repeated aclInit is counted, so treat this code as success or pair calls with " \
     "aclFinalizeReference") \
  XX(ACL_ERROR_INVALID_FILE, 100003, "the file is missing or cannot be read", \
     "the path is wrong (relative paths are taken from the current directory), or permissions forbid " \
     "reading it", \
     "check the path and permissions; pass NULL or \"\" to aclInit when there is no configuration file") \
  XX(ACL_ERROR_WRITE_FILE, 100004, "a file could not be written", \
     "the directory does not exist, is not writable, or the disk is full", \
     "check the directory named in the message (dump, profiling or log path) and its permissions and free" \
     " space") \
  XX(ACL_ERROR_INVALID_FILE_SIZE, 100005, "the file size is invalid", \
     "the file is empty, or larger than openacl accepts (configuration files are limited to 64 MiB)", \
     "check that the path names the intended file and that it was written completely") \
  XX(ACL_ERROR_PARSE_FILE, 100006, "the file could not be parsed", \
     "the content is not valid JSON (or not the expected format), e.g. a missing comma or quote", \
     "fix the syntax at the line and column given in aclGetRecentErrMsg; openaclCheckConfigFile checks a " \
     "file on its own") \
  XX(ACL_ERROR_FILE_MISSING_ATTR, 100007, "the file lacks a required attribute", \
     "a required key is absent from the configuration file", \
     "add the key named in the message; see docs/configuration.md for the keys and their defaults") \
  XX(ACL_ERROR_FILE_ATTR_INVALID, 100008, "a file attribute has an invalid value", \
     "a key of the configuration file has the wrong type or a value outside its range", \
     "fix the value of the key named in the message") \
  XX(ACL_ERROR_INVALID_DUMP_CONFIG, 100009, "invalid dump configuration", \
     "a rule of the \"dump\" section of acl.json (or of the aclmdlSetDump file) is broken, e.g. no " \
     "dump_path or a bad dump_mode", \
     "fix the key named in the message; see docs/configuration.md for the dump rules") \
  XX(ACL_ERROR_INVALID_PROFILING_CONFIG, 100010, "invalid profiling configuration", \
     "a rule of the \"profiler\" section of acl.json is broken, e.g. a bad switch value or output path", \
     "fix the key named in the message; see docs/configuration.md for the profiler keys") \
  XX(ACL_ERROR_INVALID_MODEL_ID, 100011, "invalid model id", \
     "the id was never returned by a model load, or the model was already unloaded", \
     "use the id a successful aclmdlLoad* call wrote; do not use it after aclmdlUnload") \
  XX(ACL_ERROR_DESERIALIZE_MODEL, 100012, "the model could not be deserialised", \
     "the model file was made for another version or format, or it is truncated", \
     "re-export the model (openacl loads ONNX files) and check that the whole file was copied") \
  XX(ACL_ERROR_PARSE_MODEL, 100013, "the model could not be parsed", \
     "the file is not a valid model, or it uses an operator or attribute openacl does not support", \
     "check the model with an ONNX checker; aclGetRecentErrMsg names the node that failed") \
  XX(ACL_ERROR_READ_MODEL_FAILURE, 100014, "the model file could not be read", \
     "the path is wrong or the file is not readable", \
     "check the path given to aclmdlLoadFromFile (relative to the current directory) and its permissions") \
  XX(ACL_ERROR_MODEL_SIZE_INVALID, 100015, "invalid model size", \
     "the size passed with a model in memory is 0 or does not match the data, or a work/weight buffer is " \
     "too small", \
     "pass the model's exact byte size; size buffers with aclmdlQuerySize / aclmdlQuerySizeFromMem") \
  XX(ACL_ERROR_MODEL_MISSING_ATTR, 100016, "the model lacks a required attribute", \
     "the model file misses information openacl needs (e.g. an input shape or a graph output)", \
     "re-export the model with complete shapes and outputs") \
  XX(ACL_ERROR_MODEL_INPUT_NOT_MATCH, 100017, "the inputs do not match the model", \
     "the input dataset has the wrong number of buffers, or a buffer is smaller than the input needs", \
     "give one buffer per input, each at least aclmdlGetInputSizeByIndex bytes") \
  XX(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, 100018, "the outputs do not match the model", \
     "the output dataset has the wrong number of buffers, or a buffer is smaller than the output needs", \
     "give one buffer per output, each at least aclmdlGetOutputSizeByIndex bytes") \
  XX(ACL_ERROR_MODEL_NOT_DYNAMIC, 100019, "the model is not dynamic", \
     "a dynamic batch, resolution or dims call was made on a model with fixed shapes", \
     "call the dynamic-shape APIs only for models whose inputs have dynamic dimensions (see " \
     "aclmdlGetInputDims)") \
  XX(ACL_ERROR_OP_TYPE_NOT_MATCH, 100020, "single operator: the type does not match", \
     "the operator type does not match the loaded or registered operator", \
     "check the opType string against the operators available") \
  XX(ACL_ERROR_OP_INPUT_NOT_MATCH, 100021, "single operator: the inputs do not match", \
     "the number, types, shapes or formats of the inputs differ from what the operator was built for", \
     "check each input tensor description against the operator's definition") \
  XX(ACL_ERROR_OP_OUTPUT_NOT_MATCH, 100022, "single operator: the outputs do not match", \
     "the number, types, shapes or formats of the outputs differ from what the operator was built for", \
     "check each output tensor description against the operator's definition") \
  XX(ACL_ERROR_OP_ATTR_NOT_MATCH, 100023, "single operator: the attributes do not match", \
     "an attribute is missing, has the wrong type, or has a value the operator was not built for", \
     "check the aclopAttr values against the operator's definition") \
  XX(ACL_ERROR_OP_NOT_FOUND, 100024, "single operator not found", \
     "no operator matches the type, inputs, outputs and attributes given", \
     "check the operator type and its descriptions; load or register the operator first") \
  XX(ACL_ERROR_OP_LOAD_FAILED, 100025, "the single operator could not be loaded", \
     "the operator model data is invalid or was built for another version", \
     "rebuild the operator and check the data passed to aclopLoad / the directory given to " \
     "aclopSetModelDir") \
  XX(ACL_ERROR_UNSUPPORTED_DATA_TYPE, 100026, "unsupported data type", \
     "the element type is not supported by this API, operator or model input", \
     "use a data type the operation supports (see aclDataType); convert the data first if needed") \
  XX(ACL_ERROR_FORMAT_NOT_MATCH, 100027, "format mismatch", \
     "the tensor format (e.g. NCHW vs NHWC) differs from the one expected", \
     "give the format the model or operator expects, or transpose the data first") \
  XX(ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED, 100028, "operator binary selector not registered", \
     "a dynamic-shape operator was run without a registered compile function", \
     "register it with aclopRegisterCompileFunc before running the operator") \
  XX(ACL_ERROR_KERNEL_NOT_FOUND, 100029, "operator kernel not registered", \
     "no kernel is registered for the operator and its inputs", \
     "create the kernel (aclopCreateKernel) or check the operator type and inputs") \
  XX(ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED, 100030, "operator binary selector registered twice", \
     "aclopRegisterCompileFunc was called again for the same operator type", \
     "register each operator type once, or unregister it first") \
  XX(ACL_ERROR_KERNEL_ALREADY_REGISTERED, 100031, "operator kernel registered twice", \
     "a kernel with the same id was created again", \
     "use a new kernel id or keep the existing kernel") \
  XX(ACL_ERROR_INVALID_QUEUE_ID, 100032, "invalid queue id", \
     "the queue id was not created or was already destroyed", \
     "use a queue id returned by a successful create call") \
  XX(ACL_ERROR_REPEAT_SUBSCRIBE, 100033, "repeated subscription", \
     "aclrtSubscribeReport (or a profiling subscription) was made again for the same stream or model", \
     "subscribe each stream once; unsubscribe before subscribing it again") \
  XX(ACL_ERROR_STREAM_NOT_SUBSCRIBE, 100034, "the stream is not subscribed (deprecated; see " \
                                             "ACL_ERROR_RT_STREAM_NO_CB_REG)", \
     "aclrtLaunchCallback was used on a stream with no thread subscribed by aclrtSubscribeReport", \
     "call aclrtSubscribeReport(threadId, stream) first, with a thread that loops on aclrtProcessReport") \
  XX(ACL_ERROR_THREAD_NOT_SUBSCRIBE, 100035, "the thread is not subscribed (deprecated; see " \
                                             "ACL_ERROR_RT_THREAD_SUBSCRIBE)", \
     "aclrtProcessReport was called by a thread that no stream was subscribed to", \
     "pass this thread's pthread_self() value to aclrtSubscribeReport before it calls aclrtProcessReport") \
  XX(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, 100036, "waiting for a callback timed out (deprecated; see " \
                                              "ACL_ERROR_RT_REPORT_TIMEOUT)", \
     "aclrtProcessReport found no callback to run within the timeout", \
     "normal when no callbacks are pending: keep looping, or use a longer timeout") \
  XX(ACL_ERROR_REPEAT_FINALIZE, 100037, "repeated finalisation", \
     "aclFinalize or aclFinalizeReference was called when openacl was not initialised (already finalised)", \
     "call aclFinalize once per aclInit cycle, at the end of the program; with aclFinalizeReference pair " \
     "each aclInit") \
  XX(ACL_ERROR_NOT_STATIC_AIPP, 100038, "no static AIPP information (deprecated; see " \
                                        "ACL_ERROR_GE_AIPP_NOT_EXIST)", \
     "the model input has no static AIPP (image pre-processing) configuration", \
     "query AIPP only for inputs that have it (aclmdlGetAippType)") \
  XX(ACL_ERROR_COMPILING_STUB_MODE, 100039, "the program runs against a compile-time stub library", \
     "the libascendcl.so found at run time is a stub meant only for linking", \
     "set LD_LIBRARY_PATH so that openacl's libascendcl.so is found first") \
  XX(ACL_ERROR_GROUP_NOT_SET, 100040, "group not set (deprecated; see ACL_ERROR_RT_GROUP_NOT_SET)", \
     "a group API was used before aclrtSetGroup", \
     "call aclrtSetGroup first") \
  XX(ACL_ERROR_GROUP_NOT_CREATE, 100041, "group not created (deprecated; see " \
                                         "ACL_ERROR_RT_GROUP_NOT_CREATE)", \
     "the group id does not exist on this device", \
     "use a group id reported by aclrtGetAllGroupInfo") \
  XX(ACL_ERROR_PROF_ALREADY_RUN, 100042, "a profiling task already exists", \
     "profiling is already on (through acl.json or an earlier aclprofStart)", \
     "use one way to profile: the acl.json profiler section or the aclprof* calls, and stop before " \
     "starting again") \
  XX(ACL_ERROR_PROF_NOT_RUN, 100043, "profiling was not initialised", \
     "an aclprof* call was made before aclprofInit, or after aclprofFinalize", \
     "call aclprofInit first (after aclInit)") \
  XX(ACL_ERROR_DUMP_ALREADY_RUN, 100044, "a dump task already exists", \
     "dump is already configured through acl.json, or aclmdlInitDump was called twice", \
     "use one way to dump: the acl.json dump section or aclmdlInitDump/aclmdlSetDump") \
  XX(ACL_ERROR_DUMP_NOT_RUN, 100045, "dump was not initialised", \
     "aclmdlSetDump or aclmdlFinalizeDump was called before aclmdlInitDump", \
     "call aclmdlInitDump first (after aclInit, before loading the model)") \
  XX(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, 148046, "the model is already subscribed for profiling", \
     "aclprofModelSubscribe was called twice for the same model", \
     "unsubscribe (aclprofModelUnSubscribe) before subscribing the model again") \
  XX(ACL_ERROR_PROF_API_CONFLICT, 148047, "conflicting profiling APIs", \
     "the subscription calls (aclprofModelSubscribe) were mixed with aclprofInit/Start/Stop/Finalize", \
     "use one family of profiling calls at a time") \
  XX(ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG, 148048, "invalid max_opqueue_num configuration", \
     "max_opqueue_num in acl.json is not a positive integer", \
     "set it to a positive integer (the default is 20000) or remove the key") \
  XX(ACL_ERROR_INVALID_OPP_PATH, 148049, "invalid operator package path", \
     "ASCEND_OPP_PATH is unset or names a directory without an operator package", \
     "check ASCEND_OPP_PATH: point it at an existing operator package directory, or unset it") \
  XX(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, 148050, "the operator does not support dynamic shapes", \
     "a shape with unknown dimensions (-1 or -2) was given to an operator that needs fixed shapes", \
     "give fixed shapes for this operator") \
  XX(ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED, 148051, "a related resource was not released", \
     "a resource (such as a channel) that depends on this one is still alive", \
     "destroy the dependent resources first, then retry") \
  XX(ACL_ERROR_UNSUPPORTED_JPEG, 148052, "unsupported JPEG encoding", \
     "the JPEG uses an encoding the decoder does not accept (e.g. progressive or arithmetic coding)", \
     "re-encode the image as baseline JPEG") \
  XX(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, 148053, "invalid bundle model id", \
     "the id was not returned by a bundle load or the bundle was unloaded", \
     "use the id from a successful aclmdlBundleLoad* call") \
  XX(ACL_ERROR_BAD_ALLOC, 200000, "memory allocation failed", \
     "the host ran out of memory, or a size is so large that the allocation cannot succeed", \
     "free memory or reduce the working set; check the size passed for overflow") \
  XX(ACL_ERROR_API_NOT_SUPPORT, 200001, "the API is not supported", \
     "the API is not supported on this device or in this build of openacl", \
     "check docs for the API's status; use the alternative the message names") \
  XX(ACL_ERROR_INVALID_DEVICE, 200002, "invalid device (deprecated; see ACL_ERROR_RT_INVALID_DEVICEID)", \
     "the device id is negative or not below the number of visible devices", \
     "use an id below aclrtGetDeviceCount(); check OPENACL_DEVICE_COUNT and ASCEND_RT_VISIBLE_DEVICES") \
  XX(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, 200003, "the memory address is not aligned", \
     "the address does not meet the alignment the API needs (device memory starts are 64-byte aligned)", \
     "pass addresses returned by aclrtMalloc, or offsets that keep the required alignment") \
  XX(ACL_ERROR_RESOURCE_NOT_MATCH, 200004, "resources do not match", \
     "the stream, event or memory belongs to another context or device than the current one", \
     "make the owning context current (aclrtSetCurrentContext) or use resources of the current context") \
  XX(ACL_ERROR_INVALID_RESOURCE_HANDLE, 200005, "invalid resource handle", \
     "the handle was destroyed, never created, belongs to another object type, or is in use", \
     "use handles only between their create and destroy calls, and of the type the API expects") \
  XX(ACL_ERROR_FEATURE_UNSUPPORTED, 200006, "the feature is not supported", \
     "the option or mode is not supported on this device or by openacl", \
     "leave the option at its default; aclGetRecentErrMsg names the feature") \
  XX(ACL_ERROR_PROF_MODULES_UNSUPPORTED, 200007, "unsupported profiling configuration", \
     "a profiling data type or metric is not supported on this device", \
     "remove the unsupported ACL_PROF_* bits or metrics from the configuration") \
  XX(ACL_ERROR_STORAGE_OVER_LIMIT, 300000, "storage limit exceeded", \
     "the profiling or dump output reached its configured storage limit", \
     "raise the limit (ACL_PROF_STORAGE_LIMIT), free disk space, or collect less data") \
  XX(ACL_ERROR_INTERNAL_ERROR, 500000, "unknown internal error", \
     "an unexpected condition inside openacl, or a code that openacl could not map", \
     "report it with the log file (ASCEND_PROCESS_LOG_PATH; set ASCEND_GLOBAL_LOG_LEVEL=0 for details)") \
  XX(ACL_ERROR_FAILURE, 500001, "internal error", \
     "an operation inside openacl failed for a reason not covered by a specific code", \
     "read aclGetRecentErrMsg and the log; report it if it persists") \
  XX(ACL_ERROR_GE_FAILURE, 500002, "model engine error", \
     "the model layer failed while loading, building or running a model", \
     "read aclGetRecentErrMsg and the log; check the model file and its inputs") \
  XX(ACL_ERROR_RT_FAILURE, 500003, "runtime error", \
     "the runtime layer failed for a reason not covered by a specific code", \
     "read aclGetRecentErrMsg and the log; report it if it persists") \
  XX(ACL_ERROR_DRV_FAILURE, 500004, "device driver error", \
     "the device backend failed; for openacl's simulated device this is a failure of the host CPU backend", \
     "read the log; check that the backend named in the message is installed and working") \
  XX(ACL_ERROR_PROFILING_FAILURE, 500005, "profiling error", \
     "the profiling module failed to collect or write data", \
     "check the profiling output path and free disk space; read the log") \
  /* Runtime codes (error_codes/rt_error_codes.h), returned unchanged by aclrt* calls. */ \
  XX(ACL_ERROR_RT_PARAM_INVALID, 107000, "runtime parameter check failed", \
     "a value the runtime rejects: e.g. count larger than destMax in aclrtMemcpy, a timeout below -1, a " \
     "bad flag", \
     "read aclGetRecentErrMsg for the argument and rule; check sizes, timeouts and flags against the API " \
     "reference") \
  XX(ACL_ERROR_RT_INVALID_DEVICEID, 107001, "invalid device id", \
     "the id is negative or not below the number of visible devices (openacl simulates " \
     "OPENACL_DEVICE_COUNT devices)", \
     "use an id below aclrtGetDeviceCount(); check OPENACL_DEVICE_COUNT and ASCEND_RT_VISIBLE_DEVICES") \
  XX(ACL_ERROR_RT_CONTEXT_NULL, 107002, "no current context", \
     "the calling thread has no device set and no context current (each thread needs its own)", \
     "call aclrtSetDevice (or aclrtSetCurrentContext) in this thread first, or set " \
     "defaultDevice.default_device in acl.json") \
  XX(ACL_ERROR_RT_STREAM_CONTEXT, 107003, "the stream is not in the current context", \
     "the stream was created in another context than the calling thread's current one", \
     "make the stream's context current (aclrtSetCurrentContext) or use a stream created in this context") \
  XX(ACL_ERROR_RT_MODEL_CONTEXT, 107004, "the model is not in the current context", \
     "the model was loaded in another context than the current one", \
     "load, execute and unload a model in the same context") \
  XX(ACL_ERROR_RT_STREAM_MODEL, 107005, "the stream is not bound to the model", \
     "the stream given was not bound to the captured or loaded model", \
     "use a stream bound to the model (aclmdlRIBindStream) or the stream the model was captured on") \
  XX(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, 107006, "invalid event timestamp", \
     "the event was not recorded, not completed, or not created with ACL_EVENT_TIME_LINE", \
     "record both events on a stream, synchronise, then query; create them with a timestamp-capable flag") \
  XX(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, 107007, "event timestamps are reversed", \
     "the end event completed before the start event", \
     "pass the earlier-recorded event as start and the later one as end to aclrtEventElapsedTime") \
  XX(ACL_ERROR_RT_ADDR_UNALIGNED, 107008, "memory address not aligned", \
     "the address does not meet the alignment the operation needs (e.g. 64 bytes for device copies)", \
     "use addresses from aclrtMalloc and offsets that keep the alignment") \
  XX(ACL_ERROR_RT_FILE_OPEN, 107009, "opening a file failed", \
     "the file does not exist or cannot be opened (e.g. a kernel binary path)", \
     "check the path (absolute paths are safest) and its permissions") \
  XX(ACL_ERROR_RT_FILE_WRITE, 107010, "writing a file failed", \
     "the directory is not writable or the disk is full", \
     "check the output path and free disk space") \
  XX(ACL_ERROR_RT_STREAM_SUBSCRIBE, 107011, "stream subscription error", \
     "the stream is already subscribed, or was not subscribed when unsubscribing", \
     "subscribe each stream once with aclrtSubscribeReport and unsubscribe it once") \
  XX(ACL_ERROR_RT_THREAD_SUBSCRIBE, 107012, "thread subscription error", \
     "aclrtProcessReport was called by a thread no stream is subscribed to, or the thread id is used on " \
     "another device", \
     "pass this thread's pthread_self() value to aclrtSubscribeReport before it calls aclrtProcessReport") \
  XX(ACL_ERROR_RT_GROUP_NOT_SET, 107013, "group not set", \
     "a group API was used before aclrtSetGroup", \
     "call aclrtSetGroup first") \
  XX(ACL_ERROR_RT_GROUP_NOT_CREATE, 107014, "group not created", \
     "the group id does not exist on this device", \
     "use a group id reported by aclrtGetAllGroupInfo") \
  XX(ACL_ERROR_RT_STREAM_NO_CB_REG, 107015, "no callback thread for the stream", \
     "aclrtLaunchCallback was used on a stream no thread was subscribed to", \
     "call aclrtSubscribeReport(threadId, stream) first, with a thread that loops on aclrtProcessReport") \
  XX(ACL_ERROR_RT_INVALID_MEMORY_TYPE, 107016, "invalid memory type", \
     "host memory was given where device memory is needed, or the reverse", \
     "check where each pointer came from (aclrtMalloc vs aclrtMallocHost or malloc) and the copy kind") \
  XX(ACL_ERROR_RT_INVALID_HANDLE, 107017, "invalid handle", \
     "the handle was destroyed, never created, or is of another type; openacl checks every handle", \
     "use handles only between their create and destroy calls; do not pass a stream where an event is " \
     "expected") \
  XX(ACL_ERROR_RT_INVALID_MALLOC_TYPE, 107018, "invalid allocation type", \
     "the memory policy or allocation attribute is not accepted", \
     "use one aclrtMemMallocPolicy value (not OR-ed ones) or valid aclrtMallocConfig attributes") \
  XX(ACL_ERROR_RT_WAIT_TIMEOUT, 107019, "wait timed out", \
     "the awaited event, notify or value did not arrive within the timeout", \
     "check that the task that records or writes it was launched; raise the timeout") \
  XX(ACL_ERROR_RT_TASK_TIMEOUT, 107020, "task timed out", \
     "a task on the stream ran longer than the operator timeout (on openacl: the kernel's host thread)", \
     "check the kernel for endless loops; raise the timeout with aclrtSetOpExecuteTimeOut") \
  XX(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, 107021, "system parameter not set", \
     "the parameter was queried before it was ever set", \
     "set it with aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt first") \
  XX(ACL_ERROR_RT_DEVICE_TASK_ABORT, 107022, "the device's tasks are being aborted", \
     "aclrtDeviceTaskAbort is in progress, so new tasks are refused", \
     "wait until the abort completes, then launch again") \
  XX(ACL_ERROR_RT_STREAM_ABORT, 107023, "the stream is being aborted", \
     "aclrtStreamAbort is in progress on this stream", \
     "wait until the abort completes, then use the stream again") \
  XX(ACL_ERROR_RT_CAPTURE_DEPENDENCY, 107024, "capture dependency failure", \
     "during stream capture a task depends on work outside the captured streams", \
     "record and wait events only between streams that take part in the capture") \
  XX(ACL_ERROR_RT_STREAM_UNJOINED, 107025, "a captured stream was not joined back", \
     "a stream forked from the capture stream was not joined to it before aclmdlRICaptureEnd", \
     "make the origin stream wait on an event recorded on each forked stream before ending the capture") \
  XX(ACL_ERROR_RT_MODEL_CAPTURED, 107026, "the model is being captured", \
     "the operation is not allowed on a model whose capture has not ended", \
     "end the capture (aclmdlRICaptureEnd) first") \
  XX(ACL_ERROR_RT_STREAM_CAPTURED, 107027, "the stream is being captured", \
     "the operation is not allowed on a stream in capture mode", \
     "end the capture first, or use another stream") \
  XX(ACL_ERROR_RT_EVENT_CAPTURED, 107028, "the event is being captured", \
     "the operation is not allowed on an event used in an ongoing capture", \
     "end the capture first, or use another event") \
  XX(ACL_ERROR_RT_STREAM_NOT_CAPTURED, 107029, "the stream is not capturing", \
     "a capture call was made on a stream that is not in capture mode", \
     "call aclmdlRICaptureBegin on the stream first") \
  XX(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, 107030, "not allowed while capturing", \
     "the operation (e.g. a synchronous call) is not supported on a captured stream", \
     "move the operation outside the capture, or use its asynchronous form") \
  XX(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, 107031, "implicit use of the default stream during capture", \
     "the default stream was used while a capture was active, which would create a hidden dependency", \
     "use explicit streams during capture") \
  XX(ACL_ERROR_STREAM_CAPTURE_CONFLICT, 107032, "conflicting captures", \
     "streams that depend on each other were put into capture mode separately", \
     "capture them together: fork from one capture stream with events") \
  XX(ACL_ERROR_STREAM_TASK_GROUP_STATUS, 107033, "task group state error", \
     "a task group call was made out of order (e.g. end without begin)", \
     "pair aclmdlRICaptureTaskGrpBegin with aclmdlRICaptureTaskGrpEnd on the same stream") \
  XX(ACL_ERROR_STREAM_TASK_GROUP_INTR, 107034, "task group interrupted", \
     "the task group's recording was interrupted by an error or by ending the capture", \
     "check earlier errors in the capture and record the group again") \
  XX(ACL_ERROR_RT_TASK_ABORT_STOP, 107035, "task abort stopped before post-processing", \
     "a device task abort ended before its post-processing stage", \
     "retry the abort; read the log") \
  XX(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, 107036, "the capture was not started on this stream", \
     "aclmdlRICaptureEnd was called on a stream other than the one that began the capture", \
     "end the capture on the stream passed to aclmdlRICaptureBegin") \
  XX(ACL_ERROR_RT_MODEL_RUNNING, 107037, "the model is still running", \
     "the model is being destroyed, updated or executed again while it runs", \
     "synchronise the stream it runs on first") \
  XX(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, 107038, "capture ended from another thread", \
     "aclmdlRICaptureEnd was called by a different thread than aclmdlRICaptureBegin in thread-local mode", \
     "end the capture from the thread that began it, or use the global capture mode") \
  XX(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, 107039, "the array given is too small", \
     "the array passed to receive handles has fewer entries than needed", \
     "pass a larger array; query the count first") \
  XX(ACL_ERROR_RT_MODEL_UPDATE_FAILED, 107040, "updating the model failed", \
     "a task parameter update on a captured model was rejected", \
     "check the updated parameters and that the model is not running") \
  XX(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, 107041, "blocking call on a captured stream", \
     "an asynchronous call that would turn synchronous (e.g. a copy from pageable host memory) was used " \
     "during capture", \
     "use pinned host memory (aclrtMallocHost) or move the call outside the capture") \
  XX(ACL_ERROR_RT_SYMBOL_NOT_FOUND, 107042, "symbol not found", \
     "the named kernel or global does not exist in the loaded binary", \
     "check the name (C++ names may be mangled) and that the right binary is loaded") \
  XX(ACL_ERROR_RT_INVALID_SYMBOL, 107043, "invalid device symbol", \
     "the symbol pointer does not refer to a device variable of a loaded binary", \
     "pass the address of a device global from a loaded kernel binary") \
  XX(ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, 107044, "invalid device function", \
     "the function handle or pointer does not refer to a kernel of a loaded binary", \
     "get functions with aclrtBinaryGetFunction from a binary that is still loaded") \
  XX(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING, 107045, "a sub-graph is still being captured", \
     "the operation needs the nested capture to end first", \
     "end the inner capture before this call") \
  XX(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000, "feature not supported", \
     "the operation is not supported on this device, in this mode, or by openacl's simulated device", \
     "use a supported alternative; aclGetRecentErrMsg names the feature") \
  XX(ACL_ERROR_RT_MEMORY_ALLOCATION, 207001, "device memory allocation failed", \
     "the simulated device's memory capacity is used up, or the request is larger than the device's " \
     "memory", \
     "free device memory (aclrtFree) you no longer need; check aclrtGetMemInfo and the requested size") \
  XX(ACL_ERROR_RT_MEMORY_FREE, 207002, "freeing memory failed", \
     "the pointer was not returned by the matching allocation call, or was already freed", \
     "free each pointer once, with the call that matches its allocation (aclrtFree / aclrtFreeHost)") \
  XX(ACL_ERROR_RT_AICORE_OVER_FLOW, 207003, "AI Core arithmetic overflow", \
     "a kernel produced an overflow (Inf/NaN) and overflow detection is on; often informational", \
     "check the inputs and the model's numeric range; this may be returned together with valid results") \
  XX(ACL_ERROR_RT_NO_DEVICE, 207004, "no device available", \
     "no device is visible: OPENACL_DEVICE_COUNT is 0 or ASCEND_RT_VISIBLE_DEVICES hides every device", \
     "check OPENACL_DEVICE_COUNT and ASCEND_RT_VISIBLE_DEVICES; aclrtGetDeviceCount shows what is visible") \
  XX(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, 207005, "resource allocation failed", \
     "a runtime resource (stream, event, thread, queue) could not be created", \
     "release resources you no longer use; check host memory and thread limits") \
  XX(ACL_ERROR_RT_NO_PERMISSION, 207006, "no permission", \
     "the process lacks permission for the operation or the file it touches", \
     "check file and device permissions, and the user the program runs as") \
  XX(ACL_ERROR_RT_NO_EVENT_RESOURCE, 207007, "no event resources left", \
     "too many events exist on the device", \
     "destroy events you no longer use (aclrtDestroyEvent); aclrtGetEventAvailNum shows what is left") \
  XX(ACL_ERROR_RT_NO_STREAM_RESOURCE, 207008, "no stream resources left", \
     "too many streams exist on the device", \
     "destroy streams you no longer use (aclrtDestroyStream); aclrtGetStreamAvailableNum shows what is " \
     "left") \
  XX(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, 207009, "no notify resources left", \
     "too many notifies exist on the device", \
     "destroy notifies you no longer use (aclrtDestroyNotify)") \
  XX(ACL_ERROR_RT_NO_MODEL_RESOURCE, 207010, "no model resources left", \
     "too many models are loaded or captured on the device", \
     "unload models (aclmdlUnload) or destroy captured models (aclmdlRIDestroy) you no longer use") \
  XX(ACL_ERROR_RT_NO_CDQ_RESOURCE, 207011, "no queue resources left", \
     "the device ran out of internal queue resources", \
     "release queues you no longer use") \
  XX(ACL_ERROR_RT_OVER_LIMIT, 207012, "over limit", \
     "a count or size exceeds what the device allows (e.g. more than 1024 subscribed callback threads)", \
     "reduce the number of objects or the size requested") \
  XX(ACL_ERROR_RT_QUEUE_EMPTY, 207013, "queue empty", \
     "there is no data in the queue to take (not a failure in itself)", \
     "retry later or wait for the producer") \
  XX(ACL_ERROR_RT_QUEUE_FULL, 207014, "queue full", \
     "the queue cannot take more data (not a failure in itself)", \
     "retry after the consumer has taken data") \
  XX(ACL_ERROR_RT_REPEATED_INIT, 207015, "repeated initialisation", \
     "a runtime component was initialised twice", \
     "initialise it once") \
  XX(ACL_ERROR_RT_AIVEC_OVER_FLOW, 207016, "AI Vector overflow", \
     "a vector kernel produced an overflow (Inf/NaN) and overflow detection is on; often informational", \
     "check the inputs and the numeric range of the computation") \
  XX(ACL_ERROR_RT_OVER_FLOW, 207017, "arithmetic overflow", \
     "a kernel produced an overflow and overflow detection is on; often informational", \
     "check the inputs and the numeric range of the computation") \
  XX(ACL_ERROR_RT_DEVICE_OOM, 207018, "device out of memory", \
     "the device ran out of memory while running tasks (on openacl: the simulated device's capacity)", \
     "free device memory, reduce batch sizes, or run fewer models at once") \
  XX(ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP, 207019, "the task cannot be updated", \
     "the task type does not support parameter updates in a captured model", \
     "update only kernel tasks, or capture the model again") \
  XX(ACL_ERROR_RT_TIMEOUT, 207020, "driver timeout", \
     "the device backend did not answer in time", \
     "retry; read the log; on openacl check that the host is not overloaded") \
  XX(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, 207021, "link type not supported", \
     "the link type between devices is not available; openacl's simulated devices have no physical links", \
     "use the default link type") \
  XX(ACL_ERROR_RT_INTERNAL_ERROR, 507000, "runtime internal error", \
     "an unexpected condition inside the runtime", \
     "read aclGetRecentErrMsg and the log (ASCEND_GLOBAL_LOG_LEVEL=0 for details); report it if it " \
     "persists") \
  XX(ACL_ERROR_RT_TS_ERROR, 507001, "task scheduler internal error", \
     "the device's task scheduler (on openacl: the stream executor threads) failed", \
     "read the log; report it with the log file") \
  XX(ACL_ERROR_RT_STREAM_TASK_FULL, 507002, "the stream's task queue is full", \
     "too many tasks were launched without the stream making progress", \
     "synchronise the stream now and then, or check that earlier tasks are not blocked") \
  XX(ACL_ERROR_RT_STREAM_TASK_EMPTY, 507003, "the stream has no tasks", \
     "an operation needing launched tasks found none on the stream", \
     "launch tasks before this call") \
  XX(ACL_ERROR_RT_STREAM_NOT_COMPLETE, 507004, "the stream has not completed", \
     "tasks are still pending on the stream", \
     "synchronise the stream (aclrtSynchronizeStream) before this call") \
  XX(ACL_ERROR_RT_END_OF_SEQUENCE, 507005, "end of sequence", \
     "a data queue has no more data; informational, not a failure", \
     "stop reading from the queue") \
  XX(ACL_ERROR_RT_EVENT_NOT_COMPLETE, 507006, "the event has not completed", \
     "the tasks the event waits for are still pending", \
     "synchronise the event (aclrtSynchronizeEvent) before this call") \
  XX(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, 507007, "context release error", \
     "the context was already released (e.g. aclrtResetDevice after the device's count reached 0)", \
     "pair each aclrtSetDevice with one aclrtResetDevice; destroy each context once") \
  XX(ACL_ERROR_RT_SOC_VERSION, 507008, "SoC version error", \
     "the binary or model was built for another SoC than the device reports (see aclrtGetSocName)", \
     "rebuild for the SoC openacl reports, or choose it in the configuration") \
  XX(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, 507009, "task type not supported", \
     "the device cannot run this kind of task (on openacl: the simulated device lacks it)", \
     "use another way to do the work; aclGetRecentErrMsg names the task type") \
  XX(ACL_ERROR_RT_LOST_HEARTBEAT, 507010, "the device stopped responding", \
     "the device lost its heartbeat; openacl's simulated device reports this only if its executor threads" \
     " stall", \
     "restart the process; read the log") \
  XX(ACL_ERROR_RT_MODEL_EXECUTE, 507011, "model execution failed", \
     "a task of the model failed while running", \
     "read aclGetRecentErrMsg for the failing node; check the inputs") \
  XX(ACL_ERROR_RT_REPORT_TIMEOUT, 507012, "no callback report within the timeout", \
     "aclrtProcessReport waited the whole timeout without a callback to run", \
     "normal when no callbacks are pending: keep looping or use a longer timeout") \
  XX(ACL_ERROR_RT_SYS_DMA, 507013, "DMA error", \
     "a copy between host and device failed (on openacl: an invalid address reached a copy task)", \
     "check the addresses and sizes of the copies launched before the error") \
  XX(ACL_ERROR_RT_AICORE_TIMEOUT, 507014, "AI Core kernel timed out", \
     "a kernel ran longer than the operator timeout (on openacl: on the simulated device's host threads)", \
     "check the kernel for endless loops; raise the timeout with aclrtSetOpExecuteTimeOut") \
  XX(ACL_ERROR_RT_AICORE_EXCEPTION, 507015, "AI Core kernel exception", \
     "a kernel failed while running (on openacl: a simulated kernel faulted, e.g. an out-of-range access)", \
     "check the kernel's arguments, buffer sizes and addresses; aclrtGetLastError and the log name the " \
     "kernel") \
  XX(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, 507016, "AI Core kernel trap", \
     "a kernel hit a trap (an assertion or illegal instruction in the kernel)", \
     "check the kernel's arguments and its assertions") \
  XX(ACL_ERROR_RT_AICPU_TIMEOUT, 507017, "AI CPU kernel timed out", \
     "an AI CPU task ran longer than the timeout", \
     "check the kernel for endless loops; raise the timeout") \
  XX(ACL_ERROR_RT_AICPU_EXCEPTION, 507018, "AI CPU kernel exception", \
     "an AI CPU task failed while running", \
     "check the kernel's arguments and buffers; read the log") \
  XX(ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR, 507019, "AI CPU dump response error", \
     "the device failed to answer a data dump request", \
     "check the dump configuration and output path; read the log") \
  XX(ACL_ERROR_RT_AICPU_MODEL_RSP_ERR, 507020, "AI CPU model operation response error", \
     "the device failed to answer a model operation", \
     "read the log; reload the model") \
  XX(ACL_ERROR_RT_PROFILING_ERROR, 507021, "profiling error", \
     "the runtime failed to collect profiling data", \
     "check the profiling configuration and output path") \
  XX(ACL_ERROR_RT_IPC_ERROR, 507022, "inter-process communication error", \
     "sharing memory or events between processes failed", \
     "check that the peer process exists and was allowed (aclrtIpcMemSetImportPid)") \
  XX(ACL_ERROR_RT_MODEL_ABORT_NORMAL, 507023, "the model was aborted", \
     "the model stopped on request (aclmdlRIAbort); informational", \
     "nothing to do if the abort was intended") \
  XX(ACL_ERROR_RT_KERNEL_UNREGISTERING, 507024, "the kernel is being unregistered", \
     "a launch used a kernel whose binary is being unloaded", \
     "finish launches before aclrtBinaryUnLoad") \
  XX(ACL_ERROR_RT_RINGBUFFER_NOT_INIT, 507025, "ring buffer not initialised", \
     "device-side logging or printf buffers were used before set-up", \
     "read the log; report it if it persists") \
  XX(ACL_ERROR_RT_RINGBUFFER_NO_DATA, 507026, "ring buffer empty", \
     "no data was waiting in the device's ring buffer; informational", \
     "nothing to do") \
  XX(ACL_ERROR_RT_KERNEL_LOOKUP, 507027, "kernel lookup failed", \
     "the kernel is not registered in any loaded binary", \
     "load the binary that holds the kernel and check the kernel name") \
  XX(ACL_ERROR_RT_KERNEL_DUPLICATE, 507028, "kernel registered twice", \
     "a kernel with the same name or entry is already registered", \
     "register each kernel once, or unload the old binary first") \
  XX(ACL_ERROR_RT_DEBUG_REGISTER_FAIL, 507029, "debug registration failed", \
     "registering the debug (dump) service failed", \
     "check the dump configuration; read the log") \
  XX(ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL, 507030, "debug unregistration failed", \
     "unregistering the debug (dump) service failed", \
     "read the log") \
  XX(ACL_ERROR_RT_LABEL_CONTEXT, 507031, "the label is not in the current context", \
     "the label was created in another context", \
     "use labels in the context that created them") \
  XX(ACL_ERROR_RT_PROGRAM_USE_OUT, 507032, "too many kernel binaries registered", \
     "the limit of registered programs was reached", \
     "unload binaries you no longer use (aclrtBinaryUnLoad)") \
  XX(ACL_ERROR_RT_DEV_SETUP_ERROR, 507033, "device set-up failed", \
     "the device could not be opened; for openacl the simulated device's backend failed to start", \
     "read the log; check host memory and that OPENACL_DEVICE_COUNT is sensible") \
  XX(ACL_ERROR_RT_VECTOR_CORE_TIMEOUT, 507034, "vector core kernel timed out", \
     "a vector kernel ran longer than the operator timeout", \
     "check the kernel for endless loops; raise the timeout with aclrtSetOpExecuteTimeOut") \
  XX(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, 507035, "vector core kernel exception", \
     "a vector kernel failed while running (on openacl: a simulated kernel faulted)", \
     "check the kernel's arguments, buffer sizes and addresses") \
  XX(ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION, 507036, "vector core kernel trap", \
     "a vector kernel hit a trap (an assertion or illegal instruction)", \
     "check the kernel's arguments and its assertions") \
  XX(ACL_ERROR_RT_CDQ_BATCH_ABNORMAL, 507037, "queue batch allocation failed", \
     "an internal queue could not allocate a batch", \
     "read the log; report it if it persists") \
  XX(ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR, 507038, "the die mode cannot be changed", \
     "the die mode was changed while in use; openacl's simulated device has a single die", \
     "leave the die mode unchanged") \
  XX(ACL_ERROR_RT_DIE_SET_ERROR, 507039, "the die cannot be chosen in single-die mode", \
     "a die was selected while the device runs in single-die mode", \
     "do not select a die") \
  XX(ACL_ERROR_RT_INVALID_DIEID, 507040, "invalid die id", \
     "the die id is out of range for the device", \
     "use die 0 (openacl simulates a single die)") \
  XX(ACL_ERROR_RT_DIE_MODE_NOT_SET, 507041, "die mode not set", \
     "a die operation was used before setting the die mode", \
     "set the die mode first, or avoid die-specific calls") \
  XX(ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, 507042, "AI Core kernel read out of bounds", \
     "a kernel read outside its buffers", \
     "check the kernel's input sizes and offsets") \
  XX(ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, 507043, "AI Core kernel write out of bounds", \
     "a kernel wrote outside its buffers", \
     "check the kernel's output sizes and offsets") \
  XX(ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW, 507044, "vector kernel read out of bounds", \
     "a vector kernel read outside its buffers", \
     "check the kernel's input sizes and offsets") \
  XX(ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW, 507045, "vector kernel write out of bounds", \
     "a vector kernel wrote outside its buffers", \
     "check the kernel's output sizes and offsets") \
  XX(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046, "stream synchronisation timed out", \
     "the stream's tasks did not finish within the timeout given", \
     "raise the timeout (-1 waits forever); check for tasks that wait on events never recorded") \
  XX(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, 507047, "event synchronisation timed out", \
     "the event's tasks did not finish within the timeout given", \
     "raise the timeout (-1 waits forever); check that the event was recorded on a stream that progresses") \
  XX(ACL_ERROR_RT_FFTS_PLUS_TIMEOUT, 507048, "FFTS+ task timed out", \
     "a fused task group ran longer than the timeout", \
     "check the kernels of the group; raise the operator timeout") \
  XX(ACL_ERROR_RT_FFTS_PLUS_EXCEPTION, 507049, "FFTS+ task exception", \
     "a task of a fused task group failed", \
     "check the kernels' arguments and buffers; read the log") \
  XX(ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION, 507050, "FFTS+ task trap", \
     "a task of a fused task group hit a trap", \
     "check the kernels' arguments and assertions") \
  XX(ACL_ERROR_RT_SEND_MSG, 507051, "sending a message to the device failed", \
     "the host-device channel failed; openacl has no such channel, so this points to a backend failure", \
     "read the log; restart the process") \
  XX(ACL_ERROR_RT_COPY_DATA, 507052, "copying data failed", \
     "a copy between host and device memory failed", \
     "check the addresses, sizes and copy kind; read the log") \
  XX(ACL_ERROR_RT_DEVICE_MEM_ERROR, 507053, "device memory error", \
     "the device reported a memory fault; openacl's simulated device does not produce hardware faults", \
     "with openacl, check the log for the failing task; on hardware, contact the administrator") \
  XX(ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR, 507054, "uncorrectable memory (ECC) error", \
     "the device's HBM reported a multi-bit ECC error; never produced by openacl's simulated device", \
     "on hardware, stop using the device and contact the administrator") \
  XX(ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR, 507055, "suspected device memory error", \
     "the device may have a memory fault; never produced by openacl's simulated device", \
     "on hardware, run the vendor's diagnostics") \
  XX(ACL_ERROR_RT_LINK_ERROR, 507056, "link error", \
     "a link between devices failed; openacl's simulated devices have no physical links", \
     "on hardware, check the interconnect; with openacl read the log") \
  XX(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, 507057, "suspected remote error", \
     "a remote device or peer may have failed", \
     "check the peer device or process; read the log") \
  XX(ACL_ERROR_RT_DRV_INTERNAL_ERROR, 507899, "driver internal error", \
     "the device backend failed internally (for openacl: the simulated device's backend)", \
     "read the log (ASCEND_GLOBAL_LOG_LEVEL=0 for details); report it with the log file") \
  XX(ACL_ERROR_RT_AICPU_INTERNAL_ERROR, 507900, "AI CPU internal error", \
     "the AI CPU side failed internally", \
     "read the log; report it with the log file") \
  XX(ACL_ERROR_RT_SOCKET_CLOSE, 507901, "connection to the device closed", \
     "the host-device connection was closed; informational during shutdown", \
     "if it happens outside shutdown, read the log and restart the process") \
  XX(ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR, 507902, "AI CPU info load response error", \
     "the device failed to load AI CPU kernel information", \
     "check the kernel binary; read the log") \
  XX(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, 507903, "the capture was invalidated", \
     "an error during capture made the captured model unusable", \
     "fix the earlier error in the capture and capture again") \
  XX(ACL_ERROR_RT_COMM_OP_RETRY_FAIL, 507904, "collective operation retry failed", \
     "a communication operation failed again after retrying", \
     "check the peers and the links between devices; read the log") \
  XX(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, 507905, "snapshot lock timed out", \
     "locking the process for a snapshot did not finish in time", \
     "let running tasks finish first; retry") \
  XX(ACL_ERROR_SNAPSHOT_LOCK_FAILED, 507906, "snapshot lock failed", \
     "the process could not be locked for a snapshot", \
     "check the process state (aclrtSnapShotProcessLock must come first); retry") \
  XX(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, 507907, "snapshot unlock failed", \
     "the process could not be unlocked after a snapshot", \
     "check that it was locked; read the log") \
  XX(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, 507908, "snapshot backup failed", \
     "saving the device state failed", \
     "lock the process first; check memory and disk space") \
  XX(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, 507909, "snapshot restore failed", \
     "restoring the device state failed", \
     "restore only a backup of the same process and devices; read the log") \
  XX(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 507910, "host memory already registered", \
     "the host range overlaps a range registered before", \
     "register each range once; unregister (aclrtHostUnregister) before registering again") \
  XX(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, 507911, "host memory not registered", \
     "the host range was never registered, or was already unregistered", \
     "register it with aclrtHostRegister first") \
  XX(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, 507912, "a snapshot callback failed", \
     "a callback registered with aclrtSnapShotCallbackRegister returned an error", \
     "check the callback's return value") \
  XX(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, 507913, "registering a snapshot callback failed", \
     "the callback or its stage is invalid, or already registered", \
     "check the arguments of aclrtSnapShotCallbackRegister") \
  XX(ACL_ERROR_RT_L3_PORT_ERROR, 507914, "L3 port error", \
     "a port of the interconnect failed; never produced by openacl's simulated device", \
     "on hardware, check the interconnect") \
  XX(ACL_ERROR_RT_CCU_TIMEOUT, 507915, "CCU timed out", \
     "the collective communication unit did not finish in time", \
     "check the peers; raise the timeout") \
  XX(ACL_ERROR_RT_CCU_EXCEPTION, 507916, "CCU exception", \
     "the collective communication unit failed", \
     "check the peers and the log") \
  /* Graph engine codes (error_codes/ge_error_codes.h), returned by model and operator calls. */ \
  XX(ACL_ERROR_GE_PARAM_INVALID, 145000, "model engine: invalid parameter", \
     "a model or operator API received a NULL pointer, a bad index or a value it does not accept", \
     "read aclGetRecentErrMsg for the argument; check indexes against aclmdlGetNumInputs / " \
     "aclmdlGetNumOutputs") \
  XX(ACL_ERROR_GE_EXEC_NOT_INIT, 145001, "model engine not initialised", \
     "a model API was called before aclInit, or after aclFinalize", \
     "call aclInit (and aclrtSetDevice) before loading models") \
  XX(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, 145002, "invalid model path", \
     "the model file does not exist or cannot be read", \
     "check the path (relative to the current directory) and its permissions") \
  XX(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, 145003, "invalid model id", \
     "the id was not returned by a model load, or the model was unloaded", \
     "use the id a successful aclmdlLoad* call wrote") \
  XX(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, 145006, "invalid model data size", \
     "the size given for the model in memory is wrong, or the file is truncated", \
     "pass the model's exact byte size; check that the file was copied completely") \
  XX(ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID, 145007, "invalid model memory address", \
     "the work or weight memory passed to a *WithMem load is NULL or too small", \
     "allocate the sizes reported by aclmdlQuerySize and pass those buffers") \
  XX(ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID, 145008, "invalid model queue id", \
     "a queue id passed to a *WithQ load does not exist", \
     "create the queues first and pass their ids") \
  XX(ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED, 145009, "model loaded twice", \
     "the same model was loaded into the same place again", \
     "unload it first, or keep using the loaded id") \
  XX(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID, 145011, "invalid dynamic input address", \
     "the buffer of the dynamic-shape input is NULL or too small", \
     "add a buffer for the input named ACL_DYNAMIC_TENSOR_NAME of at least its input size") \
  XX(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, 145012, "invalid dynamic input length", \
     "the size of the dynamic-shape input buffer is wrong", \
     "use aclmdlGetInputSizeByIndex for that input's size") \
  XX(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, 145013, "invalid dynamic batch size", \
     "the batch size, resolution or dims set is not one of the model's compiled choices", \
     "pick a value from aclmdlGetDynamicBatch / aclmdlGetDynamicHW / aclmdlGetInputDynamicDims") \
  XX(ACL_ERROR_GE_AIPP_BATCH_EMPTY, 145014, "AIPP batch empty", \
     "the AIPP configuration has a batch size of 0", \
     "create the AIPP set with aclmdlCreateAIPP(batchSize) and batchSize above 0") \
  XX(ACL_ERROR_GE_AIPP_NOT_EXIST, 145015, "no AIPP configuration", \
     "the model input has no AIPP (image pre-processing) configuration", \
     "query AIPP only for inputs that have it (aclmdlGetAippType)") \
  XX(ACL_ERROR_GE_AIPP_MODE_INVALID, 145016, "invalid AIPP mode", \
     "static AIPP calls were used on a dynamic AIPP input, or the reverse", \
     "check the input's AIPP type with aclmdlGetAippType") \
  XX(ACL_ERROR_GE_OP_TASK_TYPE_INVALID, 145017, "invalid operator task type", \
     "the operator's task type is not supported", \
     "check the operator; read the log") \
  XX(ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID, 145018, "invalid operator kernel type", \
     "the operator's kernel type is not supported", \
     "check the operator; read the log") \
  XX(ACL_ERROR_GE_PLGMGR_PATH_INVALID, 145019, "invalid plug-in path", \
     "the path of an operator or engine plug-in is wrong", \
     "check ASCEND_OPP_PATH and the plug-in directories named in the message") \
  XX(ACL_ERROR_GE_FORMAT_INVALID, 145020, "invalid format", \
     "a tensor format is not supported or does not match the model", \
     "give the format the model expects (see aclmdlGetInputFormat)") \
  XX(ACL_ERROR_GE_SHAPE_INVALID, 145021, "invalid shape", \
     "a tensor shape does not match the model, or a dimension is out of range", \
     "give the shape the model expects (see aclmdlGetInputDims)") \
  XX(ACL_ERROR_GE_DATATYPE_INVALID, 145022, "invalid data type", \
     "a tensor's data type does not match the model", \
     "give the data type the model expects (see aclmdlGetInputDataType)") \
  XX(ACL_ERROR_GE_MEMORY_ALLOCATION, 245000, "model engine memory allocation failed", \
     "there was not enough memory to load or run the model", \
     "free memory, unload other models, or use a smaller batch") \
  XX(ACL_ERROR_GE_MEMORY_OPERATE_FAILED, 245001, "model engine memory operation failed", \
     "copying or setting host memory for the model failed", \
     "check the sizes of the input and output buffers; read the log") \
  XX(ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED, 245002, "model engine device memory operation failed", \
     "copying or setting device memory for the model failed", \
     "check that input and output buffers are device memory of the right size") \
  XX(ACL_ERROR_GE_SUBHEALTHY, 345102, "the device is sub-healthy", \
     "the device works but reports a degraded state; not produced by openacl's simulated device", \
     "on hardware, check the device's health and plan maintenance") \
  XX(ACL_ERROR_GE_USER_RAISE_EXCEPTION, 345103, "exception raised by the user", \
     "the model's execution stopped on an exception raised by user code", \
     "check the user code or callback that raised it") \
  XX(ACL_ERROR_GE_DATA_NOT_ALIGNED, 345104, "data not aligned", \
     "a model input or output buffer is not suitably aligned", \
     "use buffers from aclrtMalloc, or offsets that keep 64-byte alignment") \
  XX(ACL_ERROR_GE_INTERNAL_ERROR, 545000, "model engine internal error", \
     "an unexpected condition inside the model layer", \
     "read aclGetRecentErrMsg and the log; report it with the model if it persists") \
  XX(ACL_ERROR_GE_LOAD_MODEL, 545001, "loading the model failed", \
     "the model could not be built or loaded (unsupported operator, bad weights or not enough memory)", \
     "read aclGetRecentErrMsg for the failing node; check the model with an ONNX checker") \
  XX(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, 545002, "loading the model graph failed", \
     "the graph part of the model file is invalid", \
     "re-export the model") \
  XX(ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED, 545003, "loading the model weights failed", \
     "the weights are invalid, missing (external weight files), or do not fit in memory", \
     "check that external weight files sit next to the model; re-export the model") \
  XX(ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED, 545004, "loading the model's tasks failed", \
     "the model's tasks could not be created", \
     "read the log for the failing node; re-export the model") \
  XX(ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED, 545005, "loading the model's kernels failed", \
     "a kernel the model needs is missing or invalid", \
     "read the log for the missing kernel; check that the operator is supported") \
  XX(ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA, 545006, "releasing model data failed", \
     "freeing the model's memory failed during unload", \
     "read the log; report it if it persists") \
  XX(ACL_ERROR_GE_COMMAND_HANDLE, 545007, "model command failed", \
     "an internal model command could not be handled", \
     "read the log; report it if it persists") \
  XX(ACL_ERROR_GE_GET_TENSOR_INFO, 545008, "reading tensor information failed", \
     "the model's input or output description could not be read", \
     "check the index and the model; read the log") \
  XX(ACL_ERROR_GE_UNLOAD_MODEL, 545009, "unloading the model failed", \
     "the model is still running or its resources could not be released", \
     "synchronise the streams the model runs on, then unload it") \
  XX(ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT, 545601, "model execution timed out", \
     "the model did not finish within the configured timeout", \
     "raise the timeout (ACL_MDL_STREAM_SYNC_TIMEOUT); check for blocked inputs") \
  XX(ACL_ERROR_GE_REDEPLOYING, 545602, "the model is being redeployed", \
     "the model is being redeployed after a failure; not produced by openacl", \
     "wait and retry") \
  /* aclnn status codes (aclnn/opdev/op_errno.h): 161xxx the caller's error, 361xxx a runtime \
   * failure, 561xxx internal faults.  The operators say in aclGetRecentErrMsg which parameter \
   * and rule failed. */ \
  XX(ACLNN_SUCCESS, 0, "success (the aclnn operators' name for ACL_SUCCESS)", \
     "the call did what was asked", \
     "nothing to do") \
  XX(ACLNN_ERR_PARAM_NULLPTR, 161001, "a required pointer argument of an aclnn call is NULL", \
     "a tensor, scalar, workspaceSize or executor pointer was not given, or a workspace was needed and " \
     "none was passed", \
     "pass every parameter the operator's reference marks as required (only ...Optional ones may be NULL)") \
  XX(ACLNN_ERR_PARAM_INVALID, 161002, "an aclnn argument check failed", \
     "a data type the operator does not take, types without a common type or an output type the result " \
     "cannot be cast to, shapes that do not broadcast or an output of the wrong shape, more than 8 dims, " \
     "tensor memory that is not device memory, or an executor that already ran", \
     "read aclGetRecentErrMsg: it names the parameter and the rule; check the operator's dtype and shape " \
     "rules in docs/aclnn.md") \
  XX(ACLNN_ERR_RUNTIME_ERROR, 361001, "a runtime call inside an aclnn operator failed", \
     "the stream could not take the operator: no current context (aclrtSetDevice not called), a stream of " \
     "another context or one destroyed, or host memory ran out", \
     "read the message before this one in aclGetRecentErrMsg; call aclrtSetDevice first and pass a live " \
     "stream of the current context") \
  XX(ACLNN_ERR_INNER, 561000, "an internal aclnn error", \
     "openacl ran out of host memory or met a state it does not expect", \
     "read the log; free host memory; report it with the message if it persists") \
  XX(ACLNN_ERR_INNER_INFERSHAPE_ERROR, 561001, "an aclnn operator could not infer its output shape", \
     "the inputs' shapes do not fit the operator", \
     "check the shapes against the operator's reference") \
  XX(ACLNN_ERR_INNER_TILING_ERROR, 561002, "an aclnn operator could not split its work (tiling)", \
     "the vendor's generated operators also report bad parameters this way; openacl does not return it", \
     "check the parameters against the operator's reference") \
  XX(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, 561003, "no kernel was found for an aclnn operator", \
     "the operator has no kernel for these types on this device; openacl reports unsupported types with " \
     "ACLNN_ERR_PARAM_INVALID instead", \
     "use a data type the operator takes (docs/aclnn.md)") \
  XX(ACLNN_ERR_INNER_CREATE_EXECUTOR, 561101, "the aclnn executor could not be made", \
     "host memory ran out in aclnnXxxGetWorkspaceSize", \
     "free host memory and call aclnnXxxGetWorkspaceSize again") \
  XX(ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR, 561102, "an aclnn operator did not hand its executor out", \
     "an internal fault of the operator's first phase; not produced by openacl", \
     "report it") \
  XX(ACLNN_ERR_INNER_NULLPTR, 561103, "an internal NULL pointer, or a NULL executor or tensor given to the " \
     "executor functions", \
     "aclSetAclOpExecutorRepeatable, aclDestroyAclOpExecutor or an aclSet...TensorAddr call got a NULL " \
     "executor or tensor", \
     "pass the executor aclnnXxxGetWorkspaceSize returned, and a live tensor") \
  XX(ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE, 561104, "an operator's attribute information has the wrong size", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_KEY_CONFLICT, 561105, "two operator cache keys conflict", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_KEY_CONFILICT, 561105, "two operator cache keys conflict (the misspelt, deprecated name of ACLNN_ERR_INNER_KEY_CONFLICT)", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_INVALID_IMPL_MODE, 561106, "the implementation mode is invalid", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND, 561107, "the operator package path was not found", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_LOAD_JSON_FAILED, 561108, "an operator information JSON file could not be loaded", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_JSON_VALUE_NOT_FOUND, 561109, "a value is missing from an operator information JSON file", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_JSON_FORMAT_INVALID, 561110, "an operator information JSON file is malformed", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_JSON_DTYPE_INVALID, 561111, "an operator information JSON file names an invalid data type", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND, 561112, "the operator kernel package was not found", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_OP_FILE_INVALID, 561113, "an operator file is invalid", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_ATTR_NUM_OUT_OF_BOUND, 561114, "an operator has too many attributes", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_ATTR_LEN_NOT_ENOUGH, 561115, "an operator attribute is too short", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_INPUT_NUM_IN_JSON_TOO_LARGE, 561116, "an operator information JSON file lists too many inputs", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_INPUT_JSON_IS_NULL, 561117, "an operator information JSON input is empty", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID, 561118, "a static kernel's workspace is invalid", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it") \
  XX(ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID, 561119, "a static kernel's block count is invalid", \
     "a failure of the vendor's operator packages or kernel bookkeeping; openacl does not produce it", \
     "report it if you see it")

#endif
