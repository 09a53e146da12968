/*
 * util_thread.c - acl.util.start_thread and acl.util.stop_thread (pyacl.md
 * §2.4, §3.6): the joinable pthreads that pyACL scripts run their
 * acl.rt.process_report loops in.
 *
 * start_thread(fn, arg) -> (tid, ret) starts a pthread that takes a Python
 * thread state (PyGILState_Ensure) for its whole life and calls fn(arg), or
 * fn() when arg is None.  tid is its pthread_t, which is also
 * threading.get_ident() inside it and the id acl.rt.subscribe_report wants
 * (openacl's C layer matches report threads by pthread_self()).  If fn
 * raises, the traceback goes to sys.stderr and the record
 * "exception=<TypeName>,msg=thread call failed" is kept for the thread;
 * stop_thread(tid) joins it and raises RuntimeError with the records, or
 * returns pthread_join's errno.
 *
 * One entry per started, not yet joined thread lives in a table guarded by
 * `table_lock`.  The thread writes its record into its own entry (found by
 * pointer, not by tid, so a thread that ends before start_thread has filed
 * the entry is no race); stop_thread unlinks and frees the entry after the
 * join.  Knowing its threads also lets stop_thread refuse a tid it did not
 * start, or one already joined, with an errno (ESRCH) instead of handing
 * pthread_join a dangling pthread_t, which crashes in pyACL.
 *
 * A thread that is never stopped keeps its entry (a few bytes), as a never
 * joined pthread keeps its stack: the vendor's behaviour, and the script's
 * bug.  A thread still running when the interpreter exits is ended by
 * CPython when it next tries to take the GIL.
 */
#include "pyacl.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

typedef struct thread_entry {
  struct thread_entry *next; /* table link (table_lock) */
  uint64_t tid;              /* set once filed (table_lock) */
  int joining;               /* a stop_thread is joining it (table_lock) */
  char *records;             /* "rec;rec", PyMem_Raw, or NULL (table_lock) */
  PyObject *fn, *arg;        /* owned until the thread has called fn (the GIL) */
} thread_entry;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static thread_entry *table; /* started, not yet joined threads (table_lock) */

/* Appends `rec` to the entry's records, ';'-separated.  Called with the GIL
 * held; table_lock is taken inside and no Python call is made under it, so
 * the two locks never wait for each other. */
static void add_record(thread_entry *e, const char *rec) {
  pthread_mutex_lock(&table_lock);
  size_t old = e->records ? strlen(e->records) : 0;
  size_t len = old + (old ? 1 : 0) + strlen(rec) + 1;
  char *s = PyMem_RawRealloc(e->records, len);
  if (s) {
    snprintf(s + old, len - old, "%s%s", old ? ";" : "", rec);
    e->records = s;
  } /* out of memory: the record is lost; the traceback was still printed */
  pthread_mutex_unlock(&table_lock);
}

/* Records "exception=<TypeName>,msg=thread call failed", as pyACL. */
static void record_type(thread_entry *e, PyObject *type) {
  char rec[200];
  snprintf(rec, sizeof rec, "exception=%.150s,msg=thread call failed",
           type && PyType_Check(type) ? ((PyTypeObject *)type)->tp_name : "unknown");
  add_record(e, rec);
}

/* Prints the pending exception's traceback to sys.stderr and records it.
 * Not PyErr_Print: that would exit the process on SystemExit and set
 * sys.last_*, which belong to the main thread's interactive session. */
static void report_exception(thread_entry *e) {
#if PY_VERSION_HEX >= 0x030C0000 /* PyErr_Fetch is deprecated from 3.12 */
  PyObject *exc = PyErr_GetRaisedException();
  record_type(e, exc ? (PyObject *)Py_TYPE(exc) : NULL);
  if (exc)
    PyErr_DisplayException(exc);
  Py_XDECREF(exc);
#else
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value && tb)
    PyException_SetTraceback(value, tb);
  record_type(e, type);
  if (type)
    PyErr_Display(type, value, tb);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
#endif
  PyErr_Clear(); /* PyErr_Display reports its own failures; nothing may stay pending */
}

