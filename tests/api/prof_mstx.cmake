# mstx bound to openacl's profiler (api/prof_mstx/*, docs/profiling.md "mstx"):
# the inline header, and the same tests with MSTX_NO_IMPL against
# libms_tools_ext.so (api/prof_mstx_lib/*).
openacl_test(api_prof_mstx GROUP api/prof_mstx SOURCES ${CMAKE_CURRENT_LIST_DIR}/prof_mstx.c
  LIBS ${CMAKE_DL_LIBS} LABELS threads)
openacl_test(api_prof_mstx_lib GROUP api/prof_mstx_lib SOURCES ${CMAKE_CURRENT_LIST_DIR}/prof_mstx.c
  LIBS ms_tools_ext LABELS threads)
target_compile_definitions(api_prof_mstx_lib PRIVATE MSTX_NO_IMPL)
