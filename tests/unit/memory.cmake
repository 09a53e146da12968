# The device-memory sub-allocator on its own (unit/mem_alloc/*).  It is a
# plain data structure with no dependency, so the test compiles its source
# directly instead of linking the library's objects.
add_executable(unit_mem_alloc ${CMAKE_CURRENT_LIST_DIR}/mem_alloc.c ${PROJECT_SOURCE_DIR}/src/rt/mem_alloc.c
  ${PROJECT_SOURCE_DIR}/tests/harness/main.c)
target_include_directories(unit_mem_alloc PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(unit_mem_alloc PRIVATE _GNU_SOURCE)
target_link_libraries(unit_mem_alloc PRIVATE openacl_harness)
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/mem_alloc.c openacl_mem_alloc_tests REGEX "^TEST\\([A-Za-z0-9_]+\\)")
foreach(line ${openacl_mem_alloc_tests})
  string(REGEX REPLACE "^TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
  add_test(NAME unit/mem_alloc/${name} COMMAND unit_mem_alloc ${name})
  set_tests_properties(unit/mem_alloc/${name} PROPERTIES TIMEOUT ${OPENACL_TEST_TIMEOUT})
endforeach()
