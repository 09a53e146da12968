/* util_thread.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_util_thread_methods[] = {{NULL, NULL, 0, NULL}};
