# The process log through the public API (aclInit, aclAppLog, openaclGetLogFilePath).
openacl_test(api_log GROUP api/log SOURCES ${CMAKE_CURRENT_LIST_DIR}/log.c LABELS threads)
