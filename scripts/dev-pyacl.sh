#!/bin/sh
# dev-pyacl.sh OUTDIR [FILE.c ...] - builds the acl extension into OUTDIR
# without CMake, for quick work on a few of its files: the common files
# (module.c, args.c, acl_base.c, acl_ext.c) plus the FILEs given (all of
# python/acl/*.c when none), with empty method tables standing in for the
# files left out.  Links build/libascendcl.so (run the CMake build first).
# Then: PYTHONPATH=OUTDIR:python /usr/bin/python3 ...
set -eu
cd "$(dirname "$0")/.."
out=$1
shift
mkdir -p "$out"
common="python/acl/module.c python/acl/args.c python/acl/acl_base.c"
[ -f python/acl/acl_ext.c ] && common="$common python/acl/acl_ext.c"
if [ $# -eq 0 ]; then
  files=$(ls python/acl/*.c)
else
  files="$common $*"
fi
# Empty tables for every table pyacl.h declares that the chosen files do not define.
fill="$out/fill_tables.c"
echo '#include "pyacl.h"' > "$fill"
for t in $(sed -n 's/^extern \(const \)\{0,1\}\(PyMethodDef\|pyacl_stub\) \([a-z_]*\)\[\];.*/\3/p' python/acl/pyacl.h); do
  # shellcheck disable=SC2086
  if ! grep -q "^\(const \)\{0,1\}\(PyMethodDef\|pyacl_stub\) $t\[\]" $files; then
    case $t in
      *stubs) echo "const pyacl_stub $t[] = {{NULL, NULL, NULL, PYACL_RET}};" >> "$fill" ;;
      *) echo "PyMethodDef $t[] = {{NULL, NULL, 0, NULL}};" >> "$fill" ;;
    esac
  fi
done
inc=$(/usr/bin/python3 -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$(/usr/bin/python3 -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
# shellcheck disable=SC2086
gcc -std=c11 -O1 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror -fPIC -shared \
  -fvisibility=hidden -D_GNU_SOURCE -isystem "$inc" -Iinclude -Ipython/acl $files "$fill" \
  -Lbuild -lascendcl -Wl,-rpath,"$PWD/build" -o "$out/acl$suffix"
echo "built $out/acl$suffix"
