/*
 * dump_kernel.c - exception dump of a failing kernel launch (tests
 * api/dump_kernel/...): with dump_scene aic_err_brief_dump, a kernel that
 * fails (rx_fail of the test kernels, rt_ext_kernels.c) leaves
 * {dump_path}/extra-info/data-dump/0/exception_info.{stream}.{task}.{stamp}
 * whose one input is the argument block as the program wrote it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump_util.h"
#include "rt_ext_common.h"

TEST(failing_kernel_is_dumped) {
  char *dir = th_tmpdir(), *out = NULL, *json = NULL;
  CHECK(asprintf(&out, "%s/exc", dir) > 0);
  CHECK(asprintf(&json, "{\"dump\": {\"dump_path\": \"%s\", \"dump_scene\": \"aic_err_brief_dump\"}}", out) > 0);
  du_init(dir, json);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  struct rx_fail_args a = {1, 42};
  CHECK_INT_EQ(rx_launch(bad, 2, &a, sizeof(a), s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
  int32_t sid = -1;
  CHECK_INT_EQ(aclrtStreamGetId(s, &sid), ACL_SUCCESS);
  char want[64];
  snprintf(want, sizeof(want), "extra-info/data-dump/0/exception_info.%d.", (int)sid);
  char **l = du_files(out, NULL);
  const char *file = NULL;
  for (size_t i = 0; l[i] != NULL; i++)
    if (strstr(l[i], want) != NULL && strstr(l[i], ".npy") == NULL)
      file = l[i];
  CHECK_NOT_NULL(file);
  CHECK_NOT_NULL(du_find(l, want, ".input.0.", ".npy", NULL));
  char *p = NULL;
  CHECK(asprintf(&p, "%s/%s", out, file) > 0);
  du_dump d;
  du_read(p, &d);
  CHECK_STR_EQ(d.op_name, "rx_fail");
  CHECK_INT_EQ(d.n_in, 1);
  CHECK_INT_EQ(d.in_size[0], sizeof(a));
  CHECK(memcmp(d.data, &a, sizeof(a)) == 0);
  CHECK_STR_HAS(d.dfx, "failed with 507015");
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  du_fini();
  th_rmtree(dir);
  free(dir);
  free(out);
  free(json);
}

TEST(no_exception_dump_no_file) {
  char *dir = th_tmpdir();
  du_init(dir, NULL);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct rx_fail_args a = {0, 7};
  CHECK_INT_EQ(rx_launch(rx_func("rx_fail", NULL), 1, &a, sizeof(a), s), ACL_SUCCESS);
  CHECK_INT_NE(aclrtSynchronizeStream(s), ACL_SUCCESS);
  size_t n = 0;
  char **l = du_files(dir, &n);
  CHECK_INT_EQ(n, 0);
  du_free_list(l);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  du_fini();
  th_rmtree(dir);
  free(dir);
}
