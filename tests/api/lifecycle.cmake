openacl_test(api_lifecycle GROUP api/lifecycle SOURCES ${CMAKE_CURRENT_LIST_DIR}/lifecycle.c LABELS threads)
