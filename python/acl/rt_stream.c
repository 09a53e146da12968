/* rt_stream.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_rt_stream_methods[] = {{NULL, NULL, 0, NULL}};
