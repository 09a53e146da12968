/*
 * fuzz_onnx.c - libFuzzer target for the ONNX loader (src/model/onnx_loader.c).
 *
 * Feeds arbitrary bytes to acl__onnx_load_mem (no directory, so external
 * data is refused without touching the file system), and every other input
 * also to acl__onnx_load_file through a memfd, whose loads stream the
 * initializers from the file's bytes (external data must then resolve inside
 * /proc/self/fd, which nothing does), and checks the
 * loader's contract: success yields a graph whose node inputs and outputs
 * are valid tensor indices; failure yields no graph, one of the three model
 * codes, and an error entry carrying that code and a message.  Any crash,
 * leak, sanitizer report or slow input is a bug.  Built by
 * tests/fuzz/fuzz.cmake; run by tests/fuzz/run_fuzz.sh.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/diag.h"
#include "model/onnx_loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int rc, acl__graph *g, acl__diags *diags);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  acl__graph *g = NULL;
  acl__diags diags = {0};
  /* a tight decode budget keeps each run small; the default is also tried */
  acl__onnx_limits lim = {.max_decode_memory = (size & 1) ? 0 : ((size_t)16 << 20)};
  check(acl__onnx_load_mem(data, size, NULL, &lim, &g, &diags), g, &diags);
  int fd = (size & 2) ? memfd_create("fuzz.onnx", MFD_CLOEXEC) : -1;
  if (fd >= 0 && write(fd, data, size) == (ssize_t)size) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    g = NULL;
    acl__diags d2 = {0};
    check(acl__onnx_load_file(path, &lim, &g, &d2), g, &d2);
  }
  if (fd >= 0)
    close(fd);
  return 0;
}

static void check(int rc, acl__graph *g, acl__diags *diags) {
  const acl__diag *first = acl__diags_first_error(diags);
  if (rc == 0) {
    if (g == NULL || first != NULL)
      abort();
    for (size_t i = 0; i < g->n_nodes; i++) {
      const acl__graph_node *n = &g->nodes[i];
      for (size_t j = 0; j < n->n_inputs; j++)
        if (n->inputs[j] < -1 || n->inputs[j] >= (int)g->n_tensors)
          abort();
      for (size_t j = 0; j < n->n_outputs; j++)
        if (n->outputs[j] < -1 || n->outputs[j] >= (int)g->n_tensors ||
            (n->outputs[j] >= 0 && g->tensors[n->outputs[j]].producer != (int)i))
          abort();
    }
    for (size_t i = 0; i < g->n_tensors; i++)
      if (acl__graph_find(g, g->tensors[i].name) != (int)i)
        abort();
  } else {
    if (g != NULL || first == NULL || first->code != rc || first->message == NULL ||
        (rc != ACL_ERROR_PARSE_MODEL && rc != ACL_ERROR_READ_MODEL_FAILURE &&
         rc != ACL_ERROR_MODEL_SIZE_INVALID))
      abort();
  }
  acl__graph_free(g);
  acl__diags_free(diags);
}
