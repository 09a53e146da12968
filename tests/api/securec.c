/* securec.c - libc_sec: result codes and destination contents of each function. */
#include <string.h>

#include "securec.h"
#include "harness.h"

static int all_bytes(const unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v)
      return 0;
  return 1;
}

TEST(codes_have_the_documented_values) {
  CHECK_INT_EQ(EOK, 0);
  CHECK_INT_EQ(EINVAL, 22);
  CHECK_INT_EQ(ERANGE, 34);
  CHECK_INT_EQ(EINVAL_AND_RESET, 150);
  CHECK_INT_EQ(ERANGE_AND_RESET, 162);
  CHECK_INT_EQ(EOVERLAP_AND_RESET, 182);
}

TEST(memset_s_results) {
  unsigned char b[8];
  CHECK_INT_EQ(memset_s(b, sizeof b, 7, 8), EOK);
  CHECK(all_bytes(b, 8, 7));
  CHECK_INT_EQ(memset_s(NULL, 8, 0, 1), EINVAL);
  CHECK_INT_EQ(memset_s(b, 0, 0, 1), ERANGE);
  CHECK_INT_EQ(memset_s(b, SECUREC_MEM_MAX_LEN + 1, 0, 1), ERANGE);
  CHECK_INT_EQ(memset_s(b, 4, 9, 8), ERANGE_AND_RESET); /* fills the 4 that fit */
  CHECK(all_bytes(b, 4, 9) && all_bytes(b + 4, 4, 7));
}

TEST(memcpy_s_results) {
  unsigned char d[8], s[16];
  memset(s, 5, sizeof s);
  CHECK_INT_EQ(memcpy_s(d, sizeof d, s, 8), EOK);
  CHECK(all_bytes(d, 8, 5));
  CHECK_INT_EQ(memcpy_s(d, sizeof d, s, 0), EOK);
  CHECK_INT_EQ(memcpy_s(NULL, 8, s, 1), EINVAL);
  CHECK_INT_EQ(memcpy_s(d, 0, s, 1), ERANGE);
  CHECK(all_bytes(d, 8, 5)); /* untouched */
  CHECK_INT_EQ(memcpy_s(d, sizeof d, NULL, 1), EINVAL_AND_RESET);
  CHECK(all_bytes(d, 8, 0));
  memset(d, 5, sizeof d);
  CHECK_INT_EQ(memcpy_s(d, sizeof d, s, 9), ERANGE_AND_RESET);
  CHECK(all_bytes(d, 8, 0));
  memset(d, 5, sizeof d);
  CHECK_INT_EQ(memcpy_s(d, sizeof d, d + 2, 4), EOVERLAP_AND_RESET);
  CHECK(all_bytes(d, 8, 0));
  CHECK_INT_EQ(memcpy_s(d, sizeof d, d, 4), EOK); /* onto itself: nothing to do */
}

TEST(memmove_s_results) {
  unsigned char d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK_INT_EQ(memmove_s(d, sizeof d, d + 2, 4), EOK); /* overlap is fine here */
  CHECK(d[0] == 3 && d[3] == 6 && d[4] == 5);
  CHECK_INT_EQ(memmove_s(d, 4, d + 2, 5), ERANGE_AND_RESET);
  CHECK(all_bytes(d, 4, 0) && d[4] == 5);
  CHECK_INT_EQ(memmove_s(d, sizeof d, NULL, 1), EINVAL_AND_RESET);
  CHECK_INT_EQ(memmove_s(NULL, 8, d, 1), EINVAL);
}

