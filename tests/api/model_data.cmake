# Datasets and tensor descriptors (api/model_data/*): the model API's data
# structures, which need no model and no aclInit.  Public API only.
openacl_test(api_model_data GROUP api/model_data SOURCES ${CMAKE_CURRENT_LIST_DIR}/model_data.c LABELS threads)
target_sources(api_model_data PRIVATE ${PROJECT_SOURCE_DIR}/tests/harness/fail_alloc.c)
