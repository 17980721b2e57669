#!/usr/bin/env bash
# One sanitizer job (docs/SANITIZERS.md): a host-only build configured with GSHMEM_SANITIZE, only the targets the
# job's tests run, then ctest on the job's label with runtime options that make any sanitizer report fail the test.
#   tests/sanitizers/run.sh asan|tsan [ctest options...]
#     asan: GSHMEM_SANITIZE=address,undefined, ctest -L asan (leak checking on, suppressions in lsan.supp)
#     tsan: GSHMEM_SANITIZE=thread, ctest -L tsan (suppressions in tsan.supp)
# Environment: SAN_BUILD_DIR (default build-<job>), SAN_FLAGS (C/C++ flags, default -O1 -g1 -DNDEBUG), JOBS,
#              TEST_TIMEOUT (seconds per test, default 300), GSHMEM_CMAKE_ARGS (extra configure options).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"

job=${1:-}
case $job in
  asan) sanitize=address,undefined ;;
  tsan) sanitize=thread ;;
  *) echo "usage: $0 asan|tsan [ctest options...]" >&2; exit 2 ;;
esac
shift
dir="${SAN_BUILD_DIR:-build-$job}"
case "$dir" in /*) ;; *) dir="$GSHMEM_ROOT/$dir" ;; esac
supp="$GSHMEM_ROOT/tests/sanitizers"
JOBS="${JOBS:-$(nproc)}"
SAN_FLAGS="${SAN_FLAGS:--O1 -g1 -DNDEBUG}"
# shellcheck disable=SC2206
extra=(${GSHMEM_CMAKE_ARGS:-})

phase_begin "$job: configure ($dir, GSHMEM_SANITIZE=$sanitize, host only)"
mkdir -p "$dir"
# -O1 -g1: line tables for the reports, and about half the compile time of -O2 -g (CI builds these without ccache).
cmake -S "$GSHMEM_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="$SAN_FLAGS" -DCMAKE_CXX_FLAGS="$SAN_FLAGS" \
      "${extra[@]}" \
      -DGSHMEM_SANITIZE="$sanitize" -DGSHMEM_ENABLE_CUDA=OFF -DGSHMEM_BUILD_BENCHMARKS=OFF -DGSHMEM_BUILD_APPS=OFF \
      >"$dir/configure.log" || { cat "$dir/configure.log"; exit 1; }
phase_end

# The targets are the build-tree executables the labelled tests name in their add_test lines (ctest's own listing
# leaves out the command of a test whose executable is not built yet).
phase_begin "$job: build (-j$JOBS, only what ctest -L $job runs)"
mapfile -t names < <(cd "$dir" && ctest -N -L "^$job\$" | sed -n 's/^ *Test *#[0-9]*: //p')
mapfile -t targets < <(
  for n in "${names[@]}"; do
    grep -h -F "add_test([=[$n]=] " "$dir/tests/CTestTestfile.cmake"
  done | grep -o "\"$dir/[^\"]*\"" | tr -d '"' | xargs -r -n1 basename | sort -u)
[[ ${#targets[@]} -gt 0 ]] || { echo "$job: no test carries the label $job" >&2; exit 1; }
echo "$job: ${#targets[@]} targets: ${targets[*]}"
cmake --build "$dir" -j"$JOBS" --target "${targets[@]}"
phase_end

phase_begin "$job: ctest -L $job"
if [[ "$(id -u)" -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Any report ends the process with a non-zero status (and the ctest FAIL_REGULAR_EXPRESSION of the labelled tests
# catches reports in tests whose expected outcome is already a failure).
common="halt_on_error=1:print_stacktrace=1"
if [[ $job == asan ]]; then
  # Leak checking is switched on per test (label asan_leaks, tests/sanitizers/labels.cmake): at exit it symbolizes
  # each of Open MPI's thousands of leftover allocations to match the suppressions, seconds per process.
  export ASAN_OPTIONS="$common:detect_leaks=0:strict_string_checks=1:check_initialization_order=1"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="$common"
else
  export TSAN_OPTIONS="$common:second_deadlock_stack=1:suppressions=$supp/tsan.supp:print_suppressions=0"
  # UCX's memory hooks intercept the madvise glibc makes on a thread's stack as the thread exits, after TSan has
  # torn down that thread's state: a SIGSEGV inside TSan. gshmem registers its memory explicitly and needs no hooks.
  # UCX_MEM_EVENTS covers processes that make a UCP context; the hook mode covers those that only load UCX (the
  # unique-id parent, whose rendezvous thread exits).
  export UCX_MEM_EVENTS=no UCX_MEM_MMAP_HOOK_MODE=none
fi
cd "$dir"
ctest_logged ctest.log --output-on-failure --timeout "${TEST_TIMEOUT:-300}" -L "^$job\$" "$@"
phase_end
