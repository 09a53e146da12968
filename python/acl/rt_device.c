/* rt_device.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_rt_device_methods[] = {{NULL, NULL, 0, NULL}};
