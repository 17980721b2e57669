#!/usr/bin/env bash
# Package test: build the Debian packages, unpack them into an empty directory (a fresh root, without running
# their maintainer scripts), and use gshmem from there as a user of the packages would.
#   deb.sh BUILD_DIR WORK_DIR [CPACK] [MPIEXEC]
# 1. cpack -G DEB: the packages exist, with the names, dependencies and diversion scripts the packaging promises
# 2. dpkg-deb -x of every package into WORK_DIR/root; no file is in two packages
# 3. hello.c built with the unpacked gshmemcc (C) and gshmemc++ (C++), run on 2 PEs; the binaries are stripped
# 4. a CMake project linking MPI::MPI_C before gshmem::gshmem, pkg-config with cc, oshcc + oshrun, all from the root
# 5. man -l on an unpacked man page; gshmem-info runs
# Exits 77 (skipped) when a tool the Debian generator needs is missing (dpkg-deb, dpkg-shlibdeps, file, objcopy).
set -euo pipefail

build_dir=$1
work=$2
cpack=${3:-cpack}
mpiexec=${4:-mpirun}
[[ -n "$mpiexec" ]] || mpiexec=mpirun
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

step() { echo "--- deb-test: $*"; }
fail() { echo "deb-test: FAILED: $*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps file objcopy readelf; do
  command -v "$tool" >/dev/null || { echo "deb-test: $tool not found; skipped"; exit 77; }
done

source "$here/launch.sh"

rm -rf "$work"
mkdir -p "$work/pkgs" "$work/root"

step "cpack -G DEB in $build_dir"
(cd "$build_dir" && "$cpack" -G DEB -B "$work/pkgs") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
mapfile -t debs < <(find "$work/pkgs" -maxdepth 1 \( -name '*.deb' -o -name '*.ddeb' \) | sort)
[[ ${#debs[@]} -gt 0 ]] || { cat "$work/cpack.log"; fail "cpack made no package"; }
declare -A pkg_file
for d in "${debs[@]}"; do
  name=$(dpkg-deb -f "$d" Package)
  pkg_file[$name]=$d
  printf '%-24s %s\n' "$name" "$(dpkg-deb -f "$d" Depends)"
done
runtime=$(printf '%s\n' "${!pkg_file[@]}" | grep -E '^libgshmem[0-9]' | grep -v dbgsym | head -n 1)
[[ -n "$runtime" ]] || fail "no libgshmem<soversion> package"
for p in libgshmem-dev gshmem-tools; do [[ -n "${pkg_file[$p]:-}" ]] || fail "no $p package"; done
dpkg-deb -f "${pkg_file[libgshmem-dev]}" Depends | grep -q "$runtime" || fail "libgshmem-dev does not depend on $runtime"
dpkg-deb -f "${pkg_file[$runtime]}" Depends | grep -q "libc6" || fail "$runtime has no shared-library Depends"
[[ -n "${pkg_file[$runtime-dbgsym]:-}" ]] || fail "no $runtime-dbgsym package (debug information)"
if [[ -n "${pkg_file[gshmem-osh-names]:-}" ]]; then
  osh=${pkg_file[gshmem-osh-names]}
  if ! dpkg-deb -f "$osh" Conflicts | grep -q .; then
    dpkg-deb -I "$osh" preinst | grep -q 'dpkg-divert .*--add' || fail "gshmem-osh-names neither conflicts nor diverts"
    dpkg-deb -I "$osh" postrm | grep -q 'dpkg-divert .*--remove' || fail "gshmem-osh-names does not undivert"
  fi
fi

step "dpkg-deb -x into $work/root"
for d in "${debs[@]}"; do
  dpkg-deb -x "$d" "$work/root"
  dpkg-deb -c "$d" | awk '$1 !~ /^d/ {print $6}' >>"$work/files.txt"
done
dups=$(sort "$work/files.txt" | uniq -d)
[[ -z "$dups" ]] || fail "files in two packages: $dups"
root=$(cd "$work/root" && pwd -P)
usr="$root/usr"
lib=$(find "$usr" -name 'libgshmem.so.*.*' -type f | head -n 1)
[[ -n "$lib" ]] || fail "no libgshmem.so.* unpacked"
secs=$(readelf -S "$lib")
grep -q '\.debug_info' <<<"$secs" && fail "$lib is not stripped (its debug information belongs in -dbgsym)"
echo "runtime library: ${lib#"$root"} ($(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p'))"

step "hello.c with the unpacked gshmemcc and gshmemc++ (the prefix found from the wrappers' location)"
"$usr/bin/gshmemcc" --showme | grep -q -- "-I$usr/include" || fail "the unpacked gshmemcc does not use $usr"
"$usr/bin/gshmemcc" "$here/hello.c" -o "$work/hello_c" || fail "gshmemcc from the packages"
run2 "$work/hello_c"
"$usr/bin/gshmemc++" -x c++ "$here/hello.c" -o "$work/hello_cxx" || fail "gshmemc++ from the packages"
run2 "$work/hello_cxx"
GSHMEMCC_PREFIX="$usr" "$usr/bin/gshmemcc" --showme:link | grep -q -- "-L$usr/lib" || fail "GSHMEMCC_PREFIX"

step "a CMake project (MPI::MPI_C linked first), pkg-config and the osh* names, from the packages"
cmake_bin=$(dirname "$cpack")/cmake
[[ -x "$cmake_bin" ]] || cmake_bin=cmake
"$cmake_bin" -S "$here/mpi-first" -B "$work/mpi-first" -DCMAKE_PREFIX_PATH="$usr" >"$work/mpi-first.log" 2>&1 \
  || { cat "$work/mpi-first.log"; fail "configure of the MPI-first project against the packages"; }
"$cmake_bin" --build "$work/mpi-first" >>"$work/mpi-first.log" 2>&1 \
  || { cat "$work/mpi-first.log"; fail "build of the MPI-first project against the packages"; }
run2 "$work/mpi-first/mpi_first"
if command -v pkg-config >/dev/null; then
  pcdir=$(dirname "$(find "$usr" -name gshmem.pc | head -n 1)")
  flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs gshmem) || fail "pkg-config gshmem from the packages"
  # shellcheck disable=SC2086
  cc "$here/hello.c" -o "$work/hello_pc" $flags || fail "cc with the packages' pkg-config flags"
  run2 "$work/hello_pc"
fi
if [[ -e "$usr/bin/oshcc" ]]; then
  "$usr/bin/oshcc" "$here/hello.c" -o "$work/hello_osh" || fail "oshcc from the packages"
  out=$("$usr/bin/oshrun" "${mpi[@]:1}" "$work/hello_osh" 2>&1) || { echo "$out"; fail "oshrun from the packages"; }
  [[ $(grep -c ' OK$' <<<"$out") -eq 2 ]] || { echo "$out"; fail "oshrun: hello did not print OK on both PEs"; }
  echo "oshcc + oshrun from the packages: OK on 2 PEs"
fi

step "man page and gshmem-info from the packages"
if command -v man >/dev/null; then
  page=$(man -l "$usr/share/man/man1/gshmemcc.1" 2>&1) || { echo "$page"; fail "man -l gshmemcc.1"; }
  grep -q '^NAME' <<<"$page" || { echo "$page"; fail "man -l gshmemcc.1: no NAME section"; }
  echo "man -l gshmemcc.1: OK"
fi
"$usr/bin/gshmem-info" -v | grep -q '^gshmem ' || fail "the unpacked gshmem-info"
echo "deb-test: PASSED"
