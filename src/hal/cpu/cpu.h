/*
 * cpu.h - the simulated NPU backend's private declarations, shared by its
 * files: cpu.c (probe, open, close, clock), cpu_memory.c (the device memory
 * region and host-access protection: protection keys or a double mapping), cpu_module.c (kernel binaries).
 */
#ifndef OPENACL_HAL_CPU_CPU_H
#define OPENACL_HAL_CPU_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "hal/backend.h"

struct acl__backend_dev {
  int phys_id;
  acl__device_props props;
  void *mem_base;            /* the region handed to the runtime */
  size_t mem_size;
  int mem_mech;              /* ACL__MEMPROT_PKEYS, _ALIAS or _OFF (cpu_memory.c) */
  void *mem_alias;           /* alias: the read-write mapping device threads use */
  int mem_fd;                /* the shared-memory object behind the region (alias, or shareable), else -1 */
};

int acl__cpu_mem_reserve(acl__backend_dev *dev, uint64_t capacity, void **base);
void acl__cpu_mem_release(acl__backend_dev *dev);   /* device_close calls it */
void acl__cpu_access_begin(acl__backend_dev *dev);
void acl__cpu_access_end(acl__backend_dev *dev);
void *acl__cpu_mem_alias(acl__backend_dev *dev);
void acl__cpu_mem_discard(acl__backend_dev *dev, void *addr, size_t len);
const char *acl__cpu_mem_protection(acl__backend_dev *dev);
int acl__cpu_thread_has_access(void);
int acl__cpu_mem_fd(acl__backend_dev *dev);
int acl__cpu_mem_map_shared(acl__backend_dev *dev, void *addr, size_t len, int fd, uint64_t off);

int acl__cpu_module_load(acl__backend_dev *dev, const char *path, const void *data, size_t len, void **module,
                         char *why, size_t why_len);
int acl__cpu_module_get_function(void *module, const char *name, acl__kernel_entry *fn);
void acl__cpu_module_unload(void *module);
int acl__cpu_module_symbol(void *module, const char *name, int kind, void **addr, size_t *size, char *why,
                           size_t why_len);
int acl__cpu_module_symbol_at(void *module, const void *addr, void **start, size_t *size);

#endif
