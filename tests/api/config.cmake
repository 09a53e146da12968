# acl.json through the public API: every case of tests/data/config/cases.tsv
# (api/config/all_cases runs them all), openaclCheckConfigFile reports, and
# the environment's path priorities.  Each case is also its own ctest entry,
# api/config/case/<file>, so a failure names the file.
openacl_test(api_config GROUP api/config SOURCES ${CMAKE_CURRENT_LIST_DIR}/config.c)

set(OPENACL_CONFIG_CASES ${PROJECT_SOURCE_DIR}/tests/data/config/cases.tsv)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${OPENACL_CONFIG_CASES})
# Keep only the first column before making a list: fragments hold ';' and '['.
file(READ ${OPENACL_CONFIG_CASES} openacl_config_text)
string(REGEX REPLACE "\t[^\n]*" "" openacl_config_text "${openacl_config_text}")
string(REGEX REPLACE "#[^\n]*" "" openacl_config_text "${openacl_config_text}")
string(REPLACE "\n" ";" openacl_config_files "${openacl_config_text}")
foreach(case_file ${openacl_config_files})
  add_test(NAME api/config/case/${case_file} COMMAND api_config one_case)
  set_tests_properties(api/config/case/${case_file} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT}
    ENVIRONMENT "OPENACL_CONFIG_CASE=${case_file};ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs")
endforeach()
