# The Python binding benchmark (bench/python/run.sh): bench_call_overhead is the
# C side, the same calls that run.py makes through `import acl` and openacl.Session.
add_executable(bench_call_overhead ${CMAKE_CURRENT_LIST_DIR}/call_overhead.c)
target_link_libraries(bench_call_overhead PRIVATE ascendcl)
target_compile_definitions(bench_call_overhead PRIVATE _GNU_SOURCE)
