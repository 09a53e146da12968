/*
 * infer_job.h - what the files of `openacl infer` share: the options
 * (infer_opts.c), the inputs found and checked before anything runs
 * (infer_inputs.c), the output files (infer_outputs.c) and the summary
 * (infer_summary.c).  infer.c runs the executions.
 */
#ifndef OPENACL_TOOL_INFER_JOB_H
#define OPENACL_TOOL_INFER_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "recipe.h"
#include "stats.h"
#include "tool.h"

enum { INFER_BIN, INFER_NPY, INFER_TXT };

typedef struct infer_opts {
  const char *model;
  const char *input;          /* NULL: zeros */
  const char *output;         /* NULL: no output files */
  const char *output_dirname; /* ais_bench: a folder inside --output */
  int outfmt;
  int32_t device;
  int device_given;                        /* --device on the command line (infer_shard.c) */
  long loop, warmup, batchsize, dym_batch; /* batchsize, dym_batch: 0 = not given */
  const char *dym_shape;                   /* "name:1,3,224,224;name2:..." */
  const char *dym_hw;                      /* "224,224" */
  const char *output_size;                 /* "bytes,bytes" */
  const char *summary_json;
  int quiet, debug;
  int dump;                                /* --dump: every layer to OUTPUT/dump (infer_dump.c) */
  int profiler;                            /* --profiler: a profile in OUTPUT/profiler (infer_prof.c) */
  uint64_t seed;
  const char *recipe_name;
  const char *precision_mode;              /* "allow_mix_precision": OPENACL_MDL_PRECISION_MODE_PTR */
  const tool_recipe *recipe;
  void *recipe_self;
} infer_opts;

/* Parses argv (argv[0] is "infer") into o, creating the recipe when
 * --recipe is given.  0, TOOL_USAGE (message printed), or -1 for --help
 * (printed; exit 0). */
int infer_opts_parse(int argc, char **argv, infer_opts *o);

/* --dump (infer_dump.c): aclInit and, when o->dump, the runtime dump API set
 * up before the model is loaded; 0 or TOOL_FAIL (printed).  _end prints
 * where the files went (ran: the executions succeeded) and finalizes. */
int infer_dump_begin(const infer_opts *o);
void infer_dump_end(const infer_opts *o, int ran);

/* --profiler (infer_prof.c): when o->profiler, aclprofInit and aclprofStart
 * before the model is loaded; 0 or TOOL_FAIL (printed).  _end stops, writes
 * the profile, prints where (ran: the executions succeeded) and finalizes;
 * 0 or TOOL_FAIL when the profile could not be written. */
int infer_prof_begin(const infer_opts *o);
int infer_prof_end(const infer_opts *o, int ran);

/* Where one model input's data comes from. */
enum { SRC_ZEROS, SRC_RANDOM, SRC_FILES, SRC_RECIPE };

typedef struct infer_input {
  const tool_io *io;
  int src;
  char **files; /* SRC_FILES, SRC_RECIPE: sorted paths */
  size_t n_files;
  int batched; /* each file holds one item; `per_exec` files make one execution */
  size_t per_exec;
  int64_t dims[16]; /* the shape one full execution uses (-1 resolved) */
  size_t rank;
  size_t max_bytes; /* the largest execution's bytes */
  int dynamic;      /* the model's dims have -1: give a tensor descriptor */
} infer_input;

typedef struct infer_job {
  const infer_opts *o;
  const tool_model *m;
  infer_input *in;   /* m->n_in */
  size_t n_exec;     /* executions of distinct data (loop repeats each) */
  char outdir[4096]; /* "" when no --output */
  size_t *out_size;  /* --outputSize per output, 0 none */
} infer_job;

/* Resolves every input's source and shape and checks each file against the
 * model (count, bytes, shape, type).  0 or an exit code (message printed). */
int infer_inputs_prepare(infer_job *j);
void infer_inputs_free(infer_job *j);
/* Fills `host` (max_bytes) with input i's data for execution e; sets the
 * actual shape in dims/rank and the bytes used in *bytes. */
int infer_inputs_fill(infer_job *j, size_t i, size_t e, void *host, int64_t *dims, size_t *rank, size_t *bytes,
                      size_t *items);
/* A name for the outputs of execution e: the first input file's name
 * without its extension, or "run<e>". */
void infer_inputs_stem(const infer_job *j, size_t e, char *buf, size_t len);

