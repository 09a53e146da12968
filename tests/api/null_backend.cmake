# The dispatch layer on the null backend (api/null_backend/*): which backend
# hooks the runtime calls (OPENACL_NULL_BACKEND_LOG), in which order and how
# often; ordinary stream, event, memory and callback work on the null
# backend; kernel loading refused with a clear message.  Each test sets
# OPENACL_BACKEND=null itself.
openacl_test(api_null_backend GROUP api/null_backend SOURCES ${CMAKE_CURRENT_LIST_DIR}/null_backend.c LABELS threads)
target_compile_definitions(api_null_backend PRIVATE OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>")
add_dependencies(api_null_backend openacl_test_kernels)
