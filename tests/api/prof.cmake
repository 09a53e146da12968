# Profiling through the public API (api/prof/*): aclprof lifecycle order and
# codes, configurations, the PROF_ directory with the vendor's CSV headers,
# the trace JSON checked by prof_trace_check.py (every begin has its end,
# timestamps rise per track, flows paired, operators inside their model
# execution), msproftx markers and nested ranges, model subscription
# records read through a pipe, aclmdlExecute from two threads while profiling,
# unwritable paths and paths with spaces.
openacl_test(api_prof GROUP api/prof SOURCES ${CMAKE_CURRENT_LIST_DIR}/prof.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_prof PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/model_helpers.c)
target_include_directories(api_prof PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_prof openacl_objects)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  get_property(openacl_prof_tests DIRECTORY PROPERTY TESTS)
  foreach(t ${openacl_prof_tests})
    if(t MATCHES "^api/prof/")
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT
        "OPENACL_PROF_CHECKER=${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/prof_trace_check.py")
    endif()
  endforeach()
endif()
