openacl_test(api_rt_device GROUP api/rt/device SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_device.c LABELS threads)
openacl_test(api_rt_stream GROUP api/rt/stream SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_stream.c LABELS threads)
openacl_test(api_rt_event GROUP api/rt/event SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_event.c LABELS threads)
