# bench_hccl: HCCL collectives against plain MPI (docs/performance.md), run
# with mpirun; built when libhccl.so is.
add_executable(bench_hccl ${CMAKE_CURRENT_LIST_DIR}/bench_hccl.c)
target_link_libraries(bench_hccl PRIVATE hccl ascendcl MPI::MPI_C)
target_compile_definitions(bench_hccl PRIVATE _GNU_SOURCE)
