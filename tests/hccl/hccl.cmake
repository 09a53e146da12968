# HCCL (libhccl.so, docs/distributed.md): built when OPENACL_HCCL is on.
#   hccl/threads/*   one process, a thread per rank (no mpirun): every
#                    collective, data type and reduce op against a C
#                    reference, argument checks, stream order, timeouts
#   hccl/samples/*   the vendor's sample programs in their style, run by
#                    run_hccl.sh, which checks what they print: one thread per
#                    device (B), HcclCommInitAll (D), and under mpirun one
#                    process per rank (A, with MPI_Init by the program or not)
#   hccl/mpi/*       under mpirun: stream order, a killed rank, every algorithm
#                    and size
if(NOT OPENACL_HCCL)
  return()
endif()

add_executable(hccl_sample_threads ${CMAKE_CURRENT_LIST_DIR}/sample_threads.c)
target_link_libraries(hccl_sample_threads PRIVATE hccl ascendcl Threads::Threads)
target_sources(hccl_sample_threads PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sample_ops.c)

add_executable(hccl_sample_mpi ${CMAKE_CURRENT_LIST_DIR}/sample_mpi.c ${CMAKE_CURRENT_LIST_DIR}/sample_ops.c)
target_link_libraries(hccl_sample_mpi PRIVATE hccl ascendcl MPI::MPI_C)
target_compile_definitions(hccl_sample_mpi PRIVATE _GNU_SOURCE)

add_executable(hccl_mpi_checks ${CMAKE_CURRENT_LIST_DIR}/mpi_checks.c)
target_link_libraries(hccl_mpi_checks PRIVATE hccl ascendcl MPI::MPI_C Threads::Threads)
target_compile_definitions(hccl_mpi_checks PRIVATE _GNU_SOURCE)

openacl_test(hccl_threads GROUP hccl/threads SOURCES ${CMAKE_CURRENT_LIST_DIR}/threads.c LIBS hccl m
  LABELS threads)
target_include_directories(hccl_threads PRIVATE ${PROJECT_SOURCE_DIR}/include)

# The samples and mpirun checks, through run_hccl.sh.
set(hccl_ops allreduce broadcast allgather reducescatter reduce scatter alltoall alltoallv alltoallvc sendrecv
    batchsendrecv)
set(hccl_runs)
foreach(op ${hccl_ops})
  list(APPEND hccl_runs "threads ${op} 8")
endforeach()
list(APPEND hccl_runs "initall allreduce 8" "initall alltoall 4")
foreach(op ${hccl_ops})
  list(APPEND hccl_runs "mpi ${op} 4")
endforeach()
list(APPEND hccl_runs "mpi allreduce 2" "config allgather 2" "file allreduce 4" "file broadcast 2"
     "ranktable allreduce 4" "ranktable reducescatter 2"
     "order - 2" "order - 4" "subcomm - 4" "mixed - 2" "mixed - 3" "stall - 3" "kill - 3" "connect - 3"
     "sizes - 2" "sizes - 3" "sizes - 4" "staged - 3" "plain - 2" "plain - 4" "refusing - 3" "refusing_staged - 3" "stall_split - 2" "kill_split - 3"
     "kill_mapped - 2" "kill_mapped - 4")
foreach(t all_reduce_test broadcast_test reduce_test all_gather_test all_gatherv_test reduce_scatter_test
    reduce_scatterv_test scatter_test alltoall_test alltoallv_test alltoallvc_test)
  list(APPEND hccl_runs "hccltest ${t} 2")
endforeach()
list(APPEND hccl_runs "hccltest all_reduce_test 3 -b 2K -e 8K -f 2 -n 2 -w 1 -d fp16 -o max"
     "hccltest all_reduce_test 2 -b 1K -e 1K -n 2 -w 0 -d bfp16 -o min"
     "hccltest all_reduce_test 4 -b 1K -e 1K -n 2 -w 0 -d int8 -o prod -c 2"
     "hccltest all_gather_test 3 -b 300 -e 300 -n 2 -w 1 -d fp8e5m2")
find_program(OPENACL_MPIRUN mpirun)
foreach(run ${hccl_runs})
  separate_arguments(args UNIX_COMMAND "${run}")
  list(GET args 0 mode)
  list(GET args 1 op)
  list(GET args 2 n)
  list(LENGTH args nargs)
  set(extra)
  if(nargs GREATER 3)
    list(SUBLIST args 3 -1 extra)
  endif()
  if(mode STREQUAL "threads" OR mode STREQUAL "initall")
    set(name hccl/samples/${mode}_${op}_${n})
    set(labels threads)
  else()
    if(NOT OPENACL_MPIRUN)
      continue()
    endif()
    set(name hccl/mpi/${mode}_${op}_${n})
    string(REPLACE "_-_" "_" name "${name}")
    if(extra)
      string(REPLACE ";" "_" suffix "${extra}")
      string(REGEX REPLACE "[^A-Za-z0-9_]" "" suffix "${suffix}")
      set(name ${name}_${suffix})
    endif()
    set(labels mpi)
  endif()
  add_test(NAME ${name} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_hccl.sh $<TARGET_FILE_DIR:hccl_sample_mpi>
    ${mode} ${op} ${n} ${extra})
  set(env "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs")
  if(labels STREQUAL "mpi")
    list(APPEND env "ASAN_OPTIONS=detect_leaks=0") # Open MPI's own allocations are not ours to account for
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 LABELS "${labels}" ENVIRONMENT "${env}")
endforeach()

# The headers as users compile them, and libhccl.so's exports.
add_test(NAME hccl/headers/c11_pedantic_abi
  COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -pedantic -Wall -Wextra -Werror -Wshadow -Wundef
          -Wstrict-prototypes -Wmissing-prototypes -I${PROJECT_SOURCE_DIR}/include
          ${CMAKE_CURRENT_LIST_DIR}/headers_abi.c)
add_test(NAME hccl/exports/match_map
  COMMAND sh ${PROJECT_SOURCE_DIR}/tests/api/exports_check.sh match ${CMAKE_NM} $<TARGET_FILE:hccl>
          ${PROJECT_SOURCE_DIR}/src/hccl/libhccl.map ${PROJECT_SOURCE_DIR}/include)
set_tests_properties(hccl/headers/c11_pedantic_abi hccl/exports/match_map PROPERTIES TIMEOUT 60)
