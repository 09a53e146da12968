/*
 * devices.c - `openacl devices [--json]`: the devices this process sees,
 * after the visibility variables (ASCEND_VISIBLE_DEVICES,
 * ASCEND_RT_VISIBLE_DEVICES) and the simulation's own (OPENACL_DEVICE_COUNT,
 * OPENACL_DEVICE_MEMORY, OPENACL_EXECUTOR_THREADS, OPENACL_SOC_NAME).
 *
 * Listing brings no device up: everything comes from aclrtGetDeviceInfo,
 * which reads what aclInit discovered, so no executor thread starts and no
 * device memory is reserved.  (Free memory would need aclrtSetDevice first,
 * and on a device nobody uses it equals the capacity anyway.)
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "openacl/openacl.h"
#include "tool.h"

typedef struct device_row {
  uint32_t id;
  int64_t physical_id, memory, threads, ai_cores, vector_cores;
} device_row;

static void devices_help(FILE *f) {
  fprintf(f, "usage: openacl devices [--json]\n"
             "\n"
             "Lists the devices this process sees: id, physical id, backend, SoC name,\n"
             "memory capacity and executor threads, then the processes of this user that use\n"
             "each shared device and the memory each holds (docs/processes.md).  Nothing is\n"
             "started to list them.\n"
             "\n"
             "  --json      a JSON array, one object per device: id, physical_id, backend,\n"
             "              soc_name, memory_bytes, executor_threads, ai_cores, vector_cores,\n"
             "              processes (pid, name, memory_bytes)\n"
             "  -h, --help  this text\n"
             "\n"
             "Environment: ASCEND_VISIBLE_DEVICES, ASCEND_RT_VISIBLE_DEVICES (which devices,\n"
             "renumbered in the listed order), OPENACL_BACKEND, OPENACL_DEVICE_COUNT,\n"
             "OPENACL_DEVICE_MEMORY, OPENACL_EXECUTOR_THREADS, OPENACL_SOC_NAME\n"
             "(docs/environment.md).\n");
}

/* The backend's name.  No public function reports it, so it is read from the
 * effective configuration's "environment" object when the library puts it
 * there, and otherwise from OPENACL_BACKEND with the library's own rule
 * (cpu or null; anything else, or unset, means cpu). */
static void backend_name(char *out, size_t size) {
  size_t needed = 0;
  char *cfg = NULL;
  snprintf(out, size, "cpu");
  if (openaclGetEffectiveConfig(NULL, 0, &needed) == ACL_ERROR_INVALID_PARAM && needed > 0 &&
      (cfg = malloc(needed)) != NULL && openaclGetEffectiveConfig(cfg, needed, &needed) == ACL_SUCCESS) {
    const char *key = "\"OPENACL_BACKEND\": \"";
    const char *at = strstr(cfg, key);
    if (at != NULL) {
      at += strlen(key);
      size_t len = strcspn(at, "\"");
      snprintf(out, size, "%.*s", (int)(len < size ? len : size - 1), at);
      goto cleanup;
    }
  }
  const char *env = getenv("OPENACL_BACKEND");
  if (env != NULL && strcmp(env, "null") == 0)
    snprintf(out, size, "null");
cleanup:
  free(cfg);
}

/* Reads one attribute; 0 or an exit code (the error printed). */
static int device_attr(uint32_t id, aclrtDevAttr attr, const char *attr_name, int64_t *value) {
  aclError rc = aclrtGetDeviceInfo(id, attr, value);
  if (rc == ACL_SUCCESS)
    return 0;
  char what[96];
  snprintf(what, sizeof(what), "cannot read %s of device %u", attr_name, id);
  return tool_acl_error(what, "aclrtGetDeviceInfo", rc);
}

static void json_string(const char *s) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      printf("\\%c", *p);
    else if (*p < 0x20)
      printf("\\u%04x", *p);
    else
      putchar(*p);
  }
  putchar('"');
}

/* 34359738368 -> "32.0 GiB". */
static void human_bytes(int64_t bytes, char *out, size_t size) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)bytes;
  size_t u = 0;
  while (v >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
    v /= 1024.0;
    u++;
  }
  snprintf(out, size, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
}

static void print_table(const device_row *rows, uint32_t n, const char *backend, const char *soc) {
  size_t soc_w = strlen(soc) > 8 ? strlen(soc) : 8;
  printf("%-3s %-4s %-8s %-*s %10s %8s\n", "ID", "PHYS", "BACKEND", (int)soc_w, "SOC", "MEMORY", "THREADS");
  for (uint32_t i = 0; i < n; i++) {
    char mem[32];
    human_bytes(rows[i].memory, mem, sizeof(mem));
    printf("%-3u %-4lld %-8s %-*s %10s %8lld\n", rows[i].id, (long long)rows[i].physical_id, backend, (int)soc_w, soc,
           mem, (long long)rows[i].threads);
  }
}

/* The processes of this user using device id (a shared device's registry;
 * none for per-process devices). */
#define MAX_PROCS 64
typedef struct device_procs {
  uint32_t n;
  uint64_t capacity, in_use;
  openaclDeviceProcess p[MAX_PROCS];
} device_procs;

