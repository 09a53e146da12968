"""smoke_import.py - `import acl` on any interpreter it was built for, with or
without numpy: the module and its sub-modules load with no side effects, the
calls scripts make before and around aclInit work, and no numpy is pulled in.
Exits non-zero with a message on the first failure."""
import sys

import acl
import acl.rt
from acl import util

def check(cond, what):
    if not cond:
        sys.exit("smoke_import: %s" % what)

check("numpy" not in sys.modules, "import acl imported numpy")
for name in ("rt", "mdl", "util", "prof", "op", "media", "blas", "himpi", "fv"):
    check(sys.modules.get("acl." + name) is getattr(acl, name), "acl.%s is not in sys.modules" % name)
check("bytes_to_ptr" in dir(acl.util), "acl.util has no bytes_to_ptr")
check(acl.rt.get_run_mode() == (1, 0), "get_run_mode before init: %r" % (acl.rt.get_run_mode(),))
check(isinstance(acl.get_soc_name(), str), "get_soc_name before init is not a str")
check(acl.init("") == 0, "acl.init('') failed: %s" % acl.get_recent_err_msg())
check(acl.rt.set_device(0) == 0, "set_device(0) failed")
src = b"openacl smoke"
dst = bytes(len(src))
dev, ret = acl.rt.malloc(len(src), 0)
check(ret == 0 and dev, "malloc: %r" % ((dev, ret),))
check(acl.rt.memcpy(dev, len(src), util.bytes_to_ptr(src), len(src), 1) == 0, "memcpy H2D")
check(acl.rt.memcpy(util.bytes_to_ptr(dst), len(dst), dev, len(src), 2) == 0, "memcpy D2H")
check(dst == src, "round trip gave %r" % dst)
check(acl.rt.free(dev) == 0, "free")
check(acl.rt.reset_device(0) == 0, "reset_device")
check(acl.finalize() == 0, "finalize")
check("numpy" not in sys.modules, "a call imported numpy")
print("smoke_import: ok (%s)" % sys.version.split()[0])
