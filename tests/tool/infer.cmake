# `openacl infer` driven as a user drives it: tests/tool/infer.sh runs one
# case per ctest entry (tool/infer/<case>), checking exit codes, stderr,
# the files written and the JSON summary.
set(OPENACL_INFER_CASES
  help add_npy add_bin_txt outfmt_bin zeros_random folder_order dym_batch_folder dym_batch_bin dym_shape_bin
  npy_shape_sets_batch batch_open_item_shape output_grows summary_json quiet warmup_loop_counts equals_form msame_spellings
  ais_bench_spellings recipe_folder_batch only_output_written no_progress_when_not_tty progress_on_tty
  err_unknown_option err_missing_value err_bad_number err_missing_model err_unreadable_model err_bad_model
  err_unreadable_input err_input_count err_input_bytes err_input_shape err_input_dtype err_output_folder
  err_unsupported_peer_option err_bad_outfmt err_dym_shape_name err_dym_shape_static err_open_shape_generated
  err_folder_counts err_summary_json err_output_size err_empty_folder err_bad_npy err_stray_argument
  err_unknown_recipe gear_batch gear_dims gear_hw err_gear_not_a_gear err_gear_no_option precision_mode dump
  profiler)
foreach(case ${OPENACL_INFER_CASES})
  add_test(NAME tool/infer/${case}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/infer.sh $<TARGET_FILE:openacl_tool> ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(tool/infer/${case} PROPERTIES TIMEOUT 120
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs")
endforeach()
