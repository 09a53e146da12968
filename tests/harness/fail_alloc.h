/*
 * fail_alloc.h - allocation counting and failure injection for tests.
 *
 * fail_alloc.c interposes malloc, calloc, realloc and free for the whole
 * process (the library and its dependencies included), forwarding to
 * glibc's __libc_* functions.  Add it to the SOURCES of the tests that use
 * it; it is empty in sanitizer builds (TH_SANITIZED), whose runtimes own
 * malloc, and those tests skip themselves there.
 */
#ifndef OPENACL_TEST_FAIL_ALLOC_H
#define OPENACL_TEST_FAIL_ALLOC_H

/* Allocation calls made so far, and allocations not yet freed. */
long th_alloc_calls(void);
long th_alloc_live(void);

/* Runs scenario(arg) once to count the allocations it makes, then once per
 * allocation with that one failing.  After each run settle() releases what
 * the calling thread may still hold (NULL: nothing); the test fails if a run
 * left more or fewer allocations live than before it.  Returns the number
 * of allocations one run makes. */
long th_fail_each_allocation(void (*scenario)(void *arg), void *arg, void (*settle)(void));

#endif
