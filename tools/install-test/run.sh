#!/usr/bin/env bash
# Install test: install the build into a scratch prefix, then use that prefix the way a user would.
#   run.sh BUILD_DIR WORK_DIR [CMAKE] [MPIEXEC]
# 1. cmake --install into WORK_DIR/prefix
# 2. gshmem-info and the wrappers' --showme run from the prefix
# 3. hello.c built with the installed gshmemcc, run on 2 PEs; a program built with -fsanitize=address,undefined
# 4. a CMake project using find_package(gshmem), run on 2 PEs; the same from a project that enables only C++
# 5. the installed example apps run; one is built from the installed app sources with find_package(gshmem)
# 6. hello.c built with pkg-config --cflags --libs gshmem, by cc and by nvcc (when present)
# 7. a CMake project linking MPI::MPI_C before gshmem::gshmem still compiles against gshmem's headers
# 8. the osh* names (when installed), the man pages and the documents
# 9. NVSHMEM drop-in (CUDA builds): an NVSHMEM-style CMake project (find_package(NVSHMEM), -rdc=true) and Makefile
#    (NVSHMEM_HOME, -lnvshmem_host -lnvshmem_device) build against the prefix; their host-only programs run; a
#    perftest-style project (helper library, latency program, a cubin for the driver API) builds by its Makefile and,
#    its program runs on 2 PEs (start-up only without a GPU)
set -euo pipefail

build_dir=$1
work=$2
cmake=${3:-cmake}
mpiexec=${4:-mpirun}
[[ -n "$mpiexec" ]] || mpiexec=mpirun
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix="$work/prefix"

step() { echo "--- install-test: $*"; }
fail() { echo "install-test: FAILED: $*" >&2; exit 1; }

source "$here/launch.sh"

rm -rf "$work"
mkdir -p "$work"

step "cmake --install $build_dir --prefix $prefix"
"$cmake" --install "$build_dir" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "install"; }
for f in include/shmem.h include/shmemx.h include/gshmem/version.h bin/gshmemcc bin/gshmemc++ bin/gshmem-info; do
  [[ -e "$prefix/$f" ]] || fail "$f was not installed"
done
libdir=$(dirname "$(find "$prefix" -name 'libgshmem.so' | head -n 1)")
[[ -e "$libdir/libgshmem.so" ]] || fail "libgshmem.so was not installed"
[[ -e "$libdir/cmake/gshmem/gshmemConfig.cmake" ]] || fail "gshmemConfig.cmake was not installed"
[[ -e "$libdir/pkgconfig/gshmem.pc" ]] || fail "gshmem.pc was not installed"

real_prefix=$(realpath "$prefix")
step "gshmem-info from the prefix"
"$prefix/bin/gshmem-info" -v
# Capture first: with pipefail, "cmd | grep -q" fails when grep exits at the first match and cmd, still
# writing, dies of SIGPIPE (gshmem-info -c writes more than one pipe buffer).
info=$("$prefix/bin/gshmem-info" -c) || fail "gshmem-info -c exited with an error"
grep -q '^GSHMEM_SYMMETRIC_SIZE=' <<<"$info" || fail "gshmem-info -c lacks GSHMEM_SYMMETRIC_SIZE"
info=$("$prefix/bin/gshmem-info" -a) || fail "gshmem-info -a exited with an error"
for want in '^# gshmem version:' '^# transports: .*shm' '^# memory kinds: .*host' '^# network interfaces:' \
            '^GSHMEM_SYMMETRIC_SIZE='; do
  grep -Eq "$want" <<<"$info" || { echo "$info"; fail "gshmem-info -a lacks $want"; }
done
grep -q "^# running from: *$real_prefix\$" <<<"$info" || { echo "$info"; fail "gshmem-info -b: wrong running prefix"; }
sed -n '/^# gshmem version/,/^# memory kinds/p' <<<"$info"

step "wrappers"
"$prefix/bin/gshmemcc" --showme hello.c -o hello
show=$("$prefix/bin/gshmemcc" --showme) || fail "gshmemcc --showme (no other argument) exited with an error"
echo "gshmemcc --showme: $show"
grep -q -- "-I$real_prefix/include" <<<"$show" && grep -q -- '-lgshmem' <<<"$show" \
  || fail "gshmemcc --showme lacks the compile or link flags"
show=$("$prefix/bin/gshmemcc" --showme -c hello.c) || fail "gshmemcc --showme -c exited with an error"
grep -q -- '-lgshmem' <<<"$show" && fail "gshmemcc -c must not add link flags"
show=$("$prefix/bin/gshmemc++" --showme:link) || fail "gshmemc++ --showme:link exited with an error"
grep -q -- '-lgshmem' <<<"$show" || fail "gshmemc++ --showme:link lacks -lgshmem"

