/*
 * rt_allocator.c - acl.rt's custom-allocator descriptors (pyacl.md §2.2,
 * §3.6; C side: docs/allocators.md): allocator_create_desc,
 * allocator_destroy_desc, allocator_set_obj_to_desc, the four
 * allocator_set_*_func_to_desc and allocator_register / unregister.
 *
 * As pyACL: one process-wide Python callable per kind (alloc, free, alloc
 * advise, get address from block), whatever the descriptor; setting a kind
 * hands C a trampoline for it and replaces the callable only when C accepts.
 * C calls the trampolines from whatever thread consumes the allocator; each
 * takes the GIL, calls the callable with the pointers as ints and:
 *   alloc(allocator, size) -> block        advise(allocator, size, addr) -> block
 *   free(allocator, block)                 get_addr(block) -> device address
 * The int a callable returns is handed to C as the pointer (pyACL ignores it
 * and returns NULL, a defect: §3.7); anything else, or a raise, is reported
 * through sys.unraisablehook and gives NULL.
 *
 * allocator_set_obj_to_desc takes the allocator object as an int and hands
 * C that value (pyACL hands C the address of a temporary, a defect).
 */
#include "pyacl.h"

#include <stdarg.h>

#include "acl/acl_rt_allocator.h"

enum { K_ALLOC, K_FREE, K_ADVISE, K_ADDR, K_COUNT };
static PyObject *alloc_fns[K_COUNT]; /* strong references or NULL; guarded by the GIL */

/* Calls alloc_fns[kind] with `args` (a new tuple, consumed) and returns its
 * result as a pointer; NULL when there is no callable, it raised, or it did
 * not return an int.  Takes the GIL. */
static void *call_kind(int kind, const char *fmt, ...) {
  if (!Py_IsInitialized())
    return NULL;
  PyGILState_STATE st = PyGILState_Ensure();
  void *out = NULL;
  PyObject *fn = alloc_fns[kind];
  if (fn) {
    Py_INCREF(fn);
    va_list ap;
    va_start(ap, fmt);
    PyObject *a = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    PyObject *res = a ? PyObject_CallObject(fn, a) : NULL;
    Py_XDECREF(a);
    if (!res) {
      PyErr_WriteUnraisable(fn);
    } else {
      if (kind != K_FREE) {
        if (PyLong_Check(res)) {
          unsigned long long v = PyLong_AsUnsignedLongLongMask(res);
          if (v == (unsigned long long)-1 && PyErr_Occurred())
            PyErr_WriteUnraisable(fn);
          else
            out = (void *)(uintptr_t)v;
        } else if (res != Py_None) {
          PyErr_Format(PyExc_TypeError, "an allocator callback returned %.80s, not an int address",
                       Py_TYPE(res)->tp_name);
          PyErr_WriteUnraisable(fn);
        }
      }
      Py_DECREF(res);
    }
    Py_DECREF(fn);
  }
  PyGILState_Release(st);
  return out;
}

static void *alloc_trampoline(aclrtAllocator allocator, size_t size) {
  return call_kind(K_ALLOC, "(Kn)", (unsigned long long)(uintptr_t)allocator, (Py_ssize_t)size);
}

static void free_trampoline(aclrtAllocator allocator, aclrtAllocatorBlock block) {
  (void)call_kind(K_FREE, "(KK)", (unsigned long long)(uintptr_t)allocator, (unsigned long long)(uintptr_t)block);
}

static void *advise_trampoline(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr) {
  return call_kind(K_ADVISE, "(KnK)", (unsigned long long)(uintptr_t)allocator, (Py_ssize_t)size,
                   (unsigned long long)(uintptr_t)addr);
}

static void *addr_trampoline(aclrtAllocatorBlock block) {
  return call_kind(K_ADDR, "(K)", (unsigned long long)(uintptr_t)block);
}

/* ---- descriptors ---------------------------------------------------------- */

static PYACL_FASTCALL(py_allocator_create_desc) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclrtAllocatorCreateDesc());
}

