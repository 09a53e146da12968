/*
 * ranktable.c - HcclCommInitClusterInfo[Config]: a communicator from a rank
 * table file (reference §3.1) instead of a root info.
 *
 * Versions "1.0" / "1.2" (server_list[].device[] with string rank_id,
 * device_id) and "2.0" (rank_list[] with numeric rank_id, device_id) are
 * read; nRanks is the number of devices listed, and the caller's rank must
 * be one of the rank_ids, which must be 0 .. nRanks - 1 once each.
 * device_ip, ports and super-pod fields are accepted and ignored: MPI
 * carries the data.
 *
 * The rendezvous is the root info one (comm.c) with an id made from the
 * file's bytes, so every rank that reads the same file meets the others.
 * Under mpirun the root process is MPI_COMM_WORLD rank 0, which must hold a
 * rank of the table (the vendor's pattern C: every process of the job
 * holds one); outside an MPI job every rank must be in this process.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hccl/hccl_int.h"

#define HCCL__RANKTABLE_PATH_MAX 4096

/* A field that the vendor writes as a string ("3") but version 2.0 as a
 * number.  -1 when absent or not a non-negative integer. */
static long long hccl__rt_int(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (json_is_integer(v))
    return json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
  if (json_is_string(v)) {
    const char *s = json_string_value(v);
    char *end;
    long long x = strtoll(s, &end, 10);
    return *s != '\0' && *end == '\0' && x >= 0 ? x : -1;
  }
  return -1;
}

/* FNV-1a over the file's bytes: the communicator id every reader agrees on. */
static uint64_t hccl__hash(const char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; i++) {
    h ^= (uint8_t)p[i];
    h *= 0x100000001b3u;
  }
  return h != 0 ? h : 1;
}

/* Reads the table: the number of ranks.  0 or a recorded error. */
static HcclResult hccl__rt_parse(const char *api, const char *path, const char *text, size_t len, uint32_t rank,
                                 uint32_t *nranks) {
  json_error_t err;
  json_t *root = json_loadb(text, len, 0, &err);
  HcclResult rc = HCCL_SUCCESS;
  uint8_t *seen = NULL;
  if (root == NULL || !json_is_object(root)) {
    rc = hccl__fail(api, HCCL_E_PARA, "rank table %s: %s at line %d, column %d. Remedy: write valid JSON (the "
                    "vendor's documentation shows comments that must be removed)", path,
                    root == NULL ? err.text : "not a JSON object", root == NULL ? err.line : 1,
                    root == NULL ? err.column : 1);
    goto done;
  }
  json_t *status = json_object_get(root, "status");
  if (!json_is_string(status) || strcmp(json_string_value(status), "completed") != 0) {
    rc = hccl__fail(api, HCCL_E_PARA, "rank table %s: status is %s, not \"completed\"", path,
                    json_is_string(status) ? json_string_value(status) : "missing");
    goto done;
  }
  /* every device entry, whatever the version */
  json_t *devs = json_array();
  json_t *servers = json_object_get(root, "server_list"), *ranks = json_object_get(root, "rank_list");
  size_t i, j;
  json_t *srv, *dev;
  if (json_is_array(servers)) {
    json_array_foreach(servers, i, srv) {
      json_t *list = json_object_get(srv, "device");
      if (!json_is_array(list)) {
        json_decref(devs);
        rc = hccl__fail(api, HCCL_E_PARA, "rank table %s: server_list[%zu] has no device array", path, i);
        goto done;
      }
      json_array_foreach(list, j, dev) json_array_append(devs, dev);
    }
  } else if (json_is_array(ranks)) {
    json_array_foreach(ranks, i, dev) json_array_append(devs, dev);
  } else {
    json_decref(devs);
    rc = hccl__fail(api, HCCL_E_PARA, "rank table %s has neither server_list (versions 1.0, 1.2) nor rank_list "
                    "(2.0)", path);
    goto done;
  }
  size_t n = json_array_size(devs);
  seen = calloc(n ? n : 1, 1);
  int mine = 0;
  json_array_foreach(devs, i, dev) {
    long long r = hccl__rt_int(dev, "rank_id"), d = hccl__rt_int(dev, "device_id");
    if (r < 0 || (size_t)r >= n || d < 0 || seen == NULL || seen[r]) {
      rc = hccl__fail(api, HCCL_E_PARA, "rank table %s: device entry %zu has %s (rank_id must be 0 .. %zu, each "
                      "once; device_id a number)", path, i,
                      r < 0 || (size_t)r >= n ? "a bad rank_id" : d < 0 ? "a bad device_id" : "a repeated rank_id",
                      n - 1);
      break;
    }
    seen[r] = 1;
    mine |= (uint32_t)r == rank;
  }
  json_decref(devs);
  if (rc == HCCL_SUCCESS && (n == 0 || !mine))
    rc = hccl__fail(api, HCCL_E_PARA, "rank %u is not a rank_id of rank table %s (it lists %zu)", rank, path, n);
  if (rc == HCCL_SUCCESS)
    *nranks = (uint32_t)n;
done:
  free(seen);
  json_decref(root);
  return rc;
}

static HcclResult hccl__init_cluster(const char *api, const char *path, uint32_t rank, HcclCommConfig *config,
                                     HcclComm *comm) {
  if (path == NULL || comm == NULL)
    return hccl__fail(api, HCCL_E_PTR, "%s is NULL", path == NULL ? "clusterInfo" : "comm");
  if (strnlen(path, HCCL__RANKTABLE_PATH_MAX) >= HCCL__RANKTABLE_PATH_MAX)
    return hccl__fail(api, HCCL_E_PARA, "clusterInfo is a path of %d bytes or more", HCCL__RANKTABLE_PATH_MAX);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return hccl__fail(api, HCCL_E_OPEN_FILE_FAILURE, "cannot open rank table %s: %s", path, strerror(errno));
  char *text = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 > cap) {
      char *t = realloc(text, cap = cap ? cap * 2 : 65536);
      if (t == NULL)
        break;
      text = t;
    }
    size_t got = fread(text + len, 1, cap - len, f);
    len += got;
    if (got == 0)
      break;
  }
  fclose(f);
  if (text == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory reading %s", path);
  uint32_t n = 0;
  HcclResult rc = hccl__rt_parse(api, path, text, len, rank, &n);
  if (rc == HCCL_SUCCESS) {
    int world = -1, size = 0;
    rc = hccl__mpi_ensure(api, 0, &world, &size);
    int32_t dev = -1;
    if (aclrtGetDevice(&dev) != ACL_SUCCESS)
      dev = -1;
    hccl__rootinfo ri;
    hccl__rootinfo_fill(&ri, hccl__hash(text, len), size > 1 ? 0 : -1, dev, "hccl_world_group");
    hccl__comm *c = NULL;
    if (rc == HCCL_SUCCESS && (rc = hccl__comm_init(api, n, &ri, rank, config, &c)) == HCCL_SUCCESS)
      *comm = c;
  }
  free(text);
  return rc;
}

HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm) {
  return hccl__init_cluster(__func__, clusterInfo, rank, NULL, comm);
}

HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank, HcclCommConfig *config,
                                         HcclComm *comm) {
  if (config == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "config is NULL. Remedy: pass a config set up by HcclCommConfigInit");
  return hccl__init_cluster(__func__, clusterInfo, rank, config, comm);
}
