/*
 * ipc_sample_common.h - what the IPC memory samples (ipc_mem_proc_a.c,
 * ipc_mem_proc_b.c) share, as the vendor's memory samples share
 * kernel_func/write_read_value.cpp: the two kernels (the log macros and the
 * file protocol are sample_files.h).
 */
#ifndef OPENACL_IPC_SAMPLE_COMMON_H
#define OPENACL_IPC_SAMPLE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "sample_files.h" /* the log macros and the file protocol */

/* Launches write_value (devPtr[0] = value; prints "Source data: <value>")
 * or read_value (prints "Destination data: <devPtr[0]>") from the kernel
 * binary at kernelPath on stream, and waits for it.  0 or -1 (logged). */
int DeviceWrite(const char *kernelPath, void *devPtr, int32_t value, aclrtStream stream);
int DeviceRead(const char *kernelPath, void *devPtr, aclrtStream stream);

#endif
