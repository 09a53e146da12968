# The model benchmark (bench/models/run.sh): openacl's side and the FMA peak.
# The peers (PyTorch, OpenCV DNN) are Python scripts next to run.sh.
add_executable(bench_model ${CMAKE_CURRENT_LIST_DIR}/bench_model.c)
target_link_libraries(bench_model PRIVATE ascendcl)
target_compile_definitions(bench_model PRIVATE _GNU_SOURCE)

add_executable(fma_peak ${CMAKE_CURRENT_LIST_DIR}/fma_peak.c)
target_link_libraries(fma_peak PRIVATE Threads::Threads)
target_compile_definitions(fma_peak PRIVATE _GNU_SOURCE)
