#!/bin/sh
# exports_check.sh MODE NM LIBRARY MAP INCLUDE_DIR
#
#   MODE match:    the dynamic symbols LIBRARY defines are exactly the names
#                  in the global section of the version script MAP.
#   MODE declared: every name in MAP is declared in a header under
#                  INCLUDE_DIR/acl, openacl, mstx, profiling, aclnn or aclnnop
#                  ("a function that is exported is declared").
# Prints each difference and exits 1 when there is one.
set -eu

mode=$1
nm=$2
lib=$3
map=$4
inc=$5

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The names of the global section, without comments, one per line.
sed -e 's#/\*.*\*/##g' "$map" |
  awk '/^[[:space:]]*global:/ { g = 1; next } /^[[:space:]]*local:/ { g = 0 } g' |
  tr -d ' \t;' | grep -v '^$' | LC_ALL=C sort -u > "$tmp/map"
if [ ! -s "$tmp/map" ]; then
  echo "exports_check.sh: no names found in the global section of $map" >&2
  exit 1
fi

status=0
case $mode in
match)
  "$nm" -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' |
    LC_ALL=C sort -u > "$tmp/lib"
  LC_ALL=C comm -23 "$tmp/lib" "$tmp/map" > "$tmp/extra"
  LC_ALL=C comm -13 "$tmp/lib" "$tmp/map" > "$tmp/missing"
  while read -r s; do
    echo "exported by $(basename "$lib") but not in $(basename "$map"): $s"
    status=1
  done < "$tmp/extra"
  while read -r s; do
    echo "listed in $(basename "$map") but not defined by $(basename "$lib"): $s"
    status=1
  done < "$tmp/missing"
  [ $status -eq 0 ] && echo "$(wc -l < "$tmp/map") exported symbols match $(basename "$map")"
  ;;
declared)
  headers=$(find "$inc/acl" "$inc/openacl" "$inc/mstx" "$inc/profiling" "$inc/aclnn" "$inc/aclnnop" -name '*.h' | LC_ALL=C sort)
  while read -r s; do
    # shellcheck disable=SC2086
    if ! cat $headers | grep -Eq "(^|[^A-Za-z0-9_])$s[[:space:]]*\\("; then
      echo "exported but declared in no public header: $s"
      status=1
    fi
  done < "$tmp/map"
  [ $status -eq 0 ] && echo "all $(wc -l < "$tmp/map") exported functions are declared in $inc"
  ;;
*)
  echo "usage: exports_check.sh match|declared NM LIBRARY MAP INCLUDE_DIR" >&2
  exit 2
  ;;
esac
exit $status
