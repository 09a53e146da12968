/*
 * ipc_load.c - one helper's share of the load in api/ipc/eight_processes_*
 * (tests/api/ipc.c): N processes on device 0 at once, each allocating and
 * freeing device memory of random sizes, copying and setting it, exporting
 * some of it and importing the others' exports, every byte checked.
 *
 * The processes meet through files in a directory the test gives (written
 * under a temporary name, then renamed):
 *   stable.<id>   the key of this process's "stable" buffer: N regions of
 *                 4 KiB and a 100-byte tail, set to 0x11, exported with the
 *                 pid whitelist (every process's pid); it lives until
 *                 "unload".  Every other process k imports it before
 *                 answering "started" and writes 0x40 + k into region k;
 *                 the imports stay open until "finish", which checks every
 *                 region of every stable buffer (including those of a
 *                 process killed meanwhile: an import keeps the pages).
 *   churn.<id>    "<key> <byte> <size>": the buffer this process exports now
 *                 (either whitelist flag), all of it set to <byte>.  Another
 *                 process imports it at random and checks the bytes.  The
 *                 exporter may close the key or free the buffer at any time,
 *                 so an import may fail (107000: the key is gone) and an
 *                 import may see other bytes (the exporter freed the buffer,
 *                 which kills the key first, and something else was put
 *                 there); a wrong byte counts only while a second import of
 *                 the key still succeeds.  An exporter never changes an
 *                 exported buffer while its key lives.
 *
 * Checked besides the bytes: the bytes this process holds on the device
 * (openaclGetDeviceProcesses) equal the sum of the vendor's sizing of its
 * live allocations, at random points and at the end; aclrtMalloc either
 * succeeds or fails with 207001 (the shared capacity is small on purpose).
 * Timing is never checked: the loop runs for <ms> milliseconds, and at least
 * 20 rounds.  "noalloc" (the process the test kills): its buffers are
 * allocated before the loop, which then only sets, copies, exports and
 * imports (an aclrtMalloc/aclrtFree cut by kill -9 can leak its bytes on
 * the device: docs/processes.md, "Tests").
 */
#define _GNU_SOURCE
#include "ipc_load.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "openacl/openacl.h"

#define MAX_PROCS 16
#define REGION 4096
#define TAIL 100
#define MAX_BUFS 24
#define STABLE_FILL 0x11
#define KEY_LEN 80

typedef struct {
  void *p;
  size_t size;
  unsigned char byte;
} buf_t;

static struct {
  int id, n, noalloc;
  int32_t pids[MAX_PROCS];
  char dir[256];
  uint64_t rng;
  void *stable;
  size_t stable_size;
  char stable_key[KEY_LEN];
  void *peer[MAX_PROCS];
  char peer_key[MAX_PROCS][KEY_LEN];
  buf_t bufs[MAX_BUFS];
  int nbufs;
  int churn; /* the exported buffer in bufs, -1: none */
  char churn_key[KEY_LEN];
  uint64_t mine; /* bytes charged for this process's live allocations */
  unsigned long rounds, allocs, oom, imports, excused;
  char why[400]; /* the first failure */
} L;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...) {
  if (L.why[0] != '\0')
    return;
  int n = snprintf(L.why, sizeof(L.why), "process %d: ", L.id);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(L.why + n, sizeof(L.why) - (size_t)n, fmt, ap);
  va_end(ap);
}

/* rc must be ACL_SUCCESS. */
static int ok(aclError rc, const char *what) {
  if (rc != ACL_SUCCESS)
    failf("%s: %d (%s)", what, (int)rc, aclGetRecentErrMsg());
  return rc == ACL_SUCCESS;
}

static uint64_t rnd(void) { /* xorshift64* */
  L.rng ^= L.rng >> 12;
  L.rng ^= L.rng << 25;
  L.rng ^= L.rng >> 27;
  return L.rng * 2685821657736338717ull;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* aclrtMalloc's charge: rounded up to 32, then 32 more (the vendor's sizing). */
