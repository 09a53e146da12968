/*
 * dnnl_common.h - what the model engine shares with the other users of
 * oneDNN inside openacl (the aclnn operators, src/aclnn/dnnl.c): the
 * process's CPU engine for single primitives, the OpenMP team size of the
 * engine's thread, status texts and plain memory descriptors.  Primitives
 * are executed on the engine's thread (engine.h, acl__engine_call_home), so
 * that oneDNN keeps one OpenMP team whichever executor runs the work.
 */
#ifndef OPENACL_MODEL_ENGINE_DNNL_COMMON_H
#define OPENACL_MODEL_ENGINE_DNNL_COMMON_H

#include <dnnl.h>
#include <stdint.h>

/* The CPU engine single operators create their primitives on: made on first
 * use, kept for the life of the process; NULL when oneDNN cannot make one. */
dnnl_engine_t acl__engine_dnnl_cpu(void);
/* omp.c: the calling thread's OpenMP team for oneDNN's parallel loops (1
 * under ThreadSanitizer); called on the engine's thread before executing. */
void acl__engine_set_threads(int threads);
/* The team acl__engine_set_threads(threads) gives (1 under ThreadSanitizer),
 * and the calling thread's own (omp_get_max_threads; -1 when unknown). */
int acl__engine_team(int threads);
int acl__engine_caller_team(void);

const char *acl__eng_status(dnnl_status_t s);
/* Dense row-major descriptors of dims (rank 0: one element). */
void acl__eng_plain_md(dnnl_memory_desc_t *md, int rank, const int64_t *dims);
void acl__eng_plain_md_dt(dnnl_memory_desc_t *md, int rank, const int64_t *dims, dnnl_data_type_t dt);

#endif
