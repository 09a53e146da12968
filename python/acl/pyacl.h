/*
 * pyacl.h - what the files of the `acl` extension module share.
 *
 * The extension is pyACL's `import acl`: one module with sub-modules rt, mdl,
 * util, prof, op (and the empty media, blas, himpi, fv), each a table of
 * plain functions.  It calls openacl's public C API only, like the openacl
 * tool.  Conventions (docs/python.md):
 *   - positional arguments only, parsed by pyacl_parse() with a format string;
 *     a wrong count or type raises TypeError("<acl.sub.name> args parse failed");
 *   - a C failure never raises: it comes back as `ret`, last in a tuple;
 *   - pointers and handles are Python ints (0 = NULL);
 *   - the GIL is released around every call that can block or run long.
 */
#ifndef OPENACL_PYTHON_PYACL_H
#define OPENACL_PYTHON_PYACL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "acl/acl.h"

/*
 * Parses the positional arguments of a METH_FASTCALL function.  One
 * character per argument, each followed by the address to store into:
 *   p  void **      pointer or handle: an int (bool too), masked to 64 bits
 *   z  size_t *     as p
 *   K  uint64_t *   as p
 *   i  int32_t *    int or __index__, range-checked (OverflowError)
 *   I  uint32_t *   int or __index__, masked to 32 bits
 *   L  int64_t *    int or __index__, range-checked
 *   h  int16_t *    int or __index__, range-checked
 *   H  uint16_t *   int or __index__, masked to 16 bits
 *   b  uint8_t *    int or __index__, masked to 8 bits
 *   B  uint8_t *    int or __index__, 0..255 (OverflowError)
 *   f  float *      float, int, or anything with __float__ (numpy scalars)
 *   s  const char **  str only, as UTF-8 (valid while the argument lives)
 *   O  PyObject **  anything (borrowed)
 *   l  PyObject **  a list (a tuple is rejected; borrowed)
 *   a  PyObject **  a list or a numpy array (borrowed)
 *   d  PyObject **  a dict (borrowed)
 *   c  PyObject **  a callable (borrowed)
 * A '|' marks the start of optional arguments (left untouched when absent).
 * Functions whose format is empty ignore extra arguments, as pyACL's do.
 * Returns 1, or 0 with TypeError (or OverflowError) set; `name` is the dotted
 * Python name used in the message ("acl.rt.memcpy").
 */
int pyacl_parse(const char *name, PyObject *const *args, Py_ssize_t nargs, const char *format, ...);

/* Return-value builders. */
static inline PyObject *pyacl_ret(aclError ret) { return PyLong_FromLong((long)ret); }
PyObject *pyacl_ptr(const void *p);                             /* int address, 0 for NULL */
PyObject *pyacl_str_or_none(const char *s);                     /* None for NULL */
PyObject *pyacl_tuple_ret(PyObject *value, aclError ret);       /* (value, ret); steals value */
PyObject *pyacl_tuple2_ret(PyObject *a, PyObject *b, aclError ret); /* (a, b, ret); steals a, b */
/* A list of Python ints from a C array; NULL with an exception on failure. */
PyObject *pyacl_list_i64(const int64_t *v, size_t n);
/* Fills out[0..n) from a list of ints (a tuple is rejected); returns 1, or 0
 * with TypeError naming `name`. */
int pyacl_list_to_i64(const char *name, PyObject *list, int64_t *out, size_t max, size_t *n);
/* A whitelist of pids (the IPC set-pid calls): at most PYACL_MAX_PIDS. */
#define PYACL_MAX_PIDS 64
int pyacl_list_to_pids(const char *name, PyObject *list, int32_t *out, size_t *n);

/*
 * Functions whose C side openacl does not implement yet: they keep pyACL's
 * name, arguments and return shape, return ACL_ERROR_API_NOT_SUPPORT
 * (200001) with zero, None or empty outputs, and record a message for
 * acl.get_recent_err_msg() naming the C function.  One table per module
 * (pyacl_stub entries ending with a NULL py_name), turned into functions by
 * pyacl_add_stubs().
 */
typedef enum pyacl_shape {
  PYACL_RET,          /* ret */
  PYACL_VAL_RET,      /* (0, ret) */
  PYACL_VAL2_RET,     /* (0, 0, ret) */
  PYACL_STR_RET,      /* ('', ret)  (a string out-parameter) */
  PYACL_NONESTR_RET,  /* (None, ret) */
  PYACL_DICT_RET,     /* ({}, ret) */
  PYACL_LIST_RET,     /* ([], ret) */
  PYACL_LIST_NUM_RET, /* ([], 0, ret) */
  PYACL_HANDLE,       /* 0 (a bare handle or value) */
  PYACL_NONE,         /* None (C returns void) */
  PYACL_STR_NONE,     /* None (a const char * result) */
  PYACL_OPDESC,       /* ('', 0, 0, 0, 0, ret)  (mdl.create_and_get_op_desc) */
} pyacl_shape;

