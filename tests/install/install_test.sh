#!/bin/sh
# install_test.sh BUILD_DIR - installs the build into a fresh prefix and builds
# a consumer against it three ways: pkg-config, the CMake package, and plain
# -lacl_rt (the vendor's newer library name).  Each consumer must run; so
# must the installed tool and the Python layer, without LD_LIBRARY_PATH.
set -eu
build=$1
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$prefix/lib
[ -d "$libdir" ] || libdir=$(dirname "$(find "$prefix" -name 'libascendcl.so' | head -n1)")
for f in libascendcl.so libacl_rt.so; do
  [ -e "$libdir/$f" ] || { echo "missing $libdir/$f"; exit 1; }
done
ls "$libdir"/libascendcl.so.*.*.* >/dev/null || { echo "no versioned libascendcl.so"; exit 1; }
[ -f "$prefix/include/acl/acl.h" ] || { echo "missing include/acl/acl.h"; exit 1; }
# the vendor samples' profiling/dump headers and library names
for f in include/mstx/ms_tools_ext.h include/mstx/mstx_detail/mstx_impl.h include/profiling/aprof_pub.h \
  include/acl/acl_tdt.h include/acl/acl_tdt_queue.h; do
  [ -f "$prefix/$f" ] || { echo "missing $f"; exit 1; }
done
for f in libmsprofiler.so libprofapi.so libascend_dump.so libms_tools_ext.so libacl_tdt_channel.so libacl_tdt_queue.so; do
  [ -e "$libdir/$f" ] || { echo "missing $libdir/$f"; exit 1; }
done
export LD_LIBRARY_PATH=$libdir
export ASCEND_PROCESS_LOG_PATH=$work/log

# 1. pkg-config
PKG_CONFIG_PATH=$libdir/pkgconfig
export PKG_CONFIG_PATH
cc -o "$work/c_pkgconfig" "$src/consumer/consumer.c" $(pkg-config --cflags --libs ascendcl)
"$work/c_pkgconfig"

# 2. CMake package
cmake -S "$src/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer"

# 3. -lacl_rt
cc -o "$work/c_aclrt" "$src/consumer/consumer.c" -I"$prefix/include" -L"$libdir" -lacl_rt
"$work/c_aclrt"

# 3b. a vendor-style profiling program: mstx header, profiling/aprof_pub.h, -lmsprofiler -lprofapi -ldl
cat > "$work/vendor_prof.c" <<'EOF2'
#include "acl/acl.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
int main(void) {
  if (aclInit(NULL) != ACL_SUCCESS || MsprofSetDeviceIdByGeModelIdx(0, 0) != 0) return 1;
  mstxMarkA("no tool bound: nothing happens", NULL);
  return aclFinalize() == ACL_SUCCESS && mstxRangeStartA("r", NULL) == 0 ? 0 : 1;
}
EOF2
cc -o "$work/vendor_prof" "$work/vendor_prof.c" -I"$prefix/include" -L"$libdir" -lascendcl -lmsprofiler -lprofapi \
  -lpthread -ldl
(unset MSTX_INJECTION_PATH; "$work/vendor_prof") || { echo "vendor-style profiling program failed"; exit 1; }

# 4. the installed tool finds its library through its relative RPATH
(unset LD_LIBRARY_PATH; "$prefix/bin/openacl" devices >/dev/null) || { echo "installed bin/openacl does not run"; exit 1; }
[ -e "$libdir/libc_sec.so" ] && [ -f "$prefix/include/securec.h" ] || { echo "missing libc_sec or securec.h"; exit 1; }

# 5. the Python layer, when it was built: acl finds libascendcl through its
# relative RPATH (no LD_LIBRARY_PATH), and the openacl package sits beside it.
for mod in $(find "$prefix" -name 'acl.cpython-*.so'); do
  pydir=$(dirname "$mod")
  [ -f "$pydir/openacl/__init__.py" ] || { echo "missing $pydir/openacl"; exit 1; }
  (unset LD_LIBRARY_PATH; cd "$work" && PYTHONPATH=$pydir /usr/bin/python3 -c '
import acl, openacl, sys
assert acl.__file__.startswith(sys.argv[1]), acl.__file__
assert acl.init("") == 0, acl.get_recent_err_msg()
assert acl.finalize() == 0
print("python: import acl from", sys.argv[1])' "$pydir")
done
# 6. libhccl.so, when it was built: the vendor's link line -lhccl -lascendcl,
# a one-rank communicator and an all-reduce on a stream.
if [ -e "$build/libhccl.so" ]; then
  [ -e "$libdir/libhccl.so" ] && [ -f "$prefix/include/hccl/hccl.h" ] && [ -f "$prefix/include/hccl/hccl_types.h" ] ||
    { echo "missing libhccl.so or include/hccl"; exit 1; }
  cat > "$work/vendor_hccl.c" <<'EOF2'
#include <stdio.h>
#include "hccl/hccl.h"
int main(void) {
  HcclRootInfo root;
  HcclComm comm;
  aclrtStream s;
  void *d;
  float v = 2.0f;
  if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&s) || HcclGetRootInfo(&root) ||
      HcclCommInitRootInfo(1, &root, 0, &comm) || aclrtMalloc(&d, 4, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMemcpy(d, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE) ||
      HcclAllReduce(d, d, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s) || aclrtSynchronizeStream(s) ||
      HcclCommDestroy(comm))
    return 1;
  printf("hccl: %s\n", HcclGetErrorString(HCCL_SUCCESS));
  return 0;
}
EOF2
  cc -o "$work/vendor_hccl" "$work/vendor_hccl.c" -I"$prefix/include" -L"$libdir" -lhccl -lascendcl
  "$work/vendor_hccl" | grep -q "hccl: no error" || { echo "vendor-style HCCL program failed"; exit 1; }
fi
echo "install_test: ok"