static PYACL_FASTCALL(py_allocator_destroy_desc) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.rt.allocator_destroy_desc", args, nargs, "p", &desc))
    return NULL;
  return pyacl_ret(aclrtAllocatorDestroyDesc(desc));
}

static PYACL_FASTCALL(py_allocator_set_obj_to_desc) {
  (void)self;
  void *desc, *obj;
  if (!pyacl_parse("acl.rt.allocator_set_obj_to_desc", args, nargs, "pp", &desc, &obj))
    return NULL;
  return pyacl_ret(aclrtAllocatorSetObjToDesc(desc, obj));
}

/* Sets the trampoline of `kind` on the descriptor; on success fn becomes
 * that kind's callable. */
static PyObject *set_func(const char *name, int kind, PyObject *const *args, Py_ssize_t nargs) {
  void *desc;
  PyObject *fn;
  if (!pyacl_parse(name, args, nargs, "pc", &desc, &fn))
    return NULL;
  aclError ret;
  switch (kind) {
  case K_ALLOC: ret = aclrtAllocatorSetAllocFuncToDesc(desc, alloc_trampoline); break;
  case K_FREE: ret = aclrtAllocatorSetFreeFuncToDesc(desc, free_trampoline); break;
  case K_ADVISE: ret = aclrtAllocatorSetAllocAdviseFuncToDesc(desc, advise_trampoline); break;
  default: ret = aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, addr_trampoline); break;
  }
  if (ret == ACL_SUCCESS) {
    PyObject *old = alloc_fns[kind];
    Py_INCREF(fn);
    alloc_fns[kind] = fn;
    Py_XDECREF(old);
  }
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_allocator_set_alloc_func_to_desc) {
  (void)self;
  return set_func("acl.rt.allocator_set_alloc_func_to_desc", K_ALLOC, args, nargs);
}

static PYACL_FASTCALL(py_allocator_set_free_func_to_desc) {
  (void)self;
  return set_func("acl.rt.allocator_set_free_func_to_desc", K_FREE, args, nargs);
}

static PYACL_FASTCALL(py_allocator_set_alloc_advise_func_to_desc) {
  (void)self;
  return set_func("acl.rt.allocator_set_alloc_advise_func_to_desc", K_ADVISE, args, nargs);
}

static PYACL_FASTCALL(py_allocator_set_get_addr_from_block_func_to_desc) {
  (void)self;
  return set_func("acl.rt.allocator_set_get_addr_from_block_func_to_desc", K_ADDR, args, nargs);
}

static PYACL_FASTCALL(py_allocator_register) {
  (void)self;
  void *stream, *desc;
  if (!pyacl_parse("acl.rt.allocator_register", args, nargs, "pp", &stream, &desc))
    return NULL;
  return pyacl_ret(aclrtAllocatorRegister((aclrtStream)stream, desc));
}

static PYACL_FASTCALL(py_allocator_unregister) {
  (void)self;
  void *stream;
  if (!pyacl_parse("acl.rt.allocator_unregister", args, nargs, "p", &stream))
    return NULL;
  return pyacl_ret(aclrtAllocatorUnregister((aclrtStream)stream));
}

PyMethodDef pyacl_rt_allocator_methods[] = {
    PYACL_FN("allocator_create_desc", py_allocator_create_desc),
    PYACL_FN("allocator_destroy_desc", py_allocator_destroy_desc),
    PYACL_FN("allocator_set_obj_to_desc", py_allocator_set_obj_to_desc),
    PYACL_FN("allocator_set_alloc_func_to_desc", py_allocator_set_alloc_func_to_desc),
    PYACL_FN("allocator_set_free_func_to_desc", py_allocator_set_free_func_to_desc),
    PYACL_FN("allocator_set_alloc_advise_func_to_desc", py_allocator_set_alloc_advise_func_to_desc),
    PYACL_FN("allocator_set_get_addr_from_block_func_to_desc", py_allocator_set_get_addr_from_block_func_to_desc),
    PYACL_FN("allocator_register", py_allocator_register),
    PYACL_FN("allocator_unregister", py_allocator_unregister),
    {NULL, NULL, 0, NULL},
};