typedef struct pyacl_stub {
  const char *py_name;  /* "stream_abort" */
  const char *c_name;   /* "aclrtStreamAbort" */
  const char *format;   /* pyacl_parse format the arguments are checked with */
  pyacl_shape shape;
} pyacl_stub;

/* Adds every stub of the table to module `m` ("acl.rt" is its dotted name). */
int pyacl_add_stubs(PyObject *m, const char *dotted, const pyacl_stub *table);

/* Records "<c_name> failed: ACL_ERROR_API_NOT_SUPPORT (200001): ..." and returns 200001. */
aclError pyacl_not_supported(const char *c_name);

/*
 * Host pointers given as ints are checked before C reads or writes through
 * them, so a bogus int gets ACL_ERROR_INVALID_PARAM instead of a crash:
 * the range must lie in mapped memory.  Device pointers are the runtime's to
 * check.  Returns 1 when [p, p+n) is mapped (n 0 passes).  Call with the GIL
 * held: the few page spans verified last are remembered (a system call costs
 * more than the rest of a small copy), and pyacl_host_range_forget() drops
 * them when the binding frees host memory (free_host).
 */
int pyacl_host_range_ok(const void *p, size_t n);
void pyacl_host_range_forget(void);

/* The sub-modules' method tables (each ends with a NULL entry), one per
 * file, and their stub tables; module.c puts them together. */
extern PyMethodDef pyacl_acl_methods[];          /* acl_base.c: init, versions, buffers */
extern PyMethodDef pyacl_acl_tensor_methods[];   /* acl_tensor.c: tensor descriptors */
extern const pyacl_stub pyacl_acl_stubs[];       /* acl_tensor.c */
extern PyMethodDef pyacl_rt_device_methods[];    /* rt_device.c: devices, contexts */
extern PyMethodDef pyacl_rt_stream_methods[];    /* rt_stream.c: streams, events */
extern PyMethodDef pyacl_rt_callback_methods[];  /* rt_callback.c: reports, callbacks, last error */
extern PyMethodDef pyacl_rt_memory_methods[];    /* rt_memory.c: memory, copies */
extern PyMethodDef pyacl_rt_kernel_methods[];    /* rt_kernel.c: binaries, kernels */
extern PyMethodDef pyacl_rt_device_ctl_methods[]; /* rt_device_ctl.c: limits, ids, uuid, overflow */
extern PyMethodDef pyacl_rt_stream_ctl_methods[]; /* rt_stream_ctl.c: abort, attributes, value tasks */
extern PyMethodDef pyacl_rt_notify_methods[];    /* rt_notify.c: notifies, IPC notifies */
extern PyMethodDef pyacl_rt_host_mem_methods[];   /* rt_host_mem.c: host registration, copy descs, reduce */
extern PyMethodDef pyacl_rt_allocator_methods[];  /* rt_allocator.c: allocator descriptors */
extern PyMethodDef pyacl_rt_params_methods[];     /* rt_params.c: system parameters, op timeouts, groups */
extern const pyacl_stub pyacl_rt_stubs[];        /* rt_stubs.c */
extern PyMethodDef pyacl_mdl_methods[];          /* mdl.c: load, descriptions, datasets, execute */
extern PyMethodDef pyacl_mdl_dims_methods[];     /* mdl_dims.c: dims and dynamic shapes */
extern PyMethodDef pyacl_mdl_dump_methods[];     /* mdl_dump.c: dump */
extern PyMethodDef pyacl_op_dump_methods[];      /* mdl_dump.c: operator info record */
extern const pyacl_stub pyacl_mdl_stubs[];       /* mdl_dims.c */
extern PyMethodDef pyacl_util_methods[];         /* util.c: bytes, numpy */
extern PyMethodDef pyacl_util_thread_methods[];  /* util_thread.c: start_thread, stop_thread */
extern PyMethodDef pyacl_prof_methods[];         /* prof.c: profiling, subscription, msproftx */
extern const pyacl_stub pyacl_op_stubs[];        /* op_stubs.c */
extern PyMethodDef pyacl_ext_methods[];          /* acl_ext.c: acl._openacl, openacl's extensions */

/* Shorthand for a METH_FASTCALL method-table entry. */
#define PYACL_FN(pyname, cfunc) {pyname, (PyCFunction)(void (*)(void))(cfunc), METH_FASTCALL, NULL}
#define PYACL_FASTCALL(cfunc) PyObject *cfunc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)

#endif
