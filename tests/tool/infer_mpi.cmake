# `openacl infer` and `python3 -m openacl.infer` sharded under mpirun
# (tests/tool/infer_mpi.sh, label mpi): the job's outputs are a single run's,
# rank 0's summary counts every input, a failing rank stops the job in time.
# Skipped (77) without mpirun, and the Python cases without mpi4py.
find_program(OPENACL_MPIRUN mpirun)
set(infer_mpi_cases c_2 c_3 c_fail_run c_fail_load)
set(infer_mpi_py /usr/bin/python3)
if(OPENACL_PYTHON_BUILT AND infer_mpi_py IN_LIST OPENACL_PYTHON_BUILT)
  list(APPEND infer_mpi_cases py_2 py_3 py_fail)
endif()
foreach(case ${infer_mpi_cases})
  # the Python cases also carry "python": scripts/test.sh runs that label with
  # the sanitizer runtime preloaded into the uninstrumented interpreter
  set(labels mpi)
  if(case MATCHES "^py_")
    set(labels "mpi;python")
  endif()
  add_test(NAME tool/infer_mpi/${case}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/infer_mpi.sh $<TARGET_FILE:openacl_tool> ${PROJECT_SOURCE_DIR} ${case}
            ${infer_mpi_py})
  # Open MPI's own allocations are not ours to account for
  set_tests_properties(tool/infer_mpi/${case} PROPERTIES TIMEOUT 90 LABELS "${labels}" SKIP_RETURN_CODE 77
    ENVIRONMENT "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs;PYTHONPATH=${OPENACL_PYTHON_DIR};ASAN_OPTIONS=detect_leaks=0;PYTHONDONTWRITEBYTECODE=1")
endforeach()
