# Task graphs (api/graph/*, docs/graphs.md): single-stream capture and
# replay of aclmdlRI, capture modes, error codes, names, ids, callbacks,
# introspection and the JSON dump.  Uses the kernels of kernel.cmake.
openacl_test(api_graph GROUP api/graph SOURCES ${CMAKE_CURRENT_LIST_DIR}/graph.c LABELS threads)
target_compile_definitions(api_graph PRIVATE OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>")
add_dependencies(api_graph openacl_test_kernels)
# Several streams: cross-stream capture, EXTERNAL events, build mode with
# switches and labels, conditional tasks.
openacl_test(api_graph_multi GROUP api/graph_multi SOURCES ${CMAKE_CURRENT_LIST_DIR}/graph_multi.c LABELS threads)
# Changing a recorded RI: task groups and updates, task parameters, aborts.
openacl_test(api_graph_update GROUP api/graph_update SOURCES ${CMAKE_CURRENT_LIST_DIR}/graph_update.c LABELS threads)
target_compile_definitions(api_graph_update PRIVATE OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>")
add_dependencies(api_graph_update openacl_test_kernels)