step "every OpenSHMEM header name resolves to gshmem's through gshmemcc and gshmemc++"
# Open MPI's include directory holds its own shmem.h, shmemx.h, pshmem.h, pshmemx.h, mpp/shmem.h and
# shmem-compat.h. Each name gshmem installs, and each C header of another implementation on the wrappers' path, must
# be found in the prefix, and nothing of the other implementation may be read on the way.
# The others' Fortran headers (shmem.fh) are not C headers; gshmem has no Fortran API.
for f in include/pshmem.h include/pshmemx.h include/mpp/shmem.h include/mpp/shmemx.h include/shmem-compat.h; do
  [[ -e "$prefix/$f" ]] || fail "$f was not installed"
done
other_dirs=$("$prefix/bin/gshmemcc" --showme:compile | tr ' ' '\n' | grep -v '^-' | grep -v "^$real_prefix" || true)
names="shmem.h shmemx.h pshmem.h pshmemx.h mpp/shmem.h mpp/shmemx.h shmem-compat.h"
for d in $other_dirs; do
  # the names a program includes: <*shmem*.h> and <mpp/*.h> (not an MPI's internal headers further down)
  [[ -d "$d" ]] && names+=" $(cd "$d" && { find . -maxdepth 1 -name '*shmem*.h'; find . -path './mpp/*.h'; } |
                               sed 's|^\./||' | tr '\n' ' ')"
done
for h in $(tr ' ' '\n' <<<"$names" | sort -u); do
  for w in "gshmemcc -x c" "gshmemc++ -x c++"; do
    read -r tool lang_flag lang <<<"$w"
    deps=$(echo "#include <$h>" | "$prefix/bin/$tool" "$lang_flag" "$lang" -M -MT x - 2>&1) \
      || { echo "$deps"; fail "$tool cannot preprocess #include <$h>"; }
    deps=$(tr ' \\' '\n\n' <<<"$deps" | grep '^/' || true)
    grep -qx "$real_prefix/include/$h" <<<"$(realpath -m $deps)" || { echo "$deps"; fail "$tool: <$h> is not gshmem's"; }
    for d in $other_dirs; do
      grep -q "^$(realpath -m "$d")/" <<<"$(realpath -m $deps)" && { echo "$deps"; fail "$tool: <$h> reads $d"; }
    done
  done
  echo "<$h>: gshmem's, through gshmemcc and gshmemc++"
done
"$prefix/bin/gshmemcc" -std=c11 "$here/../../tests/programs/header_names.c" -o "$work/header_names" \
  || fail "gshmemcc could not build header_names.c (a header of another implementation came first?)"

step "build hello.c with gshmemcc (separate compile and link) and run on 2 PEs"
"$prefix/bin/gshmemcc" -O2 -c "$here/hello.c" -o "$work/hello.o"
"$prefix/bin/gshmemcc" "$work/hello.o" -o "$work/hello"
run2 "$work/hello"

step "build hello.c as C++ with gshmemc++ in one step and run on 2 PEs"
"$prefix/bin/gshmemc++" -x c++ "$here/hello.c" -o "$work/hello_cxx"
run2 "$work/hello_cxx"

step "a program with symmetric globals built with gshmemcc -fsanitize=address,undefined (a user's ASan build), 2 PEs"
# The library is not sanitized; shmem_init's copy of the program's data segment must get past ASan's red zones.
"$prefix/bin/gshmemcc" -std=c11 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
  "$here/../../tests/programs/put_get.c" -o "$work/put_get_asan" || fail "gshmemcc -fsanitize=address,undefined"
out=$(ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1 "${mpi[@]}" "$work/put_get_asan" 2>&1) \
  || { echo "$out"; fail "put_get built with -fsanitize=address,undefined exited with an error"; }
grep -q "SUCCESS" <<<"$out" || { echo "$out"; fail "put_get built with -fsanitize did not print SUCCESS"; }
echo "put_get with -fsanitize=address,undefined: SUCCESS on 2 PEs"

