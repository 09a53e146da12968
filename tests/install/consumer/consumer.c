/* consumer.c - a program built against an installed openacl, as a user would. */
#include <stdio.h>

#include "acl/acl.h"

int main(void) {
  if (aclInit(NULL) != ACL_SUCCESS)
    return 1;
  int32_t a, b, c;
  if (aclrtGetVersion(&a, &b, &c) != ACL_SUCCESS)
    return 2;
  printf("consumer: ACL %d.%d.%d\n", a, b, c);
  return aclFinalize() == ACL_SUCCESS ? 0 : 3;
}
