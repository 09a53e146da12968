/*
 * ipc_value_kernel.c - the kernels the IPC memory samples (ipc_mem_*.c)
 * launch where the vendor's samples run the AscendC kernels DeviceWrite and
 * DeviceRead (example/kernel_func/write_read_value.cpp): one writes a value
 * into device memory and prints "Source data: <value>", the other prints
 * "Destination data: <value>" from device memory.  The vendor's kernels
 * print with the device's printf; these print with the host's, from the
 * device's executor thread.  Arguments, packed by the host: the device
 * pointer, then (write_value only) the int32 value.
 */
#include <stdio.h>

#include "openacl/kernel.h"

struct value_args {
  int32_t *data;
  int32_t value;
};

OPENACL_KERNEL(write_value)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct value_args))
    return 1;
  const struct value_args *a = (const struct value_args *)args;
  if (block_idx == 0) {
    a->data[0] = a->value;
    printf("Source data: %d\n", (int)a->data[0]);
  }
  return 0;
}

OPENACL_KERNEL(read_value)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(int32_t *))
    return 1;
  const int32_t *data = *(int32_t *const *)args;
  if (block_idx == 0)
    printf("Destination data: %d\n", (int)data[0]);
  return 0;
}
