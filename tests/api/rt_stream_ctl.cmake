# Streams and events of rt-breadth.md sections 1 and 2 (api/rt/stream_ctl,
# api/rt/stream_tasks, api/rt/event_flags) and their misuse matrix
# (api/misuse_streams/*).  The test kernels of kernel.cmake (a long kernel to
# stop and abort) come through OPENACL_TEST_KERNELS.
foreach(t stream_ctl stream_tasks event_flags)
  openacl_test(api_rt_${t} GROUP api/rt/${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_${t}.c LABELS threads)
  target_compile_definitions(api_rt_${t} PRIVATE OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>")
  add_dependencies(api_rt_${t} openacl_test_kernels)
endforeach()
target_link_libraries(api_rt_stream_tasks PRIVATE m)

openacl_test(api_misuse_streams GROUP api/misuse_streams SOURCES ${CMAKE_CURRENT_LIST_DIR}/misuse_streams.c
  LABELS threads)
target_compile_definitions(api_misuse_streams PRIVATE OPENACL_TEST_KERNELS="$<TARGET_FILE:openacl_test_kernels>")
add_dependencies(api_misuse_streams openacl_test_kernels)
