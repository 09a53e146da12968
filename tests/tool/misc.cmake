# The `openacl` tool's small commands and its dispatcher, driven as a user
# would by misc.sh: tool/devices/*, tool/explain/*, tool/config/*, tool/prof/*, tool/main/*.
set(OPENACL_TOOL_MISC_CASES
  devices/table devices/processes devices/json devices/visible devices/memory_units devices/backend_null devices/bad_visible
  devices/malformed_visible devices/usage
  explain/code explain/name_forms explain/hex explain/aliases explain/several explain/unknown_code
  explain/unknown_name explain/partly_unknown explain/json explain/list explain/usage
  config/valid config/valid_with_warning config/cases config/key_path config/missing_file config/unreadable
  config/env_applies config/json config/usage
  prof/summary prof/newest prof/not_profile prof/bad_table prof/usage
  main/help main/no_args main/version main/unknown)
foreach(case ${OPENACL_TOOL_MISC_CASES})
  add_test(NAME tool/${case}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/misc.sh $<TARGET_FILE:openacl_tool> ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(tool/${case} PROPERTIES TIMEOUT 60)
endforeach()
