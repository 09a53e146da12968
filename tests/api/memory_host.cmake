# Memory host and device share (api/memory_host/*): registered host memory
# and managed memory, their attributes and errors.  Threads register at once.
openacl_test(api_memory_host GROUP api/memory_host SOURCES ${CMAKE_CURRENT_LIST_DIR}/memory_host.c LABELS threads)
