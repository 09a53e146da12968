/*
 * infer_opts.c - the options of `openacl infer`, with the spellings of
 * msame and ais_bench mapped onto the same behaviour (docs/infer.md has the
 * table).  Every option takes `--opt value` or `--opt=value`; yes/no
 * options also stand alone or take true/false, as the peers' do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "infer_job.h"

enum { K_STR, K_LONG, K_COUNT, K_DEVICE, K_SEED, K_BOOL, K_FMT, K_NOOP_BOOL, K_REJECT };

/* One option: every spelling that means it, and where it goes. */
typedef struct opt_def {
  const char *names[4];
  int kind;
  size_t offset;
} opt_def;

#define F(field) offsetof(infer_opts, field)
static const opt_def defs[] = {
    {{"model", "om"}, K_STR, F(model)},
    {{"input"}, K_STR, F(input)},
    {{"output"}, K_STR, F(output)},
    {{"output_dirname"}, K_STR, F(output_dirname)},
    {{"outfmt"}, K_FMT, F(outfmt)},
    {{"device"}, K_DEVICE, F(device)},
    {{"loop"}, K_COUNT, F(loop)},
    {{"warmup", "warmup_count"}, K_LONG, F(warmup)},
    {{"batchsize"}, K_COUNT, F(batchsize)},
    {{"dym-batch", "dymBatch"}, K_COUNT, F(dym_batch)},
    {{"dym-shape", "dymShape", "dymDims"}, K_STR, F(dym_shape)},
    {{"dym-hw", "dymHW"}, K_STR, F(dym_hw)},
    {{"output-size", "outputSize"}, K_STR, F(output_size)},
    {{"summary-json"}, K_STR, F(summary_json)},
    {{"quiet"}, K_BOOL, F(quiet)},
    {{"debug"}, K_BOOL, F(debug)},
    {{"seed"}, K_SEED, F(seed)},
    {{"recipe"}, K_STR, F(recipe_name)},
    {{"precision_mode", "precision-mode"}, K_STR, F(precision_mode)},
    /* shapes of .npy inputs are always taken from the files; the summary always shows everything */
    {{"auto_set_dymdims_mode", "auto_set_dymshape_mode", "display_all_summary"}, K_NOOP_BOOL, 0},
    {{"dump"}, K_BOOL, F(dump)},
    {{"profiler"}, K_BOOL, F(profiler)},
    {{"acl_json_path", "aipp"}, K_REJECT, 0},
};
#undef F

