# The logger's internals: truncation, reconfiguration, flush, fork hooks.
openacl_test(unit_log INTERNAL GROUP unit/log SOURCES ${CMAKE_CURRENT_LIST_DIR}/log.c LABELS threads)
