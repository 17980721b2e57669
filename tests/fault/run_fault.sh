#!/bin/bash
# Runs one fault case and checks that the job ends in time, with a line naming the silent PE, leaving nothing
# (no process of the job, no new gshmem entry in /dev/shm).
#   run_fault.sh <expect> <bound_s> <regex> -- <mpiexec command...>
#   expect: ended (the job must end, non-zero, within bound_s seconds of the fault, printing a line that matches
#           regex) or survives (it must exit 0 and print regex)
# The command runs in its own process group; a fault line ("fault_wait: PE n: <case> now", "mismatch: PE n: <case>
# now" of tests/fault/mismatch.c, or the library's "GSHMEM_TEST_STOP_IN_INIT: stopping in init now") starts the clock.
# Processes of the job still alive once the launcher has returned are killed and fail the case.
set -u
expect=$1 bound=$2 regex=$3
shift 4
tag="gshmem-fault-$$-$RANDOM"
shm_before=$(ls /dev/shm 2>/dev/null | grep -i gshmem | sort)
out=$(mktemp)
t0=$(date +%s.%N)
# setsid: the job gets its own process group, which the final sweep can find and end.
setsid "$@" "$tag" > >(while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$out") 2>&1 &
job=$!
# The job is declared hung (and its process group killed) after RUN_FAULT_LIMIT seconds, default bound + 60.
limit=${RUN_FAULT_LIMIT:-$(awk -v b="$bound" 'BEGIN { print int(b + 60) }')}
for ((i = 0; i < limit * 10; ++i)); do
  kill -0 "$job" 2>/dev/null || break
  sleep 0.1
done
hung=0
if kill -0 "$job" 2>/dev/null; then
  hung=1
  kill -KILL -- "-$job" 2>/dev/null
fi
wait "$job"
rc=$?
t1=$(date +%s.%N)
sleep 0.5  # the output pipe drains
cat "$out" | cut -d' ' -f2-
fail=0
# Leftovers: any process whose command line carries this run's tag.
left=$(pgrep -f -- "$tag" || true)
if [ -n "$left" ]; then
  echo "run_fault: FAILED: processes left behind: $left"
  for p in $left; do kill -KILL "$p" 2>/dev/null; done
  fail=1
fi
# Leftovers: gshmem entries in /dev/shm that were not there before (its segments are memfds, which end with the
# processes; a named segment would outlive them).
shm_new=$(comm -13 <(echo "$shm_before") <(ls /dev/shm 2>/dev/null | grep -i gshmem | sort))
if [ -n "$shm_new" ]; then
  echo "run_fault: FAILED: left in /dev/shm: $shm_new"
  fail=1
fi
fault_re='(fault_wait|mismatch): PE [0-9]+: [a-z_]+ now|GSHMEM_TEST_STOP_IN_INIT: stopping in init now'
fault_t=$(awk -v re="$fault_re" '$0 ~ re { print $1; exit }' "$out")
[ -z "$fault_t" ] && fault_t=$t0
took=$(awk -v a="$fault_t" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
report_t=$(grep -E -- "$regex" "$out" | head -1 | cut -d' ' -f1)
if [ -n "$report_t" ]; then
  seen=$(awk -v a="$fault_t" -v b="$report_t" 'BEGIN { printf "%.1f", b - a }')
  echo "run_fault: reported ${seen} s after the fault"
fi
echo "run_fault: exit status $rc, ended ${took} s after the fault (bound ${bound} s)"
if [ $hung = 1 ]; then echo "run_fault: FAILED: the job hung"; fail=1; fi
if ! cut -d' ' -f2- "$out" | grep -Eq -- "$regex"; then echo "run_fault: FAILED: no line matches '$regex'"; fail=1; fi
if [ "$expect" = ended ]; then
  [ "$rc" = 0 ] && { echo "run_fault: FAILED: exit status 0, expected the job to be ended"; fail=1; }
  if awk -v t="$took" -v b="$bound" 'BEGIN { exit !(t > b) }'; then
    echo "run_fault: FAILED: slower than ${bound} s"
    fail=1
  fi
  # A waiter's return counts before the report only: the launcher's abort resumes a stopped victim (SIGCONT), which
  # may then complete the wait in the moment before it is killed.
  report=$(grep -nE "has not made progress|$regex" "$out" | head -1 | cut -d: -f1)
  returned=$(grep -nE "fault_wait: PE [0-9]+: [a-z_]+ returned" "$out" | head -1 | cut -d: -f1)
  if [ -n "$returned" ] && { [ -z "$report" ] || [ "$returned" -lt "$report" ]; }; then
    echo "run_fault: FAILED: a wait returned although its peer was silent"
    fail=1
  fi
else
  [ "$rc" != 0 ] && { echo "run_fault: FAILED: exit status $rc, expected 0"; fail=1; }
fi
rm -f "$out"
[ $fail = 0 ] && echo "run_fault: OK"
exit $fail
