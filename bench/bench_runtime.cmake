# bench_runtime: the empty kernel it launches and its OpenCL peer (PoCL).
# Included from bench/CMakeLists.txt after the bench_* targets exist.

# The empty kernel, a shared object loaded with aclrtBinaryLoadFromFile.
add_library(empty_kernel MODULE ${CMAKE_CURRENT_SOURCE_DIR}/kernels/empty_kernel.c)
set_target_properties(empty_kernel PROPERTIES PREFIX "" C_VISIBILITY_PRESET default)
target_include_directories(empty_kernel PRIVATE ${PROJECT_SOURCE_DIR}/include)
add_dependencies(bench_runtime empty_kernel)
target_compile_definitions(bench_runtime PRIVATE
  OPENACL_BENCH_EMPTY_KERNEL="$<TARGET_FILE:empty_kernel>")

# The peer: any OpenCL implementation through the ICD loader (PoCL on Debian:
# scripts/install-deps.sh --bench).  Without it the peer column says n/a.
find_package(OpenCL QUIET)
if(OpenCL_FOUND)
  target_link_libraries(bench_runtime PRIVATE OpenCL::OpenCL)
  target_compile_definitions(bench_runtime PRIVATE OPENACL_BENCH_OPENCL=1)
else()
  message(STATUS "bench_runtime: OpenCL not found, the PoCL peer is left out")
endif()

# bench_graph replays empty kernel launches too.
add_dependencies(bench_graph empty_kernel)
target_compile_definitions(bench_graph PRIVATE OPENACL_BENCH_EMPTY_KERNEL="$<TARGET_FILE:empty_kernel>")
