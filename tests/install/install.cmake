# The installed tree is tried by real consumers; sanitizer builds are skipped
# because an uninstrumented consumer cannot load an instrumented library.
if(OPENACL_SANITIZE STREQUAL "")
  add_test(NAME install/consumer_pkgconfig_cmake_aclrt
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_test.sh ${PROJECT_BINARY_DIR})
  set_tests_properties(install/consumer_pkgconfig_cmake_aclrt PROPERTIES TIMEOUT 300)
endif()
