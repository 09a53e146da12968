# ONNX backend conformance (libonnx-testdata) through the reference executor.
openacl_test(unit_conformance INTERNAL GROUP unit/conformance SOURCES ${CMAKE_CURRENT_LIST_DIR}/conformance.c LIBS m)
target_include_directories(unit_conformance PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(unit_conformance openacl_objects)
