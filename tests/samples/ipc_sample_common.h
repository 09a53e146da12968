/*
 * ipc_sample_common.h - what the IPC memory samples (ipc_mem_10_withpid_*.c,
 * ipc_mem_11_withoutpid_*.c) share, as the vendor's memory samples share
 * file_ops.cpp and kernel_func/write_read_value.cpp: the log macros, the
 * file protocol and the two kernels.
 *
 * File protocol (the vendor's): a writer writes ./file/<x>.bin, then creates
 * the empty ./file/<x>.bin.done; a reader polls for the .done file (the
 * vendor once per second, these every 100 ms), then reads the whole file.
 */
#ifndef OPENACL_IPC_SAMPLE_COMMON_H
#define OPENACL_IPC_SAMPLE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"

#define INFO_LOG(fmt, ...) printf("[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) printf("[ERROR]  " fmt "\n", ##__VA_ARGS__)

/* Writes size bytes to path, then path.done.  0 or -1 (logged). */
int WriteFile(const char *path, const void *data, size_t size);
/* Waits (up to 60 s) for path.done, then reads up to size bytes of path
 * into data (*got: how many).  0 or -1 (logged). */
int ReadFile(const char *path, void *data, size_t size, size_t *got);

/* Launches write_value (devPtr[0] = value; prints "Source data: <value>")
 * or read_value (prints "Destination data: <devPtr[0]>") from the kernel
 * binary at kernelPath on stream, and waits for it.  0 or -1 (logged). */
int DeviceWrite(const char *kernelPath, void *devPtr, int32_t value, aclrtStream stream);
int DeviceRead(const char *kernelPath, void *devPtr, aclrtStream stream);

#endif