static uint64_t charged(size_t n) { return ((n + 31) & ~(uint64_t)31) + 32; }

/* Reads [off, off + len) of device memory p: 0 when every byte is `byte`,
 * 1 when one differs (*bad: its offset, *got: its value), -1 when the copy
 * failed (recorded). */
static int dev_expect(const void *p, size_t off, size_t len, unsigned char byte, size_t *bad, unsigned *got) {
  if (len == 0)
    return 0;
  unsigned char *h = malloc(len);
  if (h == NULL) {
    failf("out of host memory");
    return -1;
  }
  int r = 0;
  if (!ok(aclrtMemcpy(h, len, (const char *)p + off, len, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H"))
    r = -1;
  for (size_t i = 0; r == 0 && i < len; i++)
    if (h[i] != byte) {
      *bad = off + i;
      *got = h[i];
      r = 1;
    }
  free(h);
  return r;
}

/* As dev_expect, recording a difference as the failure. */
static int dev_check(const void *p, size_t off, size_t len, unsigned char byte, const char *what) {
  size_t bad = 0;
  unsigned got = 0;
  int r = dev_expect(p, off, len, byte, &bad, &got);
  if (r == 1)
    failf("%s: byte %zu is 0x%02x, not 0x%02x", what, bad, got, byte);
  return r == 0;
}

static void write_file(const char *name, const char *text) {
  char tmp[300], path[300];
  snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", L.dir, name);
  snprintf(path, sizeof(path), "%s/%s", L.dir, name);
  FILE *f = fopen(tmp, "w");
  if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0)
    failf("cannot write %s", path);
}

/* The file's text into buf; 0 when it is there. */
static int read_file(const char *name, char *buf, size_t len) {
  char path[300];
  snprintf(path, sizeof(path), "%s/%s", L.dir, name);
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return -1;
  size_t n = fread(buf, 1, len - 1, f);
  buf[n] = '\0';
  fclose(f);
  return 0;
}

/* The bytes the registry says this process holds on device 0. */
static void check_own_bytes(const char *when) {
  openaclDeviceProcess procs[64];
  uint32_t count = 0;
  uint64_t cap = 0, in_use = 0;
  if (!ok(openaclGetDeviceProcesses(0, procs, 64, &count, &cap, &in_use), "openaclGetDeviceProcesses"))
    return;
  for (uint32_t i = 0; i < count && i < 64; i++)
    if (procs[i].pid == (int32_t)getpid()) {
      if (procs[i].memoryBytes != L.mine)
        failf("%s: the registry says this process holds %llu bytes, its allocations take %llu", when,
              (unsigned long long)procs[i].memoryBytes, (unsigned long long)L.mine);
      if (in_use > cap)
        failf("%s: %llu bytes in use on a device of %llu", when, (unsigned long long)in_use, (unsigned long long)cap);
      return;
    }
  failf("%s: this process is not in the registry (%u processes)", when, count);
}

/* ---- the stable buffers ------------------------------------------------------------ */

/* Region j of a stable buffer holds 0x40 + j once process j wrote it, 0x11
 * before; strict: every writer has written (region `owner` stays 0x11). */
static void check_stable(const void *p, int owner, int strict, const char *what) {
  size_t n = L.stable_size;
  unsigned char *h = malloc(n);
  if (h == NULL || !ok(aclrtMemcpy(h, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H")) {
    free(h);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    int j = (int)(i / REGION);
    unsigned want = i >= (size_t)L.n * REGION || j == owner ? STABLE_FILL : 0x40u + (unsigned)j;
    if (h[i] != want && (strict || h[i] != STABLE_FILL)) {
      failf("%s of process %d: byte %zu is 0x%02x, not 0x%02x", what, owner, i, h[i], want);
      break;
    }
  }
  free(h);
}

static int stable_phase(void) {
  L.stable_size = (size_t)L.n * REGION + TAIL;
  if (!ok(aclrtMalloc(&L.stable, L.stable_size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc (stable)"))
    return 0;
  L.mine += charged(L.stable_size);
  if (!ok(aclrtMemset(L.stable, L.stable_size, STABLE_FILL, L.stable_size), "aclrtMemset (stable)") ||
      !ok(aclrtIpcMemGetExportKey(L.stable, L.stable_size, L.stable_key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT),
          "aclrtIpcMemGetExportKey (stable)") ||
      !ok(aclrtIpcMemSetImportPid(L.stable_key, L.pids, (size_t)L.n), "aclrtIpcMemSetImportPid"))
    return 0;
  char name[32];
  snprintf(name, sizeof(name), "stable.%d", L.id);
  write_file(name, L.stable_key);
  for (int k = 0; k < L.n && L.why[0] == '\0'; k++) {
    if (k == L.id)
      continue;
    snprintf(name, sizeof(name), "stable.%d", k);
    double give_up = now_ms() + 60000; /* the others start at once; this is a hang, not a timing check */
    while (read_file(name, L.peer_key[k], sizeof(L.peer_key[k])) != 0) {
      if (now_ms() > give_up) {
        failf("process %d wrote no %s in 60 s", k, name);
        return 0;
      }
      usleep(2000);
    }
    if (!ok(aclrtIpcMemImportByKey(&L.peer[k], L.peer_key[k], ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT),
            "aclrtIpcMemImportByKey (stable)"))
      return 0;
    check_stable(L.peer[k], k, 0, "the stable buffer");
    unsigned char h[REGION];
    memset(h, 0x40 + L.id, sizeof(h));
    char *mine = (char *)L.peer[k] + (size_t)L.id * REGION;
    if (ok(aclrtMemcpy(mine, REGION, h, REGION, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D (stable)"))
      dev_check(mine, 0, REGION, (unsigned char)(0x40 + L.id), "this process's region of a stable buffer");
  }
  return L.why[0] == '\0';
}

/* ---- the random load ------------------------------------------------------------------ */

static size_t random_size(void) { return 1 + (size_t)(rnd() % (1ull << (rnd() % 23))); } /* 1 B .. 4 MiB */

static unsigned char random_byte(void) { return (unsigned char)(1 + rnd() % 250); } /* never 0: fresh pages */

static void op_alloc(void) {
  if (L.nbufs == MAX_BUFS)
    return;
  buf_t b = {NULL, random_size(), random_byte()};
  aclError rc = aclrtMalloc(&b.p, b.size, ACL_MEM_MALLOC_HUGE_FIRST);
  if (rc == ACL_ERROR_RT_MEMORY_ALLOCATION) { /* the shared capacity is full: others hold it */
    L.oom++;
    return;
  }
  if (!ok(rc, "aclrtMalloc"))
    return;
  L.allocs++;
  L.mine += charged(b.size);
  L.bufs[L.nbufs++] = b;
  ok(aclrtMemset(b.p, b.size, b.byte, b.size), "aclrtMemset");
}

static void op_free(int i) {
  buf_t b = L.bufs[i];
  if (!dev_check(b.p, 0, b.size, b.byte, "a buffer before its aclrtFree"))
    return;
  if (i == L.churn) { /* half the time the key is closed first; else aclrtFree kills it */
    if (rnd() % 2)
      ok(aclrtIpcMemClose(L.churn_key), "aclrtIpcMemClose (exporter)");
    L.churn = -1;
  }
  if (!ok(aclrtFree(b.p), "aclrtFree"))
    return;
  L.mine -= charged(b.size);
  L.bufs[i] = L.bufs[--L.nbufs];
  if (L.churn == L.nbufs)
    L.churn = i;
}

/* Sets buffer i (never the exported one) to a new byte. */
static void op_refill(int i) {
  if (i == L.churn || !dev_check(L.bufs[i].p, 0, L.bufs[i].size, L.bufs[i].byte, "a buffer before its refill"))
    return;
  L.bufs[i].byte = random_byte();
  ok(aclrtMemset(L.bufs[i].p, L.bufs[i].size, L.bufs[i].byte, L.bufs[i].size), "aclrtMemset");
}

/* Copies buffer a into the start of b (never the exported one), checks b. */
static void op_copy(int a, int b) {
  if (a == b || b == L.churn)
    return;
  buf_t *s = &L.bufs[a], *d = &L.bufs[b];
  size_t len = s->size < d->size ? s->size : d->size;
  if (!ok(aclrtMemcpy(d->p, d->size, s->p, len, ACL_MEMCPY_DEVICE_TO_DEVICE), "aclrtMemcpy D2D"))
    return;
  if (dev_check(d->p, 0, len, s->byte, "a copy's destination") &&
      dev_check(d->p, len, d->size - len, d->byte, "the rest of a copy's destination")) {
    d->byte = random_byte();
    ok(aclrtMemset(d->p, d->size, d->byte, d->size), "aclrtMemset");
  }
}

static void op_export(void) {
  if (L.churn >= 0) {
    ok(aclrtIpcMemClose(L.churn_key), "aclrtIpcMemClose (exporter)");
    L.churn = -1;
    return;
  }
  if (L.nbufs == 0)
    return;
  int i = (int)(rnd() % (uint64_t)L.nbufs);
  uint64_t flags = rnd() % 2;
  if (!ok(aclrtIpcMemGetExportKey(L.bufs[i].p, L.bufs[i].size, L.churn_key, 65, flags), "aclrtIpcMemGetExportKey"))
    return;
  if (flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT &&
      !ok(aclrtIpcMemSetImportPid(L.churn_key, L.pids, (size_t)L.n), "aclrtIpcMemSetImportPid"))
    return;
  L.churn = i;
  char text[160], name[32];
  snprintf(text, sizeof(text), "%s %u %zu\n", L.churn_key, L.bufs[i].byte, L.bufs[i].size);
  snprintf(name, sizeof(name), "churn.%d", L.id);
  write_file(name, text);
}

static void op_import(void) {
  int k = (int)(rnd() % (uint64_t)(L.n - 1));
  k += k >= L.id;
  char name[32], text[160], key[KEY_LEN];
  unsigned byte = 0;
  size_t size = 0;
  snprintf(name, sizeof(name), "churn.%d", k);
  if (read_file(name, text, sizeof(text)) != 0 || sscanf(text, "%79s %u %zu", key, &byte, &size) != 3)
    return;
  void *q = NULL;
  aclError rc = aclrtIpcMemImportByKey(&q, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT);
  if (rc == ACL_ERROR_RT_PARAM_INVALID) { /* closed, freed, or its process ended */
    L.excused++;
    return;
  }
  if (rc == ACL_ERROR_RT_MEMORY_ALLOCATION) { /* no address range left here for it */
    L.oom++;
    return;
  }
  if (!ok(rc, "aclrtIpcMemImportByKey"))
    return;
  size_t bad = 0;
  unsigned got = 0;
  int r = dev_expect(q, 0, size, (unsigned char)byte, &bad, &got);
  int closed = 0;
  if (r == 1) { /* fine only when the key is dead: the exporter freed it and reused the memory */
    void *q2 = NULL;
    aclError rc2 = aclrtIpcMemImportByKey(&q2, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT);
    if (rc2 == ACL_SUCCESS)
      failf("an import of process %d's live key shows byte %zu as 0x%02x, not 0x%02x", k, bad, got, byte);
    else if (rc2 == ACL_ERROR_RT_PARAM_INVALID)
      L.excused++;
    else
      ok(rc2, "aclrtIpcMemImportByKey (again)");
    if (rc2 == ACL_SUCCESS) {
      ok(aclrtIpcMemClose(key), "aclrtIpcMemClose (importer, both imports)");
      closed = 1;
    }
  } else if (r == 0) {
    L.imports++;
  }
  if (!closed) /* either way closes the import */
    ok(rnd() % 2 ? aclrtIpcMemClose(key) : aclrtFree(q), "closing an import");
}

static void load_loop(double ms) {
  double end = now_ms() + ms;
  while (L.why[0] == '\0' && (L.rounds < 20 || now_ms() < end)) {
    unsigned r = (unsigned)(rnd() % 100);
    int i = L.nbufs > 0 ? (int)(rnd() % (uint64_t)L.nbufs) : -1;
    int j = L.nbufs > 0 ? (int)(rnd() % (uint64_t)L.nbufs) : -1;
    if (r < 30 && !L.noalloc)
      op_alloc();
    else if (r < 50 && i >= 0)
      L.noalloc ? op_refill(i) : op_free(i);
    else if (r < 65 && i >= 0)
      op_copy(i, j);
    else if (r < 75)
      op_export();
    else if (r < 93 && L.n > 1)
      op_import();
    else
      check_own_bytes("during the load");
    L.rounds++;
  }
}

void ipc_load(const char *line) {
  memset(&L, 0, sizeof(L));
  L.churn = -1;
  char mode[16] = "";
  double ms = 0;
  unsigned long long seed = 0;
  int used = 0;
  if (sscanf(line, "load %d %255s %lf %llu %15s%n", &L.id, L.dir, &ms, &seed, mode, &used) != 5) {
    printf("FAILED: bad load command\n");
    return;
  }
  for (const char *p = line + used; L.n < MAX_PROCS;) {
    char *end = NULL;
    long pid = strtol(p, &end, 10);
    if (end == p)
      break;
    L.pids[L.n++] = (int32_t)pid;
    p = end;
  }
  L.noalloc = strcmp(mode, "noalloc") == 0;
  L.rng = seed * 0x9e3779b97f4a7c15ull + 1;
  if (L.n < 2 || L.id < 0 || L.id >= L.n) {
    printf("FAILED: a load needs its id and two or more pids\n");
    return;
  }
  if (!stable_phase()) {
    printf("FAILED: %s\n", L.why);
    return;
  }
  if (L.noalloc) /* the working set, allocated before the loop */
    for (int i = 0; i < 8; i++)
      op_alloc();
  printf("started\n");
  fflush(stdout);
  load_loop(ms);
  if (L.churn >= 0)
    ok(aclrtIpcMemClose(L.churn_key), "aclrtIpcMemClose (exporter, at the end)");
  L.churn = -1;
  while (L.nbufs > 0 && L.why[0] == '\0')
    op_free(L.nbufs - 1);
  check_own_bytes("after the load");
  if (L.why[0] != '\0')
    printf("FAILED: %s (seed %llu)\n", L.why, seed);
  else
    printf("done rounds %lu allocs %lu full %lu imports %lu excused %lu\n", L.rounds, L.allocs, L.oom, L.imports,
           L.excused);
}

void ipc_load_finish(void) {
  if (L.stable != NULL)
    check_stable(L.stable, L.id, 1, "the stable buffer");
  for (int k = 0; k < L.n && L.why[0] == '\0'; k++) {
    if (k == L.id || L.peer[k] == NULL)
      continue;
    check_stable(L.peer[k], k, 1, "an import of the stable buffer");
    if (ok(aclrtIpcMemClose(L.peer_key[k]), "aclrtIpcMemClose (importer, stable)"))
      L.peer[k] = NULL;
  }
  if (L.why[0] != '\0')
    printf("FAILED: %s\n", L.why);
  else
    printf("ok\n");
}

void ipc_load_unload(void) {
  if (L.stable != NULL && ok(aclrtIpcMemClose(L.stable_key), "aclrtIpcMemClose (exporter, stable)") &&
      ok(aclrtFree(L.stable), "aclrtFree (stable)")) {
    L.stable = NULL;
    L.mine = 0;
    check_own_bytes("after the unload");
  }
  if (L.why[0] != '\0')
    printf("FAILED: %s\n", L.why);
  else
    printf("ok\n");
}
