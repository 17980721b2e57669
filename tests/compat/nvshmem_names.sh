#!/usr/bin/env bash
# Which names of NVSHMEM-NAMES.txt the compatibility header provides, by preprocessing it with nvcc.
#   nvshmem_names.sh NVCC NAMES ROOT [BUILD_INCLUDE] [--missing | --count | --check]
# A name is provided when the preprocessed header (nvcc, __CUDACC__ defined) declares it, or defines it as a macro
# that expands to one identifier the preprocessed header declares (an alias of an existing function).
# --missing (default) prints the missing names, --count prints "provided/total", --check prints the missing names
# and exits 1 when there is any. Exits 77 (skip) when NVCC is not an executable.
set -euo pipefail
nvcc=$1 names=$2 root=$3 binc=${4:-} mode=${5:---missing}
[[ -x "$nvcc" ]] || { echo "nvshmem_names: no nvcc ($nvcc): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <gshmem/nvshmem_compat.h>\n' > "$tmp/probe.cu"
inc=(-I"$root/include")
[[ -n "$binc" ]] && inc+=(-I"$binc")
"$nvcc" -std=c++17 -E "${inc[@]}" "$tmp/probe.cu" -o "$tmp/pp.txt"
"$nvcc" -std=c++17 -E -Xcompiler -dM "${inc[@]}" "$tmp/probe.cu" -o "$tmp/macros.txt"
# identifiers the preprocessed header declares or uses
grep -oE '\b[A-Za-z_][A-Za-z0-9_]*' "$tmp/pp.txt" | LC_ALL=C sort -u > "$tmp/ids.txt"
{
  grep -E '^nvshmemx?_' "$tmp/ids.txt" || true
  # a macro counts when it expands to one identifier the header declares (an alias of a function that exists)
  sed -nE 's/^#define (nvshmemx?_[A-Za-z0-9_]*) ([A-Za-z_][A-Za-z0-9_]*)$/\2 \1/p' "$tmp/macros.txt" |
    LC_ALL=C sort -k1,1 | LC_ALL=C join - "$tmp/ids.txt" | cut -d' ' -f2
} | LC_ALL=C sort -u > "$tmp/have.txt"
LC_ALL=C sort -u "$names" > "$tmp/want.txt"
LC_ALL=C comm -23 "$tmp/want.txt" "$tmp/have.txt" > "$tmp/missing.txt"
total=$(wc -l < "$tmp/want.txt")
missing=$(wc -l < "$tmp/missing.txt")
case "$mode" in
  --count) echo "$((total - missing))/$total" ;;
  --missing) cat "$tmp/missing.txt" ;;
  --check)
    cat "$tmp/missing.txt"
    echo "nvshmem_names: $((total - missing)) of $total names provided"
    [[ "$missing" -eq 0 ]] ;;
  *) echo "nvshmem_names: unknown mode $mode" >&2; exit 2 ;;
esac
