# Virtual memory management and shareable physical-memory handles
# (api/vmm/..., api/vmm_share/...; docs/processes.md "Virtual memory and
# shareable handles").  vmm.c is one process: every test runs under the
# default protection mechanism (api/vmm/<test>) and under the alias and off
# mechanisms (api/vmm/alias/<test>, api/vmm/off/<test>), since mapped
# memory must be device memory under each.  vmm_share.c is several
# processes: vmm_proc.c is the other one (fork+exec), driven through pipes.
# The model test's ONNX file is written with model_helpers.c.
openacl_test(api_vmm GROUP api/vmm SOURCES ${CMAKE_CURRENT_LIST_DIR}/vmm.c LIBS PkgConfig::PROTOBUFC LABELS threads)
target_sources(api_vmm PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/model_helpers.c)
target_include_directories(api_vmm PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_vmm openacl_objects openacl_memory_kernels)
target_compile_definitions(api_vmm PRIVATE OPENACL_MEMORY_KERNELS="$<TARGET_FILE:openacl_memory_kernels>")
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/vmm.c openacl_vmm_lines REGEX "^TEST\\([A-Za-z0-9_]+\\)")
foreach(line ${openacl_vmm_lines})
  string(REGEX REPLACE "^TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
  foreach(mech alias off)
    add_test(NAME api/vmm/${mech}/${name} COMMAND api_vmm ${name})
    set_tests_properties(api/vmm/${mech}/${name} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
      ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_MEMORY_PROTECTION=${mech}")
  endforeach()
endforeach()

add_executable(api_vmm_proc ${CMAKE_CURRENT_LIST_DIR}/vmm_proc.c)
target_include_directories(api_vmm_proc PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(api_vmm_proc PRIVATE ascendcl)
openacl_test(api_vmm_share GROUP api/vmm_share SOURCES ${CMAKE_CURRENT_LIST_DIR}/vmm_share.c LABELS threads)
target_compile_definitions(api_vmm_share PRIVATE OPENACL_VMM_PROC="$<TARGET_FILE:api_vmm_proc>")
add_dependencies(api_vmm_share api_vmm_proc)