static void read_procs(uint32_t id, device_procs *dp) {
  memset(dp, 0, sizeof(*dp));
  if (openaclGetDeviceProcesses((int32_t)id, dp->p, MAX_PROCS, &dp->n, &dp->capacity, &dp->in_use) != ACL_SUCCESS) {
    (void)aclGetRecentErrMsg();
    dp->n = 0;
  }
}

/* Under the table, as the vendor's npu-smi lists them: who holds what. */
static void print_procs(uint32_t n) {
  int any = 0;
  for (uint32_t i = 0; i < n; i++) {
    device_procs dp;
    read_procs(i, &dp);
    if (dp.n == 0)
      continue;
    if (!any)
      printf("\n%-3s %-8s %-16s %12s\n", "ID", "PID", "PROCESS", "MEMORY");
    any = 1;
    for (uint32_t k = 0; k < dp.n && k < MAX_PROCS; k++) {
      char mem[32];
      human_bytes((int64_t)dp.p[k].memoryBytes, mem, sizeof(mem));
      printf("%-3u %-8d %-16s %12s\n", i, (int)dp.p[k].pid, dp.p[k].name, mem);
    }
  }
  if (!any)
    printf("\nno process of this user uses a device now\n");
}

static void print_json(const device_row *rows, uint32_t n, const char *backend, const char *soc) {
  puts("[");
  for (uint32_t i = 0; i < n; i++) {
    printf("  {\"id\": %u, \"physical_id\": %lld, \"backend\": ", rows[i].id, (long long)rows[i].physical_id);
    json_string(backend);
    fputs(", \"soc_name\": ", stdout);
    json_string(soc);
    printf(", \"memory_bytes\": %lld, \"executor_threads\": %lld, \"ai_cores\": %lld, \"vector_cores\": %lld",
           (long long)rows[i].memory, (long long)rows[i].threads, (long long)rows[i].ai_cores,
           (long long)rows[i].vector_cores);
    device_procs dp;
    read_procs(rows[i].id, &dp);
    fputs(", \"processes\": [", stdout);
    for (uint32_t k = 0; k < dp.n && k < MAX_PROCS; k++) {
      printf("%s{\"pid\": %d, \"name\": ", k ? ", " : "", (int)dp.p[k].pid);
      json_string(dp.p[k].name);
      printf(", \"memory_bytes\": %llu}", (unsigned long long)dp.p[k].memoryBytes);
    }
    printf("]}%s\n", i + 1 < n ? "," : "");
  }
  puts("]");
}

int tool_cmd_devices(int argc, char **argv) {
  int json = 0, rc = TOOL_OK, initialised = 0;
  uint32_t n = 0;
  device_row *rows = NULL;
  const char *soc = NULL;
  char backend[32];
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      devices_help(stdout);
      return TOOL_OK;
    }
    if (strcmp(argv[i], "--json") == 0)
      json = 1;
    else if (argv[i][0] == '-')
      return tool_usage_error("devices", "unknown option '%s' for 'openacl devices'", argv[i]);
    else
      return tool_usage_error("devices", "'openacl devices' takes no arguments (got '%s')", argv[i]);
  }

  rc = tool_acl_init();
  if (rc != 0)
    goto cleanup;
  initialised = 1;
  aclError arc = aclrtGetDeviceCount(&n);
  if (arc != ACL_SUCCESS) {
    rc = tool_acl_error("cannot list the devices", "aclrtGetDeviceCount", arc);
    goto cleanup;
  }
  rows = calloc(n ? n : 1, sizeof(*rows));
  if (rows == NULL) {
    tool_error("out of host memory for %u devices", n);
    rc = TOOL_FAIL;
    goto cleanup;
  }
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    rows[i].id = i;
    rc = device_attr(i, ACL_DEV_ATTR_PHY_CHIP_ID, "the physical id", &rows[i].physical_id);
    if (rc == 0)
      rc = device_attr(i, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, "the memory capacity", &rows[i].memory);
    /* AI-CPU cores are what openacl reports as executor threads (docs/devices.md). */
    if (rc == 0)
      rc = device_attr(i, ACL_DEV_ATTR_AICPU_CORE_NUM, "the executor threads", &rows[i].threads);
    if (rc == 0)
      rc = device_attr(i, ACL_DEV_ATTR_AICORE_CORE_NUM, "the AI-core count", &rows[i].ai_cores);
    if (rc == 0)
      rc = device_attr(i, ACL_DEV_ATTR_VECTOR_CORE_NUM, "the vector-core count", &rows[i].vector_cores);
  }
  if (rc != 0)
    goto cleanup;
  /* All simulated devices share one SoC name: the first visible device's. */
  soc = aclrtGetSocName();
  backend_name(backend, sizeof(backend));
  if (json)
    print_json(rows, n, backend, soc ? soc : "");
  else {
    print_table(rows, n, backend, soc ? soc : "?");
    print_procs(n);
  }

cleanup:
  free(rows);
  if (initialised)
    aclFinalize();
  return rc;
}
