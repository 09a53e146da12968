# The tool overhead benchmark (bench/tool/run.sh): `openacl infer --loop N`
# against bench_tool_loop, the same loop written directly against the library.
add_executable(bench_tool_loop ${CMAKE_CURRENT_LIST_DIR}/bench_tool_loop.c)
target_link_libraries(bench_tool_loop PRIVATE ascendcl)
target_compile_definitions(bench_tool_loop PRIVATE _GNU_SOURCE)
