/*
 * errors_table.c - the error table against the headers, both ways.
 *
 * errors_header_codes[] is generated at build time from include/acl and
 * include/aclnn (see errors_extract.sh), so a code added to a header without
 * a table entry, a table entry without a header constant, or a value that
 * differs fails table_matches_headers.  The checker_* tests feed the same checker lists
 * that are wrong on purpose, to show that it does fail.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "errors_codes.h"
#include "harness.h"
#include "openacl/openacl.h"

/* Counts the differences between a list of header constants and the table,
 * printing each one. */
static int compare_with_table(const errors_header_code *codes, size_t n) {
  int problems = 0;
  for (size_t i = 0; i < n; i++) {
    const errors_header_code *c = &codes[i];
    openaclErrorInfo info;
    if (c->constant != c->text_value) {
      fprintf(stderr, "%s (%s): the compiled value %lld differs from the written %lld\n", c->name, c->header,
              c->constant, c->text_value);
      problems++;
    }
    if (openaclGetErrorInfoByName(c->name, &info) != ACL_SUCCESS) {
      fprintf(stderr, "%s = %lld (%s) is not in the error table\n", c->name, c->constant, c->header);
      problems++;
      continue;
    }
    if ((long long)info.code != c->constant) {
      fprintf(stderr, "%s: the table says %d, %s says %lld\n", c->name, info.code, c->header, c->constant);
      problems++;
    }
  }
  /* Conversely: every table entry is a header constant with its value. */
  for (size_t t = 0; t < openaclGetErrorCount(); t++) {
    openaclErrorInfo info;
    size_t i;
    if (openaclGetErrorInfoByIndex(t, &info) != ACL_SUCCESS) {
      fprintf(stderr, "table entry %zu cannot be read\n", t);
      problems++;
      continue;
    }
    for (i = 0; i < n; i++)
      if (strcmp(codes[i].name, info.name) == 0)
        break;
    if (i == n) {
      fprintf(stderr, "table entry %s = %d is not declared in include/acl or include/aclnn\n", info.name, info.code);
      problems++;
    } else if (codes[i].constant != (long long)info.code) {
      fprintf(stderr, "table entry %s = %d, but the header says %lld\n", info.name, info.code,
              codes[i].constant);
      problems++;
    }
  }
  return problems;
}

TEST(table_matches_headers) {
  /* The extraction found the codes of each declaration style. */
  int seen_int = 0, seen_define = 0, seen_u32 = 0, seen_nn = 0;
  for (size_t i = 0; i < errors_header_code_count; i++) {
    const char *n = errors_header_codes[i].name;
    seen_int += strcmp(n, "ACL_ERROR_INVALID_PARAM") == 0;
    seen_define += strcmp(n, "ACL_ERROR_RT_CONTEXT_NULL") == 0;
    seen_u32 += strcmp(n, "ACL_ERROR_GE_PARAM_INVALID") == 0;
    seen_nn += strcmp(n, "ACLNN_ERR_PARAM_NULLPTR") == 0;
  }
  CHECK_INT_EQ(seen_int, 1);
  CHECK_INT_EQ(seen_define, 1);
  CHECK_INT_EQ(seen_u32, 1);
  CHECK_INT_EQ(seen_nn, 1);
  /* 71 ACL codes, 145 runtime codes, 38 graph engine codes and 28 aclnn codes at least. */
  CHECK(errors_header_code_count >= 282);
  CHECK_INT_EQ(compare_with_table(errors_header_codes, errors_header_code_count), 0);
  CHECK_INT_EQ(openaclGetErrorCount(), errors_header_code_count);
}

TEST(constants_are_unique) {
  /* No header declares the same name twice. */
  for (size_t i = 0; i < errors_header_code_count; i++)
    for (size_t j = i + 1; j < errors_header_code_count; j++)
      if (strcmp(errors_header_codes[i].name, errors_header_codes[j].name) == 0)
        th_fail(__FILE__, __LINE__, "%s is declared twice", errors_header_codes[i].name);
}

TEST(checker_detects_code_missing_from_table) {
  errors_header_code codes[400];
  size_t n = errors_header_code_count;
  CHECK(n + 1 <= sizeof(codes) / sizeof(codes[0]));
  memcpy(codes, errors_header_codes, n * sizeof(codes[0]));
  codes[n].name = "ACL_ERROR_NOT_IN_THE_TABLE";
  codes[n].constant = 199999;
  codes[n].text_value = 199999;
  codes[n].header = "acl/acl_fake.h";
  CHECK_INT_EQ(compare_with_table(codes, n + 1), 1);
}

TEST(checker_detects_entry_missing_from_headers) {
  /* Drop the last header constant: its table entry has no header now. */
  CHECK_INT_EQ(compare_with_table(errors_header_codes, errors_header_code_count - 1), 1);
}

TEST(checker_detects_different_value) {
  errors_header_code codes[400];
  size_t n = errors_header_code_count;
  CHECK(n <= sizeof(codes) / sizeof(codes[0]));
  memcpy(codes, errors_header_codes, n * sizeof(codes[0]));
  for (size_t i = 0; i < n; i++)
    if (strcmp(codes[i].name, "ACL_ERROR_RT_CONTEXT_NULL") == 0)
      codes[i].constant = codes[i].text_value = 107999;
  /* Once for the header-to-table direction, once for table-to-header. */
  CHECK_INT_EQ(compare_with_table(codes, n), 2);
}
