# The acl.json reader's internals: every case of tests/data/config/cases.tsv,
# file limits, environment path priorities, writability checks, diffs.
openacl_test(unit_config INTERNAL GROUP unit/config SOURCES ${CMAKE_CURRENT_LIST_DIR}/config.c LIBS m)
