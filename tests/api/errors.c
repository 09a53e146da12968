/*
 * errors.c - the openacl error-table extension (openaclGetErrorInfo and
 * friends) as a program sees it: known codes, aliases, unknown codes, NULL
 * arguments, lookups by name and a walk over the whole table.  None of it
 * needs aclInit.
 */
#include <string.h>

#include "acl/acl.h"
#include "harness.h"
#include "openacl/openacl.h"

static void check_texts(const openaclErrorInfo *info) {
  CHECK_NOT_NULL(info->name);
  CHECK(strncmp(info->name, "ACL_", 4) == 0 || strncmp(info->name, "ACLNN_", 6) == 0);
  CHECK_NOT_NULL(info->meaning);
  CHECK_NOT_NULL(info->causes);
  CHECK_NOT_NULL(info->remedy);
  if (info->meaning[0] == '\0' || info->causes[0] == '\0' || info->remedy[0] == '\0')
    th_fail(__FILE__, __LINE__, "%s has an empty text", info->name);
  /* One line each, and the meaning short enough for a table column. */
  if (strchr(info->meaning, '\n') || strchr(info->causes, '\n') || strchr(info->remedy, '\n'))
    th_fail(__FILE__, __LINE__, "%s has a text with a newline", info->name);
  if (strlen(info->meaning) > 100)
    th_fail(__FILE__, __LINE__, "%s: the meaning is %zu characters long", info->name, strlen(info->meaning));
}

TEST(known_code) {
  openaclErrorInfo info;
  CHECK_INT_EQ(openaclGetErrorInfo(ACL_ERROR_INVALID_PARAM, &info), ACL_SUCCESS);
  CHECK_STR_EQ(info.name, "ACL_ERROR_INVALID_PARAM");
  CHECK_INT_EQ(info.code, 100000);
  check_texts(&info);
  CHECK_INT_EQ(openaclGetErrorInfo(ACL_ERROR_RT_CONTEXT_NULL, &info), ACL_SUCCESS);
  CHECK_STR_EQ(info.name, "ACL_ERROR_RT_CONTEXT_NULL");
  CHECK_INT_EQ(info.code, 107002);
  CHECK_STR_HAS(info.causes, "context");
  CHECK_STR_HAS(info.remedy, "aclrtSetDevice");
  CHECK_INT_EQ(openaclGetErrorInfo((aclError)ACL_ERROR_GE_PARAM_INVALID, &info), ACL_SUCCESS);
  CHECK_STR_EQ(info.name, "ACL_ERROR_GE_PARAM_INVALID");
  CHECK_STR_EQ(openaclGetErrorName(ACL_ERROR_REPEAT_FINALIZE), "ACL_ERROR_REPEAT_FINALIZE");
  CHECK_STR_EQ(openaclGetErrorName(ACL_ERROR_RT_MEMORY_ALLOCATION), "ACL_ERROR_RT_MEMORY_ALLOCATION");
}

TEST(alias_resolves_to_canonical_name) {
  openaclErrorInfo info;
  /* By number, 0 is ACL_SUCCESS; the aliases are found by name. */
  CHECK_INT_EQ(openaclGetErrorInfo(0, &info), ACL_SUCCESS);
  CHECK_STR_EQ(info.name, "ACL_SUCCESS");
  CHECK_STR_EQ(openaclGetErrorName(ACL_ERROR_NONE), "ACL_SUCCESS");
  CHECK_STR_EQ(openaclGetErrorName(ACL_RT_SUCCESS), "ACL_SUCCESS");
  CHECK_INT_EQ(openaclGetErrorInfoByName("ACL_ERROR_NONE", &info), ACL_SUCCESS);
  CHECK_STR_EQ(info.name, "ACL_ERROR_NONE");
  CHECK_INT_EQ(info.code, 0);
  CHECK_STR_HAS(info.meaning, "ACL_SUCCESS");
  CHECK_INT_EQ(openaclGetErrorInfoByName("ACL_RT_SUCCESS", &info), ACL_SUCCESS);
  CHECK_INT_EQ(info.code, 0);
}

TEST(unknown_code) {
  openaclErrorInfo info;
  static const aclError unknown[] = {1, -1, 99999, 100046, 123456, 999999};
  for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
    memset(&info, 0x5a, sizeof(info));
    CHECK_INT_EQ(openaclGetErrorInfo(unknown[i], &info), ACL_ERROR_INVALID_PARAM);
    CHECK_NULL(info.name);
    CHECK_NULL(info.meaning);
    CHECK_STR_EQ(openaclGetErrorName(unknown[i]), "UNKNOWN_ERROR");
  }
}

