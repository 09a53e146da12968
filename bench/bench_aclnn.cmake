# bench_aclnn: its peer launches the examples' z = x + y kernel
# (examples/kernels/vadd_kernel.c, function "vadd").  Included from
# bench/CMakeLists.txt after the bench_* targets exist.
add_dependencies(bench_aclnn vadd_kernel)
target_compile_definitions(bench_aclnn PRIVATE OPENACL_BENCH_VADD_KERNEL="$<TARGET_FILE:vadd_kernel>")

# bench_aclnn_mm: its peer is PyTorch (bench_aclnn_mm_peer.py under /usr/bin/python3).
target_compile_definitions(bench_aclnn_mm PRIVATE OPENACL_BENCH_MM_PEER="${CMAKE_CURRENT_SOURCE_DIR}/bench_aclnn_mm_peer.py")