step "the spec-style programs of tests/programs, built with the installed gshmemcc, on 2 and 4 PEs"
# As an OpenSHMEM user would: nothing of the build tree, only the wrapper; each must print its SUCCESS line.
programs=$(cd "$here/../../tests/programs" && pwd)
for src in "$programs"/*.c; do
  name=$(basename "$src" .c)
  "$prefix/bin/gshmemcc" -std=c11 -O2 "$src" -o "$work/prog_$name" || fail "gshmemcc could not build $name.c"
  for np in 2 4; do
    out=$("${mpibase[@]}" -np "$np" "$work/prog_$name" 2>&1) \
      || { echo "$out"; fail "$name on $np PEs exited with an error"; }
    grep -q "SUCCESS" <<<"$out" || { echo "$out"; fail "$name on $np PEs did not print SUCCESS"; }
  done
  echo "$name: built with gshmemcc, SUCCESS on 2 and 4 PEs"
done

step "find_package(gshmem) project"
"$cmake" -S "$here/find-package" -B "$work/find-package" -DCMAKE_PREFIX_PATH="$prefix" >"$work/find-package.log" \
  || { cat "$work/find-package.log"; fail "configure of the find_package project"; }
grep 'gshmem ' "$work/find-package.log" || true
"$cmake" --build "$work/find-package" >>"$work/find-package.log" \
  || { cat "$work/find-package.log"; fail "build of the find_package project"; }
run2 "$work/find-package/hello_cmake"

step "find_package(gshmem) project that enables only C++"
"$cmake" -S "$here/find-package-cxx" -B "$work/find-package-cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/find-package-cxx.log" || { cat "$work/find-package-cxx.log"; fail "configure of the C++-only project"; }
"$cmake" --build "$work/find-package-cxx" >>"$work/find-package-cxx.log" \
  || { cat "$work/find-package-cxx.log"; fail "build of the C++-only find_package project"; }
run2 "$work/find-package-cxx/hello_cmake_cxx"

step "the example apps: installed programs, and the installed sources built with find_package(gshmem)"
for app in hsg stencil bfs; do
  [[ -x "$prefix/${GSHMEM_INSTALL_LIBEXECDIR:-libexec}/gshmem/apps/$app" ]] || fail "apps/$app was not installed"
done
[[ -e "$prefix/share/gshmem/apps/common/app_util.hpp" ]] || fail "apps/common/app_util.hpp was not installed"
out=$("${mpi[@]}" "$prefix/${GSHMEM_INSTALL_LIBEXECDIR:-libexec}/gshmem/apps/bfs" --check --scale 10 --roots 4 2>&1) \
  || { echo "$out"; fail "the installed bfs exited with an error"; }
grep -q "check: OK" <<<"$out" || { echo "$out"; fail "the installed bfs did not print check: OK"; }
echo "installed bfs: check: OK on 2 PEs"
"$cmake" -S "$prefix/share/gshmem/apps" -B "$work/apps" -DCMAKE_PREFIX_PATH="$prefix" >"$work/apps.log" \
  || { cat "$work/apps.log"; fail "configure of the installed apps"; }
"$cmake" --build "$work/apps" --target gshmem_app_stencil >>"$work/apps.log" \
  || { cat "$work/apps.log"; fail "build of the installed stencil app"; }
out=$("${mpi[@]}" "$work/apps/stencil" --check --nx 64 --ny 64 --niter 20 2>&1) \
  || { echo "$out"; fail "the stencil built from the installed sources exited with an error"; }
grep -q "check: OK" <<<"$out" || { echo "$out"; fail "the stencil built from the installed sources did not print check: OK"; }
echo "stencil built from <prefix>/share/gshmem/apps with find_package(gshmem): check: OK on 2 PEs"

step "pkg-config"
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs gshmem) || fail "pkg-config gshmem"
  echo "pkg-config --cflags --libs gshmem: $flags"
  # shellcheck disable=SC2086
  cc "$here/hello.c" -o "$work/hello_pc" $flags -Wl,-rpath,"$libdir"
  run2 "$work/hello_pc"
  # nvcc accepts the same flags (no -idirafter, no -Wl,): the run path comes as -Xlinker -rpath=DIR.
  if command -v nvcc >/dev/null; then
    cp "$here/hello.c" "$work/hello_pc.cu"
    # shellcheck disable=SC2086
    nvcc "$work/hello_pc.cu" -o "$work/hello_pc_nvcc" $flags || fail "nvcc with pkg-config --cflags --libs gshmem"
    run2 "$work/hello_pc_nvcc"
  else
    echo "nvcc not found; the pkg-config build with nvcc skipped"
  fi
else
  echo "pkg-config not found; skipped"
fi

step "a CMake project linking MPI::MPI_C before gshmem::gshmem"
"$cmake" -S "$here/mpi-first" -B "$work/mpi-first" -DCMAKE_PREFIX_PATH="$prefix" >"$work/mpi-first.log" \
  || { cat "$work/mpi-first.log"; fail "configure of the MPI-first project"; }
"$cmake" --build "$work/mpi-first" >>"$work/mpi-first.log" \
  || { cat "$work/mpi-first.log"; fail "build of the MPI-first project (Open MPI's shmem.h came first?)"; }
run2 "$work/mpi-first/mpi_first"
run2 "$work/mpi-first/mpi_first_cxx"

step "osh* names, man pages, documents"
if [[ -e "$prefix/bin/oshcc" ]]; then
  for f in oshc++ oshCC oshcxx oshrun oshmem_info; do [[ -e "$prefix/bin/$f" ]] || fail "bin/$f was not installed"; done
  show=$("$prefix/bin/oshcc" --showme) || fail "oshcc --showme"
  grep -q -- "-I$real_prefix/include" <<<"$show" || fail "oshcc is not gshmemcc of this prefix: $show"
  "$prefix/bin/oshmem_info" -v | grep -q '^gshmem ' || fail "oshmem_info is not gshmem-info"
  "$prefix/bin/oshcc" "$here/hello.c" -o "$work/hello_osh"
  out=$("$prefix/bin/oshrun" "${mpi[@]:1}" "$work/hello_osh" 2>&1) || { echo "$out"; fail "oshrun"; }
  [[ $(grep -c ' OK$' <<<"$out") -eq 2 ]] || { echo "$out"; fail "oshrun: hello did not print OK on both PEs"; }
  echo "oshcc + oshrun: OK on 2 PEs"
else
  echo "osh* names not installed (GSHMEM_INSTALL_OSH_NAMES=OFF)"
fi
for f in share/man/man1/gshmemcc.1 share/man/man1/gshmemc++.1 share/man/man1/gshmem-info.1 \
         share/man/man1/gshmem-calibrate.1 share/man/man7/gshmem.7 share/doc/gshmem/LICENSE \
         share/doc/gshmem/README.md share/doc/gshmem/CONFIGURATION.md; do
  [[ -e "$prefix/$f" ]] || fail "$f was not installed"
done
if command -v man >/dev/null; then
  for f in man1/gshmemcc.1 man1/gshmem-info.1 man7/gshmem.7; do
    page=$(man -l "$prefix/share/man/$f" 2>&1) || { echo "$page"; fail "man -l $f"; }
    grep -q '^NAME' <<<"$page" || { echo "$page"; fail "man -l $f: no NAME section"; }
  done
fi

step "NVSHMEM drop-in: find_package(NVSHMEM) and NVSHMEM_HOME builds against the prefix"
if [[ -e "$libdir/cmake/NVSHMEM/NVSHMEMConfig.cmake" ]] && command -v nvcc >/dev/null; then
  for f in include/nvshmem.h include/nvshmemx.h; do [[ -e "$prefix/$f" ]] || fail "$f was not installed"; done
  [[ -e "$libdir/libnvshmem_host.so" && -e "$libdir/libnvshmem_device.a" ]] || fail "libnvshmem_* were not installed"
  "$cmake" -S "$here/nvshmem-cmake" -B "$work/nvshmem-cmake" -DNVSHMEM_DIR="$libdir/cmake/NVSHMEM" \
    >"$work/nvshmem-cmake.log" || { cat "$work/nvshmem-cmake.log"; fail "configure of the NVSHMEM-style project"; }
  "$cmake" --build "$work/nvshmem-cmake" -j 2 >>"$work/nvshmem-cmake.log" \
    || { cat "$work/nvshmem-cmake.log"; fail "build of the NVSHMEM-style CMake project"; }
  run2 "$work/nvshmem-cmake/nv_host_only"
  mkdir -p "$work/nv-make"
  cp -r "$here/nvshmem-make" "$here/nvshmem-cmake" "$work/nv-make/"
  make -s -C "$work/nv-make/nvshmem-make" NVSHMEM_HOME="$prefix" NVSHMEM_LIBDIR="$libdir" \
    >"$work/nvshmem-make.log" 2>&1 || { cat "$work/nvshmem-make.log"; fail "the NVSHMEM-style Makefile"; }
  run2 "$work/nv-make/nvshmem-make/host_only"
  cp -r "$here/nvshmem-perftest" "$work/nv-make/"
  make -s -C "$work/nv-make/nvshmem-perftest" NVSHMEM_HOME="$prefix" NVSHMEM_LIBDIR="$libdir" all module \
    >"$work/nvshmem-perftest.log" 2>&1 || { cat "$work/nvshmem-perftest.log"; fail "the perftest-style Makefile"; }
  [[ -s "$work/nv-make/nvshmem-perftest/put_latency_module.cubin" ]] || fail "the perftest-style module was not built"
  # without a GPU: start-up only ("host-only: ... OK"); with one: a short measurement ending in "check OK"
  run2 "$work/nv-make/nvshmem-perftest/shmem_put_latency" -e 4096 -n 20 -w 2
  echo "NVSHMEM-style CMake project, Makefile and perftest-style project built against the prefix (kernels not run)"
else
  echo "no NVSHMEM drop-in installed (a build without CUDA) or no nvcc; skipped"
fi

echo "install-test: PASSED"