TEST(null_info) {
  CHECK_INT_EQ(openaclGetErrorInfo(ACL_SUCCESS, NULL), ACL_ERROR_INVALID_PARAM);
  /* A caller error: it is recorded for aclGetRecentErrMsg. */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "openaclGetErrorInfo");
  CHECK_INT_EQ(openaclGetErrorInfoByName("ACL_SUCCESS", NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(openaclGetErrorInfoByIndex(0, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(by_name) {
  openaclErrorInfo info;
  CHECK_INT_EQ(openaclGetErrorInfoByName("ACL_ERROR_RT_STREAM_CONTEXT", &info), ACL_SUCCESS);
  CHECK_INT_EQ(info.code, ACL_ERROR_RT_STREAM_CONTEXT);
  check_texts(&info);
  CHECK_INT_EQ(openaclGetErrorInfoByName("ACL_ERROR_GE_REDEPLOYING", &info), ACL_SUCCESS);
  CHECK_INT_EQ(info.code, 545602);
  /* Names are exact: no prefix match, no case folding. */
  memset(&info, 0x5a, sizeof(info));
  CHECK_INT_EQ(openaclGetErrorInfoByName("ACL_ERROR_RT", &info), ACL_ERROR_INVALID_PARAM);
  CHECK_NULL(info.name);
  CHECK_INT_EQ(openaclGetErrorInfoByName("acl_error_invalid_param", &info), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(openaclGetErrorInfoByName("", &info), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(openaclGetErrorInfoByName(NULL, &info), ACL_ERROR_INVALID_PARAM);
  CHECK_NULL(info.name);
}

TEST(index_walk_covers_all) {
  size_t n = openaclGetErrorCount();
  openaclErrorInfo info, again;
  int seen_success = 0, seen_rt = 0, seen_ge = 0, seen_nn = 0;
  CHECK(n >= 282);
  for (size_t i = 0; i < n; i++) {
    CHECK_INT_EQ(openaclGetErrorInfoByIndex(i, &info), ACL_SUCCESS);
    check_texts(&info);
    /* The name leads back to this entry. */
    CHECK_INT_EQ(openaclGetErrorInfoByName(info.name, &again), ACL_SUCCESS);
    CHECK_INT_EQ(again.code, info.code);
    CHECK_STR_EQ(again.meaning, info.meaning);
    /* The number leads to the first entry with that value: its canonical name. */
    CHECK_INT_EQ(openaclGetErrorInfo(info.code, &again), ACL_SUCCESS);
    CHECK_INT_EQ(again.code, info.code);
    for (size_t j = 0; j < i; j++) {
      openaclErrorInfo earlier;
      CHECK_INT_EQ(openaclGetErrorInfoByIndex(j, &earlier), ACL_SUCCESS);
      if (strcmp(earlier.name, info.name) == 0)
        th_fail(__FILE__, __LINE__, "%s is in the table twice", info.name);
      if (earlier.code == info.code && strcmp(again.name, info.name) == 0)
        th_fail(__FILE__, __LINE__, "%s: lookup by number returns an alias", info.name);
    }
    seen_success += info.code == 0;
    seen_rt += info.code == ACL_ERROR_RT_AICORE_EXCEPTION;
    seen_ge += info.code == (aclError)ACL_ERROR_GE_LOAD_MODEL;
    seen_nn += strncmp(info.name, "ACLNN_", 6) == 0;
  }
  CHECK_INT_EQ(seen_success, 4); /* ACL_SUCCESS, ACL_ERROR_NONE, ACL_RT_SUCCESS, ACLNN_SUCCESS */
  CHECK_INT_EQ(seen_nn, 28);     /* aclnn/opdev/op_errno.h, the misspelt alias included */
  CHECK_INT_EQ(seen_rt, 1);
  CHECK_INT_EQ(seen_ge, 1);
  memset(&info, 0x5a, sizeof(info));
  CHECK_INT_EQ(openaclGetErrorInfoByIndex(n, &info), ACL_ERROR_INVALID_PARAM);
  CHECK_NULL(info.name);
  CHECK_INT_EQ(openaclGetErrorInfoByIndex((size_t)-1, &info), ACL_ERROR_INVALID_PARAM);
}

TEST(works_across_init) {
  openaclErrorInfo info;
  aclError rc = aclInit(NULL);
  CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_REPEAT_INITIALIZE);
  CHECK_INT_EQ(openaclGetErrorInfo(ACL_ERROR_UNINITIALIZE, &info), ACL_SUCCESS);
  CHECK_STR_HAS(info.remedy, "aclInit");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(openaclGetErrorInfo(ACL_ERROR_REPEAT_FINALIZE, &info), ACL_SUCCESS);
  CHECK_STR_EQ(info.name, "ACL_ERROR_REPEAT_FINALIZE");
}