static void *thread_main(void *p) {
  thread_entry *e = p;
  /* The thread state lives as long as the thread: fn runs as any Python
   * thread, and C callbacks it triggers (process_report) re-take the GIL on
   * this same state. */
  PyGILState_STATE st = PyGILState_Ensure();
  PyObject *res = e->arg == Py_None ? PyObject_CallObject(e->fn, NULL)
                                    : PyObject_CallFunctionObjArgs(e->fn, e->arg, NULL);
  if (res)
    Py_DECREF(res);
  else
    report_exception(e);
  Py_CLEAR(e->fn);
  Py_CLEAR(e->arg);
  PyGILState_Release(st);
  return NULL;
}

static PYACL_FASTCALL(py_start_thread) {
  (void)self;
  PyObject *fn, *arg;
  if (!pyacl_parse("acl.util.start_thread", args, nargs, "cO", &fn, &arg))
    return NULL;
  thread_entry *e = PyMem_RawCalloc(1, sizeof *e);
  if (!e)
    return PyErr_NoMemory();
  Py_INCREF(fn);
  Py_INCREF(arg);
  e->fn = fn;
  e->arg = arg;
  pthread_t tid;
  int rc;
  /* The GIL is released around pthread_create, as pyACL does: creating a
   * thread can take a while (stack mapping), and nothing needs the GIL. */
  Py_BEGIN_ALLOW_THREADS
  rc = pthread_create(&tid, NULL, thread_main, e);
  Py_END_ALLOW_THREADS
  if (rc != 0) {
    Py_DECREF(fn);
    Py_DECREF(arg);
    PyMem_RawFree(e);
    return pyacl_tuple_ret(PyLong_FromLong(0), (aclError)rc);
  }
  pthread_mutex_lock(&table_lock);
  e->tid = (uint64_t)tid;
  e->next = table;
  table = e;
  pthread_mutex_unlock(&table_lock);
  /*
   * As pyACL: SIGINT goes back to its default action, so Ctrl-C kills the
   * process.  Python's own SIGINT handler only sets a flag that the main
   * thread checks between bytecodes; a main thread blocked in stop_thread
   * (pthread_join, in C) never gets there, so without this a script whose
   * report loop never ends could not be interrupted at all.  The cost: no
   * KeyboardInterrupt anywhere in the process afterwards (a script may
   * install its own handler again with signal.signal).
   */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong((unsigned long long)(uint64_t)tid), ACL_SUCCESS);
}

static PYACL_FASTCALL(py_stop_thread) {
  (void)self;
  uint64_t tid;
  if (!pyacl_parse("acl.util.stop_thread", args, nargs, "K", &tid))
    return NULL;
  thread_entry *e;
  int rc = 0;
  pthread_mutex_lock(&table_lock);
  for (e = table; e && e->tid != tid; e = e->next)
    ;
  if (!e)
    rc = ESRCH; /* not a thread of start_thread, or joined already */
  else if (e->joining)
    rc = EINVAL; /* glibc's answer when another thread joins it already */
  else
    e->joining = 1;
  pthread_mutex_unlock(&table_lock);
  if (rc != 0)
    return pyacl_ret((aclError)rc);
  /* The join waits for fn to return, and fn needs the GIL to run. */
  Py_BEGIN_ALLOW_THREADS
  rc = pthread_join((pthread_t)tid, NULL);
  Py_END_ALLOW_THREADS
  char *records = NULL;
  pthread_mutex_lock(&table_lock);
  if (rc == 0) {
    thread_entry **pp = &table;
    while (*pp != e)
      pp = &(*pp)->next;
    *pp = e->next;
    records = e->records;
  } else {
    e->joining = 0; /* EDEADLK (fn stopping its own thread): still running */
  }
  pthread_mutex_unlock(&table_lock);
  if (rc == 0)
    PyMem_RawFree(e); /* fn and arg were released by the thread */
  if (records) {
    PyErr_SetString(PyExc_RuntimeError, records);
    PyMem_RawFree(records);
    return NULL;
  }
  return pyacl_ret((aclError)rc);
}

PyMethodDef pyacl_util_thread_methods[] = {
    PYACL_FN("start_thread", py_start_thread),
    PYACL_FN("stop_thread", py_stop_thread),
    {NULL, NULL, 0, NULL},
};
