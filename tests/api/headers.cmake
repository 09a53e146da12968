# The public headers compile as users compile them: C99, C11 and C++11 with
# -pedantic -Werror and no macro defined (tests api/headers/*).  The
# compiler runs at test time, so a header regression fails these tests
# instead of breaking the build.  headers_abi.c pins enum values, constants
# and struct layouts with _Static_assert.
set(openacl_hdr_flags -fsyntax-only -pedantic -Wall -Wextra -Werror -Wshadow -Wundef
    -I${PROJECT_SOURCE_DIR}/include)
set(openacl_hdr_tu ${CMAKE_CURRENT_LIST_DIR}/headers_tu.c)

add_test(NAME api/headers/c99_pedantic
  COMMAND ${CMAKE_C_COMPILER} -std=c99 ${openacl_hdr_flags} -Wstrict-prototypes -Wmissing-prototypes
          ${openacl_hdr_tu})
add_test(NAME api/headers/c11_pedantic
  COMMAND ${CMAKE_C_COMPILER} -std=c11 ${openacl_hdr_flags} -Wstrict-prototypes -Wmissing-prototypes
          ${openacl_hdr_tu})
# With the macros a vendor build may define: export attributes must still compile.
add_test(NAME api/headers/c11_func_visibility
  COMMAND ${CMAKE_C_COMPILER} -std=c11 ${openacl_hdr_flags} -DFUNC_VISIBILITY ${openacl_hdr_tu})
# mstx with MSTX_NO_IMPL: declarations only (the program links libms_tools_ext.so).
add_test(NAME api/headers/c99_mstx_no_impl
  COMMAND ${CMAKE_C_COMPILER} -std=c99 ${openacl_hdr_flags} -Wstrict-prototypes -Wmissing-prototypes
          -DMSTX_NO_IMPL ${openacl_hdr_tu})
add_test(NAME api/headers/abi
  COMMAND ${CMAKE_C_COMPILER} -std=c11 ${openacl_hdr_flags} ${CMAKE_CURRENT_LIST_DIR}/headers_abi.c)

# C++11: the C++ compiler that matches the C compiler, else any.
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  find_program(OPENACL_HEADERS_CXX NAMES clang++ c++ g++)
else()
  find_program(OPENACL_HEADERS_CXX NAMES g++ c++ clang++)
endif()
if(OPENACL_HEADERS_CXX)
  add_test(NAME api/headers/cxx11_pedantic
    COMMAND ${OPENACL_HEADERS_CXX} -x c++ -std=c++11 ${openacl_hdr_flags} ${openacl_hdr_tu})
else()
  message(STATUS "openacl: no C++ compiler found; api/headers/cxx11_pedantic is not registered")
endif()

# The other compiler family warns about other things (clang: GNU extensions
# in macros); check with it too when it is installed.
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  find_program(OPENACL_HEADERS_OTHER_CC NAMES gcc)
else()
  find_program(OPENACL_HEADERS_OTHER_CC NAMES clang)
endif()
if(OPENACL_HEADERS_OTHER_CC)
  add_test(NAME api/headers/other_cc_c99_pedantic
    COMMAND ${OPENACL_HEADERS_OTHER_CC} -std=c99 ${openacl_hdr_flags} -Wstrict-prototypes
            -Wmissing-prototypes ${openacl_hdr_tu})
endif()

set_tests_properties(api/headers/c99_pedantic api/headers/c11_pedantic api/headers/c11_func_visibility
  api/headers/c99_mstx_no_impl api/headers/abi PROPERTIES TIMEOUT 60)
