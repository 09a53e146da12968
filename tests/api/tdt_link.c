/* tdt_link.c - built at test time with the vendor samples' link line
 * (-lacl_tdt_channel -lacl_tdt_queue -lascendcl) by api/tdt/link_vendor_names. */
#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

int main(void) {
  acltdtDataset *ds = acltdtCreateDataset();
  acltdtQueueAttr *a = acltdtCreateQueueAttr();
  return ds != 0 && a != 0 && acltdtDestroyDataset(ds) == 0 && acltdtDestroyQueueAttr(a) == 0 ? 0 : 1;
}