/* Creates --output (and --output_dirname in it); 0 or an exit code. */
int infer_outputs_prepare(infer_job *j);
/* Writes output i of execution e.  0 or an exit code. */
int infer_outputs_write(const infer_job *j, size_t e, size_t i, const void *data, size_t bytes, const int64_t *dims,
                        size_t rank, aclDataType dt);

typedef struct infer_times {
  double first_e2e, first_compute;
  stats_summary e2e, compute;
  size_t executions; /* aclmdlExecute calls, first and warm-up included */
  double batch;      /* items per execution */
  size_t shard_execs; /* executions of distinct data this process ran (all of them unless sharded) */
  double items;       /* items of distinct data in them */
  double items_run;   /* items over every run, loop and warm-up included */
  double run_ms;      /* wall time of the runs: staging, executions and output files */
} infer_times;

/* The summary on stdout, and as JSON in --summary-json.  0 or an exit code. */
void infer_summary_print(const infer_job *j, const infer_times *t);
int infer_summary_json(const infer_job *j, const infer_times *t);

/* Under mpirun (infer_shard.c): this process's place in the job, from the
 * launcher's environment, and the HCCL communicator the ranks talk through.
 * size 0: not launched by mpirun, a plain run. */
typedef struct infer_shard {
  int rank, size, local_rank;
  void *comm;     /* HcclComm */
  void *ctx;      /* the device's default context (aclrtContext), for the exchanges */
  int broken;     /* joining or exchanging failed: the others cannot be told */
  int device_set; /* aclrtSetDevice made by _begin, reset by _end */
  int exchange;   /* the ranks can exchange figures (libhccl, the communicator made) */
  int begun;      /* infer_shard_begin called */
  int readied;    /* infer_shard_ready done */
  int stopped;    /* a rank failed before running: every rank stopped */
} infer_shard;

/* Reads the launcher's variables into s; 0 or an exit code (printed). */
int infer_shard_detect(infer_shard *s);
/* Chooses the device (local rank mod device count unless --device) and,
 * with more than one rank, joins the others; 0 or an exit code (printed). */
int infer_shard_begin(infer_shard *s, infer_opts *o);
/* After setup: every rank's status to every rank.  Returns ret, or
 * TOOL_FAIL when another rank failed (rank 0 says which). */
int infer_shard_ready(infer_shard *s, int ret);
/* The executions [lo, hi) of n_exec this rank runs. */
void infer_shard_range(const infer_shard *s, size_t n_exec, size_t *lo, size_t *hi);
/* 1 when _end prints the summary (the job's, on rank 0) instead of each
 * rank printing its own. */
int infer_shard_reports(const infer_shard *s);
/* After the run (ret: this rank's result): the figures exchanged, the job's
 * summary on rank 0 (and --summary-json), the communicator destroyed.
 * Returns ret, or TOOL_FAIL when another rank failed. */
int infer_shard_end(infer_shard *s, const infer_job *j, const infer_times *t, int ret);

/* A model loaded with gears (OPENACL_DYNAMIC_BATCH / _HW / _DIMS, see
 * docs/models.md "Gears") has one more input, last: ACL_DYNAMIC_TENSOR_NAME.
 * The tool owns it; everything else sees `view`, the model without it and
 * with the real inputs shaped for the gear the user chose (infer_gears.c). */
enum { GEARS_NONE, GEARS_BATCH, GEARS_HW, GEARS_DIMS };

typedef struct infer_gears {
  int kind;
  size_t index;          /* the extra input's index (the last one) */
  uint64_t batch, h, w;  /* GEARS_BATCH, GEARS_HW: the chosen gear */
  aclmdlIODims dims;     /* GEARS_DIMS: the chosen gear, every real input's shape concatenated */
  tool_model view;       /* in, out: copies owned here */
} infer_gears;

/* Finds out whether m has gears and, if so, checks the --dym-batch /
 * --dym-hw / --dym-shape value against them and fills g->view.  0 (also for
 * a model without gears: g->kind GEARS_NONE) or an exit code. */
int infer_gears_open(const infer_opts *o, const tool_model *m, infer_gears *g);
/* Chooses the gear for the executions that use ds_in (which holds every
 * input's buffer, the extra one included), then sizes the outputs in
 * g->view for it.  0 or an exit code. */
int infer_gears_choose(infer_gears *g, const tool_model *m, aclmdlDataset *ds_in);
void infer_gears_free(infer_gears *g);

#endif
