# Kernel binaries and launches (api/kernel/*).  The test kernels are a
# shared object built here; the test finds it through OPENACL_TEST_KERNELS.
add_library(openacl_test_kernels SHARED ${CMAKE_CURRENT_LIST_DIR}/kernel_kernels.c)
target_include_directories(openacl_test_kernels PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(openacl_test_kernels PROPERTIES C_VISIBILITY_PRESET hidden)
target_compile_definitions(openacl_test_kernels PRIVATE _GNU_SOURCE)

openacl_test(api_kernel GROUP api/kernel SOURCES ${CMAKE_CURRENT_LIST_DIR}/kernel.c LABELS threads)
target_compile_definitions(api_kernel PRIVATE
  OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>"
  OPENACL_TEST_EXAMPLE_KERNEL="$<TARGET_FILE:vadd_kernel>")
add_dependencies(api_kernel openacl_test_kernels vadd_kernel)

# The README's demo: examples/vector_add with its kernel, end to end.
add_test(NAME api/kernel/example_vector_add
  COMMAND vector_add $<TARGET_FILE:vadd_kernel> 1000003 37)
set_tests_properties(api/kernel/example_vector_add PROPERTIES TIMEOUT 120
  ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs"
  PASS_REGULAR_EXPRESSION "PASSED")
