# TDT channels and queues (acl/acl_tdt.h, acl/acl_tdt_queue.h; docs/tdt.md):
# api/tdt/* (items, datasets, channels, the channel samples) and
# api/tdt_queue/* (queues, buffers, routes, the queue samples, and other
# processes: tdt_proc.c is started with fork+exec).  api/tdt/link_vendor_names
# links tdt_link.c the way the vendor's samples do (-lacl_tdt_channel
# -lacl_tdt_queue -lascendcl) and runs it.
openacl_test(api_tdt GROUP api/tdt SOURCES ${CMAKE_CURRENT_LIST_DIR}/tdt.c LABELS threads)

add_executable(api_tdt_proc ${CMAKE_CURRENT_LIST_DIR}/tdt_proc.c)
target_link_libraries(api_tdt_proc PRIVATE ascendcl)
openacl_test(api_tdt_queue GROUP api/tdt_queue SOURCES ${CMAKE_CURRENT_LIST_DIR}/tdt_queue.c LABELS threads)
target_compile_definitions(api_tdt_queue PRIVATE OPENACL_TDT_PROC="$<TARGET_FILE:api_tdt_proc>")
add_dependencies(api_tdt_queue api_tdt_proc)

if(OPENACL_SANITIZE STREQUAL "")
  add_test(NAME api/tdt/link_vendor_names
    COMMAND sh -c "${CMAKE_C_COMPILER} -std=c11 -I$2 -o \"$0/tdt_link\" $3 -L\"$1\" -lacl_tdt_channel -lacl_tdt_queue -lascendcl && LD_LIBRARY_PATH=\"$1\" \"$0/tdt_link\""
            ${CMAKE_CURRENT_BINARY_DIR} $<TARGET_FILE_DIR:ascendcl> ${PROJECT_SOURCE_DIR}/include
            ${CMAKE_CURRENT_LIST_DIR}/tdt_link.c)
  set_tests_properties(api/tdt/link_vendor_names PROPERTIES TIMEOUT 60)
endif()
