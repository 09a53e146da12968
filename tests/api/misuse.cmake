# The misuse matrix (api/misuse/*): destroyed, foreign, garbage and
# wrong-type handles, NULL arguments, bad device ids, bad memory, callbacks
# and kernels misused, calls before aclInit, after aclFinalize and from a
# thread without a context.  Each case runs in its own forked child; one
# ctest entry per area runs that area's cases.  Uses the test kernels of
# kernel.cmake (included before this file) for the kernel cases.
openacl_test(api_misuse GROUP api/misuse SOURCES ${CMAKE_CURRENT_LIST_DIR}/misuse.c LABELS threads)
target_compile_definitions(api_misuse PRIVATE OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>")
add_dependencies(api_misuse openacl_test_kernels)
