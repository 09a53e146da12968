/*
 * npy.h - numpy's .npy files (format versions 1.0 to 3.0, little-endian,
 * C order), the one array format the tool reads and writes besides raw
 * bytes.  https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
#ifndef OPENACL_TOOL_NPY_H
#define OPENACL_TOOL_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"

enum { NPY_MAX_RANK = 16 };

typedef struct npy_header {
  aclDataType dtype; /* ACL_DT_UNDEFINED when the descr is not one the tool reads */
  char descr[16];    /* as the file spells it ("<f4") */
  size_t rank;
  int64_t dims[NPY_MAX_RANK];
  size_t data_offset; /* where the elements start */
  size_t data_size;   /* element count x element size */
} npy_header;

/* Reads the header of `f` (at its start).  0, or -1 with the reason in err. */
int npy_read_header(FILE *f, npy_header *h, char *err, size_t errlen);
/* Writes a version 1.0 file holding `data`.  0 or -1 (errno set). */
int npy_write(FILE *f, aclDataType dt, size_t rank, const int64_t *dims, const void *data, size_t size);
/* numpy's descr for dt ("<f4"), NULL when numpy has none. */
const char *npy_descr(aclDataType dt);

#endif
