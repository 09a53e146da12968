/*
 * prof_mstx.c - mstx through its header (include/mstx/ms_tools_ext.h) bound
 * to openacl's profiler, public API only (ctest -R api/prof_mstx): no tool = no-op,
 * aclprofStart with ACL_PROF_MSPROFTX sets MSTX_INJECTION_PATH, and the
 * vendor's rules (messages, ids, the reserved "default" domain, destroyed
 * handles, ends in the wrong domain) seen in the msprof_tx CSV.  Built twice
 * (prof_mstx.cmake): with the inline header, and with MSTX_NO_IMPL against
 * libms_tools_ext.so (api/prof_mstx_lib).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "harness.h"
#include "mstx/ms_tools_ext.h"

/* The msprof_tx CSV of the one PROF_ directory under root, malloc'd text. */
static char *tx_csv(const char *root) {
  char path[4096] = "";
  DIR *d = opendir(root);
  CHECK_NOT_NULL(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strncmp(e->d_name, "PROF_", 5) == 0)
      snprintf(path, sizeof(path), "%s/%s/mindstudio_profiler_output", root, e->d_name);
  closedir(d);
  CHECK(path[0] != '\0');
  d = opendir(path);
  CHECK_NOT_NULL(d);
  char file[4400] = "";
  while ((e = readdir(d)) != NULL)
    if (strncmp(e->d_name, "msprof_tx_", 10) == 0)
      snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
  closedir(d);
  CHECK(file[0] != '\0');
  return th_read_file(file);
}

/* Rows of the CSV with event type `type`, message `msg` and domain `domain`. */
static int rows(const char *csv, const char *type, const char *msg, const char *domain) {
  char needle[512];
  snprintf(needle, sizeof(needle), ",%s,N/A,N/A,", type);
  char tail[512];
  snprintf(tail, sizeof(tail), ",string,%s,%s,", msg, domain);
  int n = 0;
  for (const char *line = strchr(csv, '\n'); line != NULL && line[1] != '\0'; line = strchr(line + 1, '\n')) {
    const char *end = strchr(line + 1, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    char row[1024];
    snprintf(row, sizeof(row), "%.*s", (int)(len < sizeof(row) ? len : sizeof(row) - 1), line + 1);
    n += strstr(row, needle) != NULL && strstr(row, tail) != NULL;
  }
  return n;
}

TEST(no_tool_is_a_noop) {
  unsetenv("MSTX_INJECTION_PATH");
  uint64_t tool = 1;
  mstxGetToolId(&tool);
  CHECK_INT_EQ(tool, MSTX_TOOL_INVALID_ID);
  CHECK_INT_EQ(mstxRangeStartA("r", NULL), 0);
  CHECK(mstxDomainCreateA("d") == NULL);
  mstxMarkA("m", NULL);
  mstxRangeEnd(1);
  mstxDomainDestroy(NULL);
}

TEST(rules_in_the_csv) {
  unsetenv("MSTX_INJECTION_PATH");
  char *dir = th_tmpdir();
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofInit(dir, strlen(dir)), ACL_SUCCESS);
  uint32_t dev = 0;
  aclprofConfig *cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  CHECK_NOT_NULL(cfg);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  /* aclprofStart pointed the header at libascendcl.so */
  CHECK_NOT_NULL(getenv("MSTX_INJECTION_PATH"));
  CHECK_STR_HAS(getenv("MSTX_INJECTION_PATH"), "libascendcl");

  /* domains: "default" reserved, NULL and "" refused, one handle per name */
  CHECK(mstxDomainCreateA("default") == NULL);
  CHECK(mstxDomainCreateA(NULL) == NULL);
  CHECK(mstxDomainCreateA("") == NULL);
  mstxDomainHandle_t a = mstxDomainCreateA("dom_a"), b = mstxDomainCreateA("dom_b");
  CHECK(a != NULL && b != NULL && a != b);
  CHECK(mstxDomainCreateA("dom_a") == a);

  /* messages: NULL, empty and formula-like ones are refused */
  CHECK_INT_EQ(mstxRangeStartA(NULL, NULL), 0);
  CHECK_INT_EQ(mstxRangeStartA("", NULL), 0);
  CHECK_INT_EQ(mstxRangeStartA("=1+1", NULL), 0);
  CHECK_INT_EQ(mstxDomainRangeStartA(a, "@x", NULL), 0);
  mstxMarkA("-bad", NULL);
  mstxMarkA(NULL, stream);

  /* ids: one counter over all domains, never 0 */
  mstxRangeId r1 = mstxRangeStartA("host_range", NULL);
  mstxRangeId r2 = mstxDomainRangeStartA(a, "a_range", stream);
  mstxRangeId r3 = mstxDomainRangeStartA(b, "b_range", NULL);
  CHECK(r1 != 0 && r2 > r1 && r3 > r2);
  mstxDomainRangeEnd(b, r2); /* not b's: ignored */
  mstxRangeEnd(r2);          /* not the default domain's: ignored */
  mstxDomainRangeEnd(a, r2);
  mstxDomainRangeEnd(a, r2); /* ended already: ignored */
  mstxRangeEnd(r1);
  mstxMarkA("host_mark", NULL);
  mstxMarkA("stream_mark", stream);
  mstxDomainMarkA(a, "a_mark", NULL);
  /* a destroyed domain: its marks are ignored, its open range can no longer end */
  mstxDomainDestroy(b);
  mstxDomainMarkA(b, "b_mark", NULL);
  mstxDomainRangeEnd(b, r3);
  CHECK_INT_EQ(mstxDomainRangeStartA(b, "b_late", NULL), 0);
  mstxDomainDestroy(b); /* twice: ignored */
  CHECK_INT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  mstxDomainDestroy(a);

  CHECK_INT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  /* collection stopped: nothing recorded, range starts return 0 */
  CHECK_INT_EQ(mstxRangeStartA("after_stop", NULL), 0);
  char *csv = tx_csv(dir);
  CHECK_INT_EQ(rows(csv, "start/end", "host_range", "default"), 1);
  CHECK_INT_EQ(rows(csv, "start/end", "a_range", "dom_a"), 1);
  CHECK_INT_EQ(rows(csv, "marker", "host_mark", "default"), 1);
  CHECK_INT_EQ(rows(csv, "marker", "stream_mark", "default"), 1);
  CHECK_INT_EQ(rows(csv, "marker", "a_mark", "dom_a"), 1);
  CHECK(strstr(csv, "b_") == NULL);
  CHECK(strstr(csv, "bad") == NULL && strstr(csv, "=1+1") == NULL);
  /* 5 rows in all */
  int lines = 0;
  for (const char *p = csv; *p; p++)
    lines += *p == '\n';
  CHECK_INT_EQ(lines, 1 + 5);
  free(csv);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  th_rmtree(dir);
  free(dir);
}

/* The user's own MSTX_INJECTION_PATH is kept; one that cannot be loaded binds nothing. */
TEST(user_path_kept) {
  setenv("MSTX_INJECTION_PATH", "/nonexistent/libtool.so", 1);
  char *dir = th_tmpdir();
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofInit(dir, strlen(dir)), ACL_SUCCESS);
  aclprofConfig *cfg = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
  CHECK_NOT_NULL(cfg);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  CHECK_STR_EQ(getenv("MSTX_INJECTION_PATH"), "/nonexistent/libtool.so");
  CHECK_INT_EQ(mstxRangeStartA("r", NULL), 0);
  CHECK_INT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  th_rmtree(dir);
  free(dir);
}
