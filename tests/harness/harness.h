/*
 * harness.h - openacl's small test harness.
 *
 *   TEST(init_returns_zero) { CHECK_INT_EQ(aclInit(NULL), 0); ... }
 *
 * Each test binary holds several TEST()s; `binary NAME` runs one (that is
 * how ctest runs them, one process each, so process-wide state such as
 * aclInit never leaks between tests), `binary` runs all, each in a forked
 * child, `binary --list` prints the names.  tests/CMakeLists.txt finds the
 * TEST(...) lines and registers each as "<group>/<name>" with a timeout.
 *
 * A failed CHECK prints both values with file:line and ends the test with
 * exit status 1.
 */
#ifndef OPENACL_TEST_HARNESS_H
#define OPENACL_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TH_SANITIZED is 1 in ASan and TSan builds (gcc or clang): such builds own
 * malloc and cannot fork safely while other threads run. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TH_SANITIZED 1
#endif
#endif
#ifndef TH_SANITIZED
#define TH_SANITIZED 0
#endif

typedef void (*th_fn)(void);
void th_register(const char *name, th_fn fn);
int th_main(int argc, char **argv);
void th_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));

#define TEST(name)                                                          \
  static void name(void);                                                   \
  __attribute__((constructor)) static void th_reg_##name(void) { th_register(#name, name); } \
  static void name(void)

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) th_fail(__FILE__, __LINE__, "CHECK(%s) failed", #cond);     \
  } while (0)

#define CHECK_INT_EQ(a, b)                                                   \
  do {                                                                       \
    long long th_a = (long long)(a), th_b = (long long)(b);                  \
    if (th_a != th_b)                                                        \
      th_fail(__FILE__, __LINE__, "%s == %s failed: %lld != %lld", #a, #b, th_a, th_b); \
  } while (0)

#define CHECK_INT_NE(a, b)                                                   \
  do {                                                                       \
    long long th_a = (long long)(a), th_b = (long long)(b);                  \
    if (th_a == th_b)                                                        \
      th_fail(__FILE__, __LINE__, "%s != %s failed: both %lld", #a, #b, th_a); \
  } while (0)

#define CHECK_STR_EQ(a, b)                                                   \
  do {                                                                       \
    const char *th_a = (a), *th_b = (b);                                     \
    if (th_a == NULL || th_b == NULL || strcmp(th_a, th_b) != 0)             \
      th_fail(__FILE__, __LINE__, "%s == %s failed: \"%s\" != \"%s\"", #a, #b, \
              th_a ? th_a : "(null)", th_b ? th_b : "(null)");               \
  } while (0)

/* haystack contains needle */
#define CHECK_STR_HAS(hay, needle)                                           \
  do {                                                                       \
    const char *th_h = (hay), *th_n = (needle);                              \
    if (th_h == NULL || strstr(th_h, th_n) == NULL)                          \
      th_fail(__FILE__, __LINE__, "%s does not contain \"%s\"; it is: \"%s\"", #hay, th_n, \
              th_h ? th_h : "(null)");                                       \
  } while (0)

#define CHECK_NULL(p)                                                        \
  do {                                                                       \
    const void *th_p = (const void *)(p);                                    \
    if (th_p != NULL) th_fail(__FILE__, __LINE__, "%s is not NULL", #p);     \
  } while (0)

#define CHECK_NOT_NULL(p)                                                    \
  do {                                                                       \
    if ((p) == NULL) th_fail(__FILE__, __LINE__, "%s is NULL", #p);          \
  } while (0)

/* Helpers for tests. */
/* A fresh empty directory under $TMPDIR (or /tmp), malloc'd path. */
char *th_tmpdir(void);
/* Writes text to dir/name; returns the malloc'd path. */
char *th_write_file(const char *dir, const char *name, const char *text);
/* Reads a whole file; malloc'd, NUL-terminated; NULL if unreadable. */
char *th_read_file(const char *path);
/* rm -rf of a directory made by th_tmpdir. */
void th_rmtree(const char *path);
/* Monotonic clock in nanoseconds. */
uint64_t th_now_ns(void);

#endif
