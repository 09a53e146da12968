# The rest of the vendor's acl_rt.h (issue 10 §2): black-box tests of the
# functions implemented on the simulated device and of the ones that say
# they are not supported (api/rt_rest/*), and the check that
# docs/rt-functions.md matches the headers, the export map and the
# acl__not_supported calls (api/rt_rest/functions_table).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME api/rt_rest/functions_table
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/rt_functions_table.py
            --root ${PROJECT_SOURCE_DIR} --check ${PROJECT_SOURCE_DIR}/docs/rt-functions.md)
  set_tests_properties(api/rt_rest/functions_table PROPERTIES TIMEOUT 60)
else()
  message(STATUS "openacl: no python3; api/rt_rest/functions_table is not registered")
endif()

openacl_test(api_rt_rest_impl GROUP api/rt_rest/impl SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_rest_impl.c LABELS threads)
target_compile_definitions(api_rt_rest_impl PRIVATE
  OPENACL_TEST_EXT_KERNELS="$<TARGET_FILE:openacl_test_ext_kernels>")
add_dependencies(api_rt_rest_impl openacl_test_ext_kernels)
openacl_test(api_rt_rest_unsupported GROUP api/rt_rest/unsupported
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_rest_unsupported.c)

# Device symbols, parameter descriptions, per-binary exception callbacks and
# cache-maintenance descriptors/barriers (api/rt_symbols/*); the kernels are
# a shared object built here (OPENACL_TEST_SYMBOL_KERNELS).
add_library(openacl_test_symbol_kernels SHARED ${CMAKE_CURRENT_LIST_DIR}/rt_symbols_kernels.c)
target_include_directories(openacl_test_symbol_kernels PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(openacl_test_symbol_kernels PROPERTIES C_VISIBILITY_PRESET hidden)
openacl_test(api_rt_symbols GROUP api/rt_symbols SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_symbols.c LABELS threads)
target_compile_definitions(api_rt_symbols PRIVATE
  OPENACL_TEST_SYMBOL_KERNELS="$<TARGET_FILE:openacl_test_symbol_kernels>")
add_dependencies(api_rt_symbols openacl_test_symbol_kernels)

# Notifies and count notifies in one process, and the one-process rules of
# IPC notifies and IPC events (api/rt_notify/*; across processes: api/ipc_signal).
openacl_test(api_rt_notify GROUP api/rt_notify SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_notify.c LABELS threads)
