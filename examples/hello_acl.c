/*
 * hello_acl.c - the smallest ACL program: initialise, report, finalise.
 * It builds unchanged against a vendor CANN toolkit; run it with
 *   ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_SLOG_PRINT_TO_STDOUT=1 ./hello_acl [acl.json]
 * to see openacl's init timeline.
 */
#include <stdio.h>

#include "acl/acl.h"

static int check(aclError rc, const char *what) {
  if (rc == ACL_SUCCESS)
    return 0;
  const char *msg = aclGetRecentErrMsg();
  fprintf(stderr, "hello_acl: %s returned %d\n%s\n", what, rc, msg ? msg : "");
  return 1;
}

int main(int argc, char **argv) {
  const char *config = argc > 1 ? argv[1] : NULL;
  if (check(aclInit(config), "aclInit"))
    return 1;

  int32_t major = 0, minor = 0, patch = 0;
  char version[ACL_PKG_VERSION_MAX_SIZE] = "";
  aclrtRunMode mode;
  if (check(aclrtGetVersion(&major, &minor, &patch), "aclrtGetVersion") ||
      check(aclsysGetVersionStr((char *)"runtime", version), "aclsysGetVersionStr") ||
      check(aclrtGetRunMode(&mode), "aclrtGetRunMode"))
    return 1;
  const char *soc = aclrtGetSocName();
  printf("ACL API %d.%d.%d, runtime %s, SoC %s, run mode %s\n", major, minor, patch, version,
         soc ? soc : "?", mode == ACL_HOST ? "host" : "device");

  return check(aclFinalize(), "aclFinalize");
}
