openacl_test(api_errmsg GROUP api/errmsg SOURCES ${CMAKE_CURRENT_LIST_DIR}/errmsg.c LABELS threads)
openacl_test(api_utils GROUP api/utils SOURCES ${CMAKE_CURRENT_LIST_DIR}/utils.c LIBS m)
openacl_test(api_env GROUP api/env SOURCES ${CMAKE_CURRENT_LIST_DIR}/env.c)
openacl_test(api_oom GROUP api/oom SOURCES ${CMAKE_CURRENT_LIST_DIR}/oom.c)
