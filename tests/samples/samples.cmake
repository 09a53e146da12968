# Vendor-style sample programs (samples/*): our own small programs written
# like the vendor's example/5_performance samples (profiling/0-3, adump/1-3),
# each a plain main() on the public API, run by run_sample.sh in a fresh
# directory, which checks what the vendor's sample prints and the files it
# produces (reference prof-dump.md §6, ipc-vmm-graphs-tdt §5.7).
set(openacl_samples prof_0_create_config prof_1_msproftx prof_2_subscribe_model
    adump_1_callback adump_2_model_dump_config adump_3_save_exception_info label_0_simple_label)
foreach(s ${openacl_samples})
  add_executable(sample_${s} ${CMAKE_CURRENT_LIST_DIR}/${s}.c)
  target_link_libraries(sample_${s} PRIVATE ascendcl Threads::Threads ${CMAKE_DL_LIBS})
  target_compile_definitions(sample_${s} PRIVATE _GNU_SOURCE)
  add_test(NAME samples/${s} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ${s} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(samples/${s} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_${s}"
    LABELS threads)
endforeach()

# Two-process samples (the vendor's proc_a / proc_b, started at once by
# run_sample.sh): sample_<name>_proc_a and _proc_b, one test samples/<name>.
foreach(s ipcevent_0)
  foreach(side proc_a proc_b)
    add_executable(sample_${s}_${side} ${CMAKE_CURRENT_LIST_DIR}/${s}_${side}.c)
    target_link_libraries(sample_${s}_${side} PRIVATE ascendcl)
    target_compile_definitions(sample_${s}_${side} PRIVATE _GNU_SOURCE)
  endforeach()
  add_test(NAME samples/${s} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ${s} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(samples/${s} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_${s}"
    LABELS threads)
endforeach()

# The vendor's two IPC notify samples share one source per side: WITH_PID
# says whether B sends its pid for the whitelist.  They use devices 2 and 3.
foreach(s notify_0_withpid notify_1_withoutpid)
  foreach(side proc_a proc_b)
    add_executable(sample_${s}_${side} ${CMAKE_CURRENT_LIST_DIR}/notify_${side}.c)
    target_link_libraries(sample_${s}_${side} PRIVATE ascendcl)
    target_compile_definitions(sample_${s}_${side} PRIVATE _GNU_SOURCE
      WITH_PID=$<IF:$<STREQUAL:${s},notify_0_withpid>,1,0>)
  endforeach()
  add_test(NAME samples/${s} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ${s} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(samples/${s} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_${s};OPENACL_DEVICE_COUNT=4"
    LABELS threads)
endforeach()

# The vendor's 1_ipcevent_multi_device: ipcevent_0's programs, one producer on
# device 0 and two consumers on devices 1 and 2.
add_test(NAME samples/ipcevent_1_multi_device
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ipcevent_1_multi_device ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(samples/ipcevent_1_multi_device PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
  ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_ipcevent_1;OPENACL_DEVICE_COUNT=3"
  LABELS threads)

# The two-process samples of example/1_basic_features/memory (reference
# ipc-vmm-graphs-tdt §4.3): 7_physical_memory_sharing_withpid and
# 8_physical_memory_sharing_withoutpid, one proc_a and one proc_b source
# built once per sample; run_sample.sh starts both at once, as run.sh does.
foreach(s memory_7_physical_memory_sharing_withpid memory_8_physical_memory_sharing_withoutpid)
  foreach(p proc_a proc_b)
    add_executable(sample_${s}_${p} ${CMAKE_CURRENT_LIST_DIR}/memory_physical_sharing_${p}.c)
    target_link_libraries(sample_${s}_${p} PRIVATE ascendcl)
    target_compile_definitions(sample_${s}_${p} PRIVATE _GNU_SOURCE)
  endforeach()
  add_test(NAME samples/${s} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ${s} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(samples/${s} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_${s}"
    LABELS threads)
endforeach()
foreach(p proc_a proc_b)
  target_compile_definitions(sample_memory_8_physical_memory_sharing_withoutpid_${p} PRIVATE SAMPLE_WITH_PID=0)
endforeach()

# The IPC memory samples (issue 13, reference ipc-vmm-graphs-tdt §1.3): two
# processes each, A and B, started at once by run_sample.sh, which compares
# A's "Source data:" with B's "Destination data:" as the vendor's run.sh
# does.  The kernel they launch where the vendor's run AscendC kernels:
# ipc_value_kernel.c.
add_library(sample_ipc_value_kernel SHARED ${CMAKE_CURRENT_LIST_DIR}/ipc_value_kernel.c)
target_include_directories(sample_ipc_value_kernel PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(sample_ipc_value_kernel PROPERTIES C_VISIBILITY_PRESET hidden)
foreach(s ipc_mem_10_withpid ipc_mem_11_withoutpid)
  foreach(p a b)
    add_executable(sample_${s}_${p} ${CMAKE_CURRENT_LIST_DIR}/ipc_mem_proc_${p}.c
      ${CMAKE_CURRENT_LIST_DIR}/ipc_sample_common.c)
    target_link_libraries(sample_${s}_${p} PRIVATE ascendcl)
    target_compile_definitions(sample_${s}_${p} PRIVATE _GNU_SOURCE
      WITH_PID=$<IF:$<STREQUAL:${s},ipc_mem_10_withpid>,1,0>)
    add_dependencies(sample_${s}_${p} sample_ipc_value_kernel)
  endforeach()
  add_test(NAME samples/${s} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ${s} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(samples/${s} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_${s}"
    LABELS threads)
endforeach()

# The vendor's example/0_quickstart/0_hello_cann: aclnnAdd in two phases,
# linked as the vendor's CMakeLists.txt links it: the runtime library with
# -lnnopbase and -lopapi (symlinks to libascendcl.so, CMakeLists.txt).
add_executable(sample_aclnn_0_hello_cann ${CMAKE_CURRENT_LIST_DIR}/aclnn_0_hello_cann.c)
target_include_directories(sample_aclnn_0_hello_cann PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_directories(sample_aclnn_0_hello_cann PRIVATE $<TARGET_FILE_DIR:ascendcl>)
target_link_libraries(sample_aclnn_0_hello_cann PRIVATE acl_rt nnopbase opapi)
set_target_properties(sample_aclnn_0_hello_cann PROPERTIES BUILD_RPATH $<TARGET_FILE_DIR:ascendcl>)
add_dependencies(sample_aclnn_0_hello_cann ascendcl)
add_test(NAME samples/aclnn_0_hello_cann
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh aclnn_0_hello_cann ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(samples/aclnn_0_hello_cann PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
  ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_aclnn_0"
  LABELS threads)

# The samples that compute with aclnn operators, linked like 0_hello_cann:
# the task-graph ones (example/2_advanced_features/model_ri/0..4: aclnnAdd
# and aclnnMul captured into, or built into, model runtime instances) and
# profiling/3_mstx_with_domain.
foreach(s model_ri_0_simple_model model_ri_1_model_update model_ri_2_model_switch model_ri_3_cond_model
    model_ri_4_model_sync_external prof_3_mstx_with_domain)
  add_executable(sample_${s} ${CMAKE_CURRENT_LIST_DIR}/${s}.c)
  target_include_directories(sample_${s} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_link_directories(sample_${s} PRIVATE $<TARGET_FILE_DIR:ascendcl>)
  target_link_libraries(sample_${s} PRIVATE acl_rt nnopbase opapi m)
  target_compile_definitions(sample_${s} PRIVATE _GNU_SOURCE)
  set_target_properties(sample_${s} PROPERTIES BUILD_RPATH $<TARGET_FILE_DIR:ascendcl>)
  add_dependencies(sample_${s} ascendcl)
  add_test(NAME samples/${s} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh ${s} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(samples/${s} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_${s}"
    LABELS threads)
endforeach()

# The sample of the vendor's aclnnCat page: a tensor list joined along dim 0,
# linked like 0_hello_cann.
add_executable(sample_aclnn_cat ${CMAKE_CURRENT_LIST_DIR}/aclnn_cat.c)
target_include_directories(sample_aclnn_cat PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_directories(sample_aclnn_cat PRIVATE $<TARGET_FILE_DIR:ascendcl>)
target_link_libraries(sample_aclnn_cat PRIVATE acl_rt nnopbase opapi)
set_target_properties(sample_aclnn_cat PROPERTIES BUILD_RPATH $<TARGET_FILE_DIR:ascendcl>)
add_dependencies(sample_aclnn_cat ascendcl)
add_test(NAME samples/aclnn_cat COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_sample.sh aclnn_cat ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(samples/aclnn_cat PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
  ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_SHARED_DEVICE_NAME=sample_aclnn_cat"
  LABELS threads)
