# Models with dynamic (symbolic) dimensions (api/model_dynamic/*): described
# with -1 and size 0, executed with several batch sizes given by tensor
# descriptors on the input dataset, the actual output shape returned in the
# output dataset; aclmdlGetCurOutputDims; the error paths.  The models are
# written by the test with the protobuf-c structs generated from onnx.proto.
openacl_test(api_model_dynamic GROUP api/model_dynamic SOURCES ${CMAKE_CURRENT_LIST_DIR}/model_dynamic.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_model_dynamic PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/model_helpers.c)
target_include_directories(api_model_dynamic PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_model_dynamic openacl_objects)
