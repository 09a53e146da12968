# Host code cannot touch device memory, under every protection mechanism
# (api/memory_protection/...).  Each test runs once per mechanism:
#   api/memory_protection/<test>          OPENACL_MEMORY_PROTECTION unset (auto: the best here)
#   api/memory_protection/pkeys/<test>    protection keys (passes, saying so, where the CPU has none)
#   api/memory_protection/alias/<test>    the double mapping (any Linux)
#   api/memory_protection/off/<test>      no trap: host accesses succeed, everything else works
# so every ctest run (scripts/test.sh: gcc, ASan, TSan for the threaded ones,
# clang) covers each mechanism the machine offers.  The kernels are
# memory_kernels.c (a shared object built here) and the test kernels of
# kernel.cmake; the models are written with model_helpers.c.
add_library(openacl_memory_kernels SHARED ${CMAKE_CURRENT_LIST_DIR}/memory_kernels.c)
target_include_directories(openacl_memory_kernels PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(openacl_memory_kernels PROPERTIES C_VISIBILITY_PRESET hidden)

openacl_test(api_memory_protection GROUP api/memory_protection SOURCES ${CMAKE_CURRENT_LIST_DIR}/memory_protection.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_memory_protection PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/model_helpers.c)
target_include_directories(api_memory_protection PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_memory_protection openacl_objects openacl_test_kernels openacl_memory_kernels)
target_compile_definitions(api_memory_protection PRIVATE
  OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>"
  OPENACL_MEMORY_KERNELS="$<TARGET_FILE:openacl_memory_kernels>")

file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/memory_protection.c openacl_mp_lines REGEX "^TEST\\([A-Za-z0-9_]+\\)")
foreach(line ${openacl_mp_lines})
  string(REGEX REPLACE "^TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
  foreach(mech pkeys alias off)
    add_test(NAME api/memory_protection/${mech}/${name} COMMAND api_memory_protection ${name})
    set_tests_properties(api/memory_protection/${mech}/${name} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
      ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;OPENACL_MEMORY_PROTECTION=${mech}"
      LABELS "threads")
  endforeach()
endforeach()
