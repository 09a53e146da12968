/*
 * omp.c - the OpenMP runtime oneDNN runs its parallel loops on, seen from
 * the engine: the calling thread's team size (the engine's thread budget)
 * and parallel loops of the engine's own kernels on the same team.  The
 * runtime's functions are looked up, not linked: the library is not built
 * with -fopenmp, and a clang build must not pull in a second OpenMP
 * runtime next to oneDNN's libgomp.
 */
#include "model/engine/engine_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/* the calling thread's team size is its nthreads-var */
static void (*omp_set_threads)(int);
static int (*omp_get_threads)(void);
/* the engine's own kernels (kernels.c) run on the same team: libgomp's entry
 * point for a parallel region (what gcc emits for `#pragma omp parallel`) */
static void (*gomp_parallel)(void (*)(void *), void *, unsigned, unsigned);
static int (*omp_thread_num)(void);
static int (*omp_num_threads)(void);
static pthread_once_t omp_once = PTHREAD_ONCE_INIT;
static void *omp_sym(void *lib, const char *name) {
  void *f = lib != NULL ? dlsym(lib, name) : NULL;
  return f != NULL ? f : dlsym(RTLD_DEFAULT, name);
}
static void omp_lookup(void) {
  /* libdnnl's runtime by name first: a library loaded with RTLD_LOCAL (a
   * Python extension module) leaves its dependencies out of RTLD_DEFAULT */
  void *lib = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
  *(void **)&omp_set_threads = omp_sym(lib, "omp_set_num_threads");
  *(void **)&omp_get_threads = omp_sym(lib, "omp_get_max_threads");
  *(void **)&gomp_parallel = omp_sym(lib, "GOMP_parallel");
  *(void **)&omp_thread_num = omp_sym(lib, "omp_get_thread_num");
  *(void **)&omp_num_threads = omp_sym(lib, "omp_get_num_threads");
  if (gomp_parallel == NULL || omp_thread_num == NULL || omp_num_threads == NULL || omp_get_threads == NULL)
    gomp_parallel = NULL;
  if (lib != NULL)
    dlclose(lib); /* RTLD_NOLOAD took a reference; libdnnl keeps the library loaded */
}

typedef struct par_job {
  size_t n;
  void (*fn)(void *ctx, size_t begin, size_t end);
  void *ctx;
} par_job;

static void par_body(void *arg) {
  const par_job *j = arg;
  size_t t = (size_t)omp_thread_num(), nt = (size_t)omp_num_threads();
  size_t begin = j->n * t / nt, end = j->n * (t + 1) / nt;
  if (begin < end)
    j->fn(j->ctx, begin, end);
}

void acl__engine_parallel(size_t n, void (*fn)(void *ctx, size_t begin, size_t end), void *ctx) {
  pthread_once(&omp_once, omp_lookup);
  if (n == 0)
    return;
  if (gomp_parallel == NULL || n == 1 || omp_get_threads() <= 1) { /* a team of one (and under TSan) */
    fn(ctx, 0, n);
    return;
  }
  par_job j = {n, fn, ctx};
  gomp_parallel(par_body, &j, 0, 0); /* 0 threads: the calling thread's team size, as oneDNN's loops use */
}


int acl__engine_team(int threads) {
#if defined(__SANITIZE_THREAD__)
  threads = 1; /* libgomp is not instrumented: a team would only produce false reports */
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  threads = 1;
#endif
#endif
  return threads > 0 ? threads : 1;
}

void acl__engine_set_threads(int threads) {
  pthread_once(&omp_once, omp_lookup);
  if (omp_set_threads != NULL)
    omp_set_threads(acl__engine_team(threads));
}

int acl__engine_caller_team(void) {
  pthread_once(&omp_once, omp_lookup);
  return omp_get_threads != NULL ? omp_get_threads() : -1;
}
