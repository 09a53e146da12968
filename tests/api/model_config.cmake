# Loading from a configuration handle and the precision modes (api/model_config/*):
# aclmdlCreateConfigHandle / SetConfigOpt / LoadWithConfig / DestroyConfigHandle,
# OPENACL_MDL_PRECISION_MODE_PTR and OPENACL_PRECISION_MODE, on libonnx-testdata's
# MatMul case (read with the protobuf-c structs generated from onnx.proto).
openacl_test(api_model_config GROUP api/model_config SOURCES ${CMAKE_CURRENT_LIST_DIR}/model_config.c
  LIBS PkgConfig::PROTOBUFC m)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_model_config PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c)
target_include_directories(api_model_config PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_model_config openacl_objects)