static void help(const infer_opts *o) {
  printf("usage: openacl infer --model FILE [--input SPEC] [--output DIR] [options]\n\n"
         "Runs an ONNX model on input files (or generated data) and prints load time, first-inference\n"
         "time and steady-state latency and throughput, end-to-end and compute-only.\n\n"
         "  --model FILE          the ONNX model (msame: --model; --om is accepted too)\n"
         "  --input SPEC          per model input, separated by commas: a .bin or .npy file, a folder of\n"
         "                        them (sorted by name), 'zeros' or 'random'; default: zeros\n"
         "  --output DIR          write every output of every execution here (created if missing)\n"
         "  --output_dirname SUB  write into DIR/SUB instead (ais_bench)\n"
         "  --outfmt FMT          BIN, NPY or TXT (default BIN)\n"
         "  --device N            device id (default 0; under mpirun: the local rank modulo the device count)\n"
         "  --loop N              executions of each input (default 1)\n"
         "  --warmup N            unmeasured executions after the first one (default 0;\n"
         "                        ais_bench: --warmup_count)\n"
         "  --batchsize N         items per execution, for throughput (default: the inputs' first dimension)\n"
         "  --dym-batch N         batch size for a symbolic first dimension (msame/ais_bench: --dymBatch)\n"
         "  --dym-shape SPEC      'name:1,3,224,224;name2:...' shapes for inputs with symbolic dimensions\n"
         "                        (--dymShape, --dymDims)\n"
         "  --dym-hw H,W          height and width for 4-D inputs with symbolic H and W (--dymHW)\n"
         "                        on a model loaded with gears (OPENACL_DYNAMIC_BATCH / _HW / _DIMS), the\n"
         "                        matching one of these three chooses the gear\n"
         "  --output-size N,...   buffer bytes per output whose size the model leaves open (--outputSize)\n"
         "  --summary-json FILE   write the summary as JSON (only this file is written outside --output)\n"
         "  --seed N              seed of 'random' inputs (default 0)\n"
         "  --precision_mode M    run in a reduced precision where the CPU has bfloat16 units:\n"
         "                        allow_mix_precision, force_fp16, ... (the model converter's names;\n"
         "                        default must_keep_origin_dtype; docs/models.md, \"Precision modes\")\n"
         "  --quiet               no summary on stdout\n"
         "  --debug               describe the model and each execution on stderr\n"
         "  --dump                dump every layer's inputs and outputs (vendor dump files, a .npy beside\n"
         "                        each tensor) under OUTPUT/dump, or ./dump; docs/dump.md\n"
         "  --profiler            profile the run (msame: --profiler true, ais_bench: --profiler 1): API\n"
         "                        calls, tasks, operators, memory, into OUTPUT/profiler or ./profiler;\n"
         "                        'openacl prof DIR' summarises it; docs/profiling.md\n"
         "  --recipe NAME         preprocess and postprocess with a recipe:\n");
  for (size_t i = 0; tool_recipes[i] != NULL; i++)
    printf("                          %-10s %s\n", tool_recipes[i]->name, tool_recipes[i]->summary);
  if (o->recipe != NULL && o->recipe->options != NULL)
    printf("\noptions of recipe '%s':\n%s", o->recipe->name, o->recipe->options);
  printf("\nAccepted for msame / ais_bench compatibility: --auto_set_dymdims_mode, --auto_set_dymshape_mode,\n"
         "--display_all_summary (always on). Not supported: --acl_json_path, --aipp.\n"
         "Under mpirun (or another launcher that sets OMPI_COMM_WORLD_* or PMI_RANK / PMI_SIZE), each rank runs\n"
         "its share of the executions and rank 0 prints one summary for the job.\n"
         "Exit status: 0 done, 1 a failure (file, model, API call), 2 a usage error. See docs/infer.md.\n");
}

static const opt_def *find_def(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
    for (size_t k = 0; k < 4 && defs[i].names[k] != NULL; k++)
      if (strlen(defs[i].names[k]) == len && strncmp(defs[i].names[k], name, len) == 0)
        return &defs[i];
  return NULL;
}

static int is_bool_word(const char *s, int *v) {
  static const char *yes[] = {"true", "1", "yes", "on"}, *no[] = {"false", "0", "no", "off"};
  for (size_t i = 0; s != NULL && i < 4; i++) {
    if (strcasecmp(s, yes[i]) == 0) {
      *v = 1;
      return 1;
    }
    if (strcasecmp(s, no[i]) == 0) {
      *v = 0;
      return 1;
    }
  }
  return 0;
}

static int parse_long(const char *opt, const char *s, long min, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (s[0] == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
    return tool_usage_error("infer", "option --%s: '%s' is not a whole number from %ld to %ld", opt, s, min, max);
  *out = v;
  return 0;
}

static int set_value(const opt_def *d, const char *opt, const char *val, infer_opts *o) {
  char *base = (char *)o;
  long v = 0;
  int ret = 0;
  switch (d->kind) {
  case K_STR:
    *(const char **)(base + d->offset) = val;
    break;
  case K_LONG:
    ret = parse_long(opt, val, 0, 1000000000L, &v);
    *(long *)(base + d->offset) = v;
    break;
  case K_COUNT:
    ret = parse_long(opt, val, 1, 1000000000L, &v);
    *(long *)(base + d->offset) = v;
    break;
  case K_DEVICE:
    ret = parse_long(opt, val, 0, 1023, &v);
    o->device = (int32_t)v;
    o->device_given = 1;
    break;
  case K_SEED: {
    char *end;
    errno = 0;
    unsigned long long s = strtoull(val, &end, 10);
    if (val[0] == '\0' || val[0] == '-' || *end != '\0' || errno != 0)
      return tool_usage_error("infer", "option --%s: '%s' is not a whole number from 0 to 2^64-1", opt, val);
    o->seed = s;
    break;
  }
  case K_FMT:
    if (strcasecmp(val, "BIN") == 0)
      o->outfmt = INFER_BIN;
    else if (strcasecmp(val, "NPY") == 0)
      o->outfmt = INFER_NPY;
    else if (strcasecmp(val, "TXT") == 0)
      o->outfmt = INFER_TXT;
    else
      ret = tool_usage_error("infer", "option --%s: '%s' is not an output format (BIN, NPY or TXT)", opt, val);
    break;
  }
  return ret;
}

/* --recipe is looked for first: the recipe's own options may come before it. */
static int find_recipe(int argc, char **argv, infer_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *name = NULL;
    if (strcmp(argv[i], "--recipe") == 0 && i + 1 < argc)
      name = argv[i + 1];
    else if (strncmp(argv[i], "--recipe=", 9) == 0)
      name = argv[i] + 9;
    if (name == NULL)
      continue;
    o->recipe = tool_recipe_find(name);
    if (o->recipe == NULL) {
      char known[512] = "";
      for (size_t k = 0; tool_recipes[k] != NULL; k++)
        snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", k ? ", " : "", tool_recipes[k]->name);
      return tool_usage_error("infer", "option --recipe: no recipe named '%s' (known: %s)", name,
                              known[0] ? known : "none");
    }
  }
  if (o->recipe != NULL && o->recipe->create != NULL) {
    o->recipe_self = o->recipe->create();
    if (o->recipe_self == NULL) {
      tool_error("out of memory creating recipe '%s'", o->recipe->name);
      return TOOL_FAIL;
    }
  }
  return 0;
}

