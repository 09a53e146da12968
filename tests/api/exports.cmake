# The exported symbols of libascendcl.so (api/exports/*): exactly the names
# of src/libascendcl.map, and each of them declared in a public header.
set(openacl_exports_args ${CMAKE_NM} $<TARGET_FILE:ascendcl> ${PROJECT_SOURCE_DIR}/src/libascendcl.map
    ${PROJECT_SOURCE_DIR}/include)
add_test(NAME api/exports/match_map
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/exports_check.sh match ${openacl_exports_args})
add_test(NAME api/exports/declared
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/exports_check.sh declared ${openacl_exports_args})
set_tests_properties(api/exports/match_map api/exports/declared PROPERTIES TIMEOUT 60)
