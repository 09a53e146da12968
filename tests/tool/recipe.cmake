# The classify recipe: tests/tool/recipe.sh drives `openacl infer --recipe
# classify` on the shapes model shipped in models/shapes/ (tool/recipe/<case>),
# and its pieces through tests/tool/recipe_driver.c (decoding, preprocessing,
# top-k) without a model, compared with numpy (and Pillow when installed).
find_package(JPEG REQUIRED) # imported targets are local to the directory that finds them
find_package(PNG REQUIRED)
add_executable(openacl_recipe_driver ${PROJECT_SOURCE_DIR}/tests/tool/recipe_driver.c
  ${PROJECT_SOURCE_DIR}/tools/openacl/recipe_classify.c ${PROJECT_SOURCE_DIR}/tools/openacl/recipes.c
  ${PROJECT_SOURCE_DIR}/tools/openacl/image.c)
target_include_directories(openacl_recipe_driver PRIVATE ${PROJECT_SOURCE_DIR}/tools/openacl ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(openacl_recipe_driver PRIVATE _GNU_SOURCE)
target_link_libraries(openacl_recipe_driver PRIVATE JPEG::JPEG PNG::PNG m)

set(OPENACL_RECIPE_CASES
  top1_samples folder_batched folder_order_and_skips topk no_labels labels_extra nhwc_model open_hw_model
  softmax_modes
  mean_std_options resize_option help_lists_options
  err_labels_missing err_labels_short err_labels_empty err_corrupt_jpeg err_truncated_jpeg err_corrupt_png
  err_truncated_png err_not_an_image err_unsupported_extension err_option_without_recipe err_bad_values
  err_not_an_image_model
  unit_decode_png_kinds unit_decode_jpeg unit_preprocess_matches_pillow unit_layouts unit_topk_softmax)
foreach(case ${OPENACL_RECIPE_CASES})
  add_test(NAME tool/recipe/${case}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/recipe.sh $<TARGET_FILE:openacl_tool> $<TARGET_FILE:openacl_recipe_driver>
      ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(tool/recipe/${case} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs")
endforeach()
