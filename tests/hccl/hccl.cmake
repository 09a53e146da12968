# HCCL (libhccl.so, docs/distributed.md): built when OPENACL_HCCL is on.
#   hccl/threads/*   one process, a thread per rank (no mpirun): every
#                    collective, data type and reduce op against a C
#                    reference, argument checks, stream order, timeouts
#   hccl/samples/*   the vendor's sample programs in their style, run by
#                    run_hccl.sh, which checks what they print: one thread per
#                    device (B), HcclCommInitAll (D), and under mpirun one
#                    process per rank (A, with MPI_Init by the program or not)
#   hccl/mpi/*       under mpirun: stream order, a killed rank
if(NOT OPENACL_HCCL)
  return()
endif()

add_executable(hccl_sample_threads ${CMAKE_CURRENT_LIST_DIR}/sample_threads.c)
target_link_libraries(hccl_sample_threads PRIVATE hccl ascendcl Threads::Threads)