int infer_opts_parse(int argc, char **argv, infer_opts *o) {
  memset(o, 0, sizeof(*o));
  o->loop = 1;
  int ret = find_recipe(argc, argv, o);
  for (int i = 1; ret == 0 && i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      help(o);
      return -1;
    }
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
      ret = tool_usage_error("infer", "unexpected argument '%s': options start with --", arg);
      break;
    }
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
    const char *val = eq != NULL ? eq + 1 : NULL;
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    const opt_def *d = find_def(name, len);
    if (d == NULL && o->recipe != NULL && o->recipe->option != NULL) {
      char rname[128];
      snprintf(rname, sizeof(rname), "%.*s", (int)(len < 127 ? len : 127), name);
      int took_next = val == NULL && next != NULL && strncmp(next, "--", 2) != 0;
      int r = o->recipe->option(o->recipe_self, rname, val != NULL ? val : took_next ? next : NULL);
      if (r == 0) {
        i += took_next;
        continue;
      }
      if (r != 1) {
        ret = r;
        break;
      }
    }
    if (d == NULL) {
      ret = tool_usage_error("infer", "unknown option '--%.*s'", (int)len, name);
      break;
    }
    if (d->kind == K_REJECT) {
      ret = tool_usage_error("infer", "option --%.*s (msame / ais_bench) is not supported by openacl", (int)len, name);
      break;
    }
    if (d->kind == K_BOOL || d->kind == K_NOOP_BOOL) {
      int v = 1;
      if (val != NULL && !is_bool_word(val, &v)) {
        ret = tool_usage_error("infer", "option --%.*s: '%s' is not true or false", (int)len, name, val);
        break;
      }
      if (val == NULL && is_bool_word(next, &v))
        i++;
      if (d->kind == K_BOOL)
        *(int *)((char *)o + d->offset) = v;
      continue;
    }
    if (val == NULL) {
      if (next == NULL) {
        ret = tool_usage_error("infer", "option --%.*s needs a value", (int)len, name);
        break;
      }
      val = next;
      i++;
    }
    char oname[64];
    snprintf(oname, sizeof(oname), "%.*s", (int)(len < 63 ? len : 63), name);
    ret = set_value(d, oname, val, o);
  }
  if (ret == 0 && o->model == NULL)
    ret = tool_usage_error("infer", "--model FILE is required");
  if (ret == 0 && o->output_dirname != NULL && o->output == NULL)
    ret = tool_usage_error("infer", "--output_dirname needs --output");
  if (ret == 0 && o->output_dirname != NULL &&
      (strchr(o->output_dirname, '/') != NULL || strcmp(o->output_dirname, "..") == 0 || o->output_dirname[0] == '\0'))
    ret = tool_usage_error("infer", "option --output_dirname: '%s' must be one folder name inside --output",
                           o->output_dirname);
  return ret;
}
