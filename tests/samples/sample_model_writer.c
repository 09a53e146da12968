/*
 * sample_model_writer.c - writes chain.onnx (sample_model.h) into the
 * directory given as argv[1], with the ONNX writer of the dump tests
 * (tests/api/dump_util.c).  Run by run_sample.sh before an adump sample.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dump_util.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: sample_model_writer DIR\n");
    return 2;
  }
  char *path = du_write_chain(argv[1], "chain.onnx");
  if (path == NULL) {
    fprintf(stderr, "sample_model_writer: cannot write %s/chain.onnx\n", argv[1]);
    return 1;
  }
  free(path);
  return 0;
}
