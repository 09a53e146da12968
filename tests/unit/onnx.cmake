# The ONNX loader: models built with the generated protobuf-c structs, error
# paths, hostile input, external data, and Debian's libonnx-testdata models.
openacl_test(unit_onnx INTERNAL GROUP unit/onnx SOURCES ${CMAKE_CURRENT_LIST_DIR}/onnx.c)
target_include_directories(unit_onnx PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(unit_onnx openacl_objects)
