#!/bin/bash
# A CUDA build's libgshmem.so on a node without CUDA: it needs no CUDA library to load (no DT_NEEDED entry names
# one), and an OpenSHMEM program linked with it runs where every CUDA library is hidden: the toolkit's directories
# and any directory holding libcuda / libcudart are covered by empty tmpfs mounts in a private mount namespace.
#   no_cuda.sh <libgshmem.so> <cuda-toolkit-root> -- <launcher and program...>
# Exit 77 (skipped) without root or unshare; prints "no_cuda: SUCCESS" when the program ran and passed.
set -u
lib=$1 root=$2
shift 2
[ "${1:-}" = -- ] && shift
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "no_cuda: $lib needs: $(echo $needed)"
if echo "$needed" | grep -qiE 'libcud|libnv'; then
  echo "no_cuda: FAILURE: $lib needs a CUDA library"
  exit 1
fi
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
  echo "no_cuda: skipped: hiding the CUDA libraries needs root and unshare"
  exit 77
fi
# Every CUDA runtime or driver library the loader could find: each is covered by /dev/null (unloadable), and the
# toolkit's own directory by an empty tmpfs unless it is /usr (a distribution's toolkit).
files=$( { ldconfig -p | sed -n 's/.*libcud[a-z]*\.so[.0-9]* .*=> \(.*\)/\1/p';
           find /usr/lib /usr/local/lib /usr/lib64 /lib -maxdepth 3 -name 'libcud*.so*' 2>/dev/null; } |
         xargs -r -n1 readlink -f | sort -u)
top=$(readlink -f "$root")
case "$top" in /usr|/|"") top= ;; esac
echo "no_cuda: hiding: ${top:-no toolkit directory}" $files
export NO_CUDA_FILES="$files" NO_CUDA_TOP="$top"
# shellcheck disable=SC2016
exec unshare -m --propagation private bash -c '
  [ -z "$NO_CUDA_TOP" ] || mount -t tmpfs none "$NO_CUDA_TOP" || exit 1
  for f in $NO_CUDA_FILES; do [ -e "$f" ] && { mount --bind /dev/null "$f" || exit 1; }; done
  out=$("$@" 2>&1); rc=$?
  echo "$out"
  [ $rc -eq 0 ] || { echo "no_cuda: FAILURE: the program exited with $rc"; exit 1; }
  echo "no_cuda: SUCCESS"' no_cuda "$@"
