#!/bin/bash
# The fault matrix beside Open MPI's OpenSHMEM, in one run: the same fault_wait.c built with gshmem's wrapper and
# with Open MPI's oshcc, each case launched the same way, timed the same way (tests/fault/run_fault.sh), with a cap
# on Open MPI's runs (it may never end them). Prints a Markdown table. Not part of ctest: a hanging case costs the cap.
#   tests/fault/compare_openmpi.sh [build-dir] [cap-seconds]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cap=${2:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timeout_s=5
export GSHMEM_TIMEOUT=$timeout_s GSHMEM_SYMMETRIC_SIZE=64M
cc -O1 -o "$work/gshmem" "$here/fault_wait.c" -I"$here/../../include" -I"$build/include" -L"$build/src" -lgshmem \
    -Wl,-rpath,"$build/src" || { echo "cannot build fault_wait against gshmem" >&2; exit 1; }
if ! oshcc -O1 -DFAULT_WAIT_OPENSHMEM_14 -o "$work/oshmem" "$here/fault_wait.c" 2>"$work/oshcc.log"; then
  echo "oshcc failed (Open MPI without OpenSHMEM?):" >&2
  cat "$work/oshcc.log" >&2
  exit 1
fi
# One case: prints "ended after S s: <first error line>" or "hung (killed at the cap)".
run_case() {  # impl case victim np
  local impl=$1 case=$2 victim=$3 np=$4 out rc took line
  local launch=(mpiexec --allow-run-as-root --oversubscribe --bind-to none -x GSHMEM_TIMEOUT -x GSHMEM_SYMMETRIC_SIZE)
  [ "$impl" = oshmem ] && launch=(oshrun --allow-run-as-root --oversubscribe --bind-to none --mca memory ^patcher)
  # run_fault.sh kills the job's process group and any leftover at the cap (no outer timeout: it would leave them).
  out=$(RUN_FAULT_LIMIT=$cap "$here/run_fault.sh" ended "$cap" "." -- "${launch[@]}" -np "$np" "$work/$impl" \
    "$case" "$victim" 0 2>&1)
  rc=$?
  took=$(echo "$out" | sed -n 's/^run_fault: exit status [0-9]*, ended \([0-9.]*\) s after the fault.*/\1/p' | tail -1)
  line=$(echo "$out" | grep -m1 -E "gshmem: PE|lost|has not made|signal 9|Killed|exited on signal|ORTE has lost" |
         cut -c1-90 | sed 's/|/\\|/g')
  if echo "$out" | grep -q "FAILED: the job hung"; then
    echo "hangs (killed at the ${cap} s cap)"
  elif [ -n "$took" ]; then
    echo "ends after ${took} s${line:+: \`$line\`}"
  else
    echo "no result (exit $rc)"
  fi
}
echo "Fault matrix, $(date -u +%F), $(nproc) cores, GSHMEM_TIMEOUT=$timeout_s, cap ${cap} s; $(ompi_info --version 2>/dev/null | head -1)"
echo
echo "| Case | PEs | gshmem | Open MPI OpenSHMEM |"
echo "|---|---|---|---|"
for c in "barrier 1 2" "barrier 0 2" "barrier 1 4" "init 1 2" "wait_until 1 2" "test 1 2" "broadcast 1 2" \
         "putloop 1 2" "finalize 1 2" "exit 1 2" "kill 1 2" "kill 0 2"; do
  set -- $c
  echo "| $1, victim PE $2 | $3 | $(run_case gshmem "$1" "$2" "$3") | $(run_case oshmem "$1" "$2" "$3") |"
done
