# One device shared by several processes (api/ipc/*, docs/processes.md):
# IPC memory across processes, whitelists, forged keys, kill -9 of an
# exporter, capacity shared by five processes, eight processes under load
# (one of them killed).  ipc_proc.c is the other process (fork+exec), driven
# through pipes; ipc_load.c is its share of the load.
add_executable(api_ipc_proc ${CMAKE_CURRENT_LIST_DIR}/ipc_proc.c ${CMAKE_CURRENT_LIST_DIR}/ipc_load.c)
target_include_directories(api_ipc_proc PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(api_ipc_proc PRIVATE ascendcl)
openacl_test(api_ipc GROUP api/ipc SOURCES ${CMAKE_CURRENT_LIST_DIR}/ipc.c LABELS threads)
target_compile_definitions(api_ipc PRIVATE OPENACL_IPC_PROC="$<TARGET_FILE:api_ipc_proc>")
add_dependencies(api_ipc api_ipc_proc)

# IPC notifies and IPC events between processes (api/ipc_signal/*);
# ipc_signal_proc.c is the other process.
add_executable(api_ipc_signal_proc ${CMAKE_CURRENT_LIST_DIR}/ipc_signal_proc.c)
target_include_directories(api_ipc_signal_proc PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(api_ipc_signal_proc PRIVATE ascendcl)
openacl_test(api_ipc_signal GROUP api/ipc_signal SOURCES ${CMAKE_CURRENT_LIST_DIR}/ipc_signal.c LABELS threads)
target_compile_definitions(api_ipc_signal PRIVATE OPENACL_IPC_SIGNAL_PROC="$<TARGET_FILE:api_ipc_signal_proc>")
add_dependencies(api_ipc_signal api_ipc_signal_proc)
