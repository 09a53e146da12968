# The openacl error-table functions (api/errors/*) and the cross-check of the
# table against every error-code constant in include/acl and include/aclnn
# (api/errors_table/*).  The constants are extracted at build time by
# errors_extract.sh, so adding a code to a header without a table entry (or
# the reverse) fails api/errors_table/table_matches_headers.
openacl_test(api_errors GROUP api/errors SOURCES ${CMAKE_CURRENT_LIST_DIR}/errors.c)

file(GLOB_RECURSE openacl_errors_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/acl/*.h
  ${PROJECT_SOURCE_DIR}/include/aclnn/*.h)
set(openacl_errors_generated ${CMAKE_CURRENT_BINARY_DIR}/errors_header_codes.c)
add_custom_command(OUTPUT ${openacl_errors_generated}
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/errors_extract.sh ${PROJECT_SOURCE_DIR}/include ${openacl_errors_generated}
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/errors_extract.sh ${openacl_errors_headers}
  COMMENT "Extracting the error-code constants of include/acl and include/aclnn"
  VERBATIM)
openacl_test(api_errors_table GROUP api/errors_table SOURCES ${CMAKE_CURRENT_LIST_DIR}/errors_table.c)
target_sources(api_errors_table PRIVATE ${openacl_errors_generated})
target_include_directories(api_errors_table PRIVATE ${CMAKE_CURRENT_LIST_DIR})
