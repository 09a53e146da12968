/*
 * recipe.h - recipes turn files a person has (a photo) into model inputs,
 * and model outputs into answers (the top-5 classes), around the tool's own
 * inference: load_model -> preprocess -> infer -> postprocess.
 *
 * A recipe is one small file that fills this table; `openacl infer
 * --recipe NAME` finds it in tool_recipes (recipes.c).  The tool owns the
 * model, the device buffers and the loop; a recipe sees host memory only.
 */
#ifndef OPENACL_TOOL_RECIPE_H
#define OPENACL_TOOL_RECIPE_H

#include <stddef.h>
#include <stdio.h>

#include "tool.h"

typedef struct tool_recipe {
  const char *name;      /* --recipe NAME */
  const char *summary;   /* one line for `openacl infer --help` */
  const char *options;   /* its options, one per line, for --help ("  --labels FILE  ...") */
  void *(*create)(void);
  void (*destroy)(void *self);
  /* An option the tool did not recognise (name without the leading "--").
   * 0 taken, 1 not this recipe's, TOOL_USAGE bad value (message printed). */
  int (*option)(void *self, const char *name, const char *value);
  /* After the model is loaded: checks the model suits the recipe (e.g. one
   * image input [N,3,H,W] or [N,H,W,3]); 0 or an exit code (message printed). */
  int (*load_model)(void *self, const tool_model *m);
  /* Whether a file found in an input folder is one of the recipe's (by name). */
  int (*accepts)(void *self, const char *path);
  /* Fills item `item` of the batch of input 0 (host memory `dst`: the whole
   * batch, `dst_size` bytes, shape `dims`/`rank` with the batch size in
   * dims[0]) from the file `path`.  0 or an exit code (message printed). */
  int (*preprocess)(void *self, const tool_model *m, const char *path, void *dst, size_t dst_size,
                    const int64_t *dims, size_t rank, size_t item);
  /* The inference itself; NULL: the tool's (aclmdlExecute on its buffers). */
  int (*infer)(void *self, const tool_model *m);
  /* Reads output 0 of batch item `item` (host memory, the whole batch:
   * `out`/`out_size`, shape `dims`/`rank`) and prints the answer for `path`
   * to `report`.  0 or an exit code. */
  int (*postprocess)(void *self, const tool_model *m, const char *path, const void *out, size_t out_size,
                     const int64_t *dims, size_t rank, size_t item, FILE *report);
  /* Optional (NULL: none).  Fills the dimensions of input 0 that the model
   * leaves open (-1 in `dims`, `rank` of them, after --dym-batch) when the
   * user gave no --dym-shape: the picture size the recipe makes, say.  The
   * batch (dims[0]) is the tool's: left open, it becomes 1.  Dimensions it
   * leaves open are an error asking for --dym-shape.  0 or an exit code. */
  int (*input_shape)(void *self, const tool_model *m, int64_t *dims, size_t rank);
} tool_recipe;

/* NULL-terminated list of every recipe. */
extern const tool_recipe *const tool_recipes[];
const tool_recipe *tool_recipe_find(const char *name);

#endif
