# ONNX backend conformance (libonnx-testdata) through aclmdlExecute (the engine).
openacl_test(unit_conformance INTERNAL GROUP unit/conformance SOURCES ${CMAKE_CURRENT_LIST_DIR}/conformance.c LIBS m)
target_include_directories(unit_conformance PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(unit_conformance openacl_objects)
# The same suite on the reference executor alone (aclmdlExecute runs the
# optimised engine by default): both must pass every listed test.
add_test(NAME unit/conformance/onnx_backend_test_data_reference COMMAND unit_conformance onnx_backend_test_data)
set_tests_properties(unit/conformance/onnx_backend_test_data_reference PROPERTIES
  ENVIRONMENT OPENACL_MODEL_ENGINE=reference TIMEOUT ${OPENACL_TEST_TIMEOUT})
