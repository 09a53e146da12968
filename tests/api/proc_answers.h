/*
 * proc_answers.h - the answers the helper processes of the multi-process
 * tests (ipc_proc.c, vmm_proc.c, ipc_signal_proc.c) give on stdout, one line
 * each, read by proc_driver.h on the test's side.
 */
#ifndef OPENACL_TEST_PROC_ANSWERS_H
#define OPENACL_TEST_PROC_ANSWERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

/* "ok", or "rc <code>". */
static inline void reply_rc(aclError rc) {
  if (rc == ACL_SUCCESS)
    printf("ok\n");
  else
    printf("rc %d\n", (int)rc);
}

/* "sum <n>": the sum of the first n bytes of device memory dev, read with
 * aclrtMemcpy; or "rc <code>". */
static inline void reply_sum(const void *dev, size_t n) {
  unsigned char *h = malloc(n);
  aclError rc = aclrtMemcpy(h, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST);
  unsigned long long s = 0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  free(h);
  if (rc == ACL_SUCCESS)
    printf("sum %llu\n", s);
  else
    reply_rc(rc);
}

/* Writes n bytes of value byte to device memory dev with aclrtMemcpy. */
static inline aclError write_bytes(void *dev, int byte, size_t n) {
  unsigned char *h = malloc(n);
  memset(h, byte, n);
  aclError rc = aclrtMemcpy(dev, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE);
  free(h);
  return rc;
}

#endif