TEST(strcpy_s_and_strncpy_s) {
  char d[6];
  CHECK_INT_EQ(strcpy_s(d, sizeof d, "hello"), EOK);
  CHECK_STR_EQ(d, "hello");
  CHECK_INT_EQ(strcpy_s(d, sizeof d, "hello!"), ERANGE_AND_RESET); /* 6 characters and a NUL */
  CHECK_STR_EQ(d, "");
  CHECK_INT_EQ(strcpy_s(d, sizeof d, NULL), EINVAL_AND_RESET);
  CHECK_INT_EQ(strcpy_s(NULL, 6, "x"), EINVAL);
  CHECK_INT_EQ(strcpy_s(d, 0, "x"), ERANGE);
  char o[16] = "abcdefgh";
  CHECK_INT_EQ(strcpy_s(o + 2, 10, o), EOVERLAP_AND_RESET);
  CHECK_INT_EQ(strncpy_s(d, sizeof d, "hello world", 5), EOK);
  CHECK_STR_EQ(d, "hello");
  CHECK_INT_EQ(strncpy_s(d, sizeof d, "hi", 5), EOK);
  CHECK_STR_EQ(d, "hi");
  CHECK_INT_EQ(strncpy_s(d, sizeof d, "hello world", 6), ERANGE_AND_RESET);
  CHECK_STR_EQ(d, "");
  CHECK_INT_EQ(strncpy_s(d, sizeof d, "abc", 0), EOK);
  CHECK_STR_EQ(d, "");
}

TEST(strcat_s_and_strncat_s) {
  char d[8] = "ab";
  CHECK_INT_EQ(strcat_s(d, sizeof d, "cde"), EOK);
  CHECK_STR_EQ(d, "abcde");
  CHECK_INT_EQ(strcat_s(d, sizeof d, "fgh"), ERANGE_AND_RESET);
  CHECK_STR_EQ(d, "");
  strcpy(d, "ab");
  CHECK_INT_EQ(strncat_s(d, sizeof d, "cdefghij", 3), EOK);
  CHECK_STR_EQ(d, "abcde");
  CHECK_INT_EQ(strncat_s(d, sizeof d, "xyz", 3), ERANGE_AND_RESET);
  CHECK_STR_EQ(d, "");
  char full[4] = {'a', 'b', 'c', 'd'}; /* no NUL within destMax */
  CHECK_INT_EQ(strcat_s(full, sizeof full, "x"), EINVAL_AND_RESET);
  CHECK_INT_EQ(strcat_s(d, sizeof d, NULL), EINVAL_AND_RESET);
}

TEST(strtok_s_results) {
  char s[] = ",a,,bc;d";
  char *ctx = NULL;
  CHECK_STR_EQ(strtok_s(s, ",;", &ctx), "a");
  CHECK_STR_EQ(strtok_s(NULL, ",;", &ctx), "bc");
  CHECK_STR_EQ(strtok_s(NULL, ",;", &ctx), "d");
  CHECK_NULL(strtok_s(NULL, ",;", &ctx));
  CHECK_NULL(strtok_s(s, NULL, &ctx));
  CHECK_NULL(strtok_s(s, ",", NULL));
}

TEST(sprintf_s_family) {
  char d[8];
  CHECK_INT_EQ(sprintf_s(d, sizeof d, "%d-%s", 42, "ab"), 5);
  CHECK_STR_EQ(d, "42-ab");
  CHECK_INT_EQ(sprintf_s(d, sizeof d, "%s", "too long!"), -1);
  CHECK_STR_EQ(d, "");
  CHECK_INT_EQ(sprintf_s(NULL, 8, "x"), -1);
  CHECK_INT_EQ(sprintf_s(d, 0, "x"), -1);
  /* snprintf_s: count below destMax cuts at count and says so */
  CHECK_INT_EQ(snprintf_s(d, sizeof d, 3, "%s", "abcdef"), -1);
  CHECK_STR_EQ(d, "abc");
  CHECK_INT_EQ(snprintf_s(d, sizeof d, 7, "%s", "abc"), 3);
  CHECK_STR_EQ(d, "abc");
  /* count at destMax or above: not fitting the buffer is an overflow */
  CHECK_INT_EQ(snprintf_s(d, sizeof d, 100, "%s", "abcdefghij"), -1);
  CHECK_STR_EQ(d, "");
  CHECK_INT_EQ(snprintf_truncated_s(d, sizeof d, "%s", "abcdefghij"), 7);
  CHECK_STR_EQ(d, "abcdefg");
  CHECK_INT_EQ(snprintf_truncated_s(d, sizeof d, "%d", 12), 2);
}
