#!/bin/bash
# The fault and bad-input matrix beside Open MPI's OpenSHMEM, in one run: the same programs (fault_wait.c for stops,
# kills and exits, mismatch.c for call mismatches and bad arguments) built with gshmem and with Open MPI's oshcc,
# each case launched the same way and timed by the same driver (tests/fault/run_fault.sh, clock started at the
# fault line), with a cap on every run (Open MPI may never end them). Prints a Markdown table. Not part of ctest: a
# hanging case costs the cap.
#   tests/fault/compare_openmpi.sh [build-dir] [cap-seconds]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cap=${2:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timeout_s=5
export GSHMEM_TIMEOUT=$timeout_s GSHMEM_SYMMETRIC_SIZE=64M
for prog in fault_wait mismatch; do
  cc -O1 -o "$work/gshmem_$prog" "$here/$prog.c" -I"$here/../../include" -I"$build/include" -L"$build/src" -lgshmem \
      -lpthread -Wl,-rpath,"$build/src" || { echo "cannot build $prog against gshmem" >&2; exit 1; }
  if ! oshcc -O1 -DFAULT_WAIT_OPENSHMEM_14 -DMISMATCH_OPENSHMEM_14 -o "$work/oshmem_$prog" "$here/$prog.c" \
       2>"$work/oshcc.log"; then
    echo "oshcc failed on $prog.c (Open MPI without OpenSHMEM?):" >&2
    cat "$work/oshcc.log" >&2
    exit 1
  fi
done

# One run: prints how it ended, for a table cell.
#   run_case <impl: gshmem|oshmem> <np> <program> <args...>; GSHMEM_TEST_STOP_IN_INIT is passed on when set
run_case() {
  local impl=$1 np=$2 prog=$3 out rc took status sig line
  shift 3
  local launch=(mpiexec --allow-run-as-root --oversubscribe --bind-to none -x GSHMEM_TIMEOUT -x GSHMEM_SYMMETRIC_SIZE)
  [ -n "${GSHMEM_TEST_STOP_IN_INIT:-}" ] && launch+=(-x GSHMEM_TEST_STOP_IN_INIT)
  [ "$impl" = oshmem ] && launch=(oshrun --allow-run-as-root --oversubscribe --bind-to none --mca memory ^patcher)
  # run_fault.sh kills the job's process group and any leftover at the cap (no outer timeout: it would leave them).
  out=$(RUN_FAULT_LIMIT=$cap "$here/run_fault.sh" ended "$cap" "." -- "${launch[@]}" -np "$np" \
        "$work/${impl}_$prog" "$@" 2>&1)
  rc=$?
  took=$(echo "$out" | sed -n 's/^run_fault: exit status [0-9]*, ended \([0-9.]*\) s after the fault.*/\1/p' | tail -1)
  status=$(echo "$out" | sed -n 's/^run_fault: exit status \([0-9]*\),.*/\1/p' | tail -1)
  # A crash: a signal other than the SIGKILL/SIGTERM of a kill case or of the launcher ending the job.
  sig=$(echo "$out" | grep -oE "exited on signal [0-9]+|Caught signal [0-9]+" | grep -oE "[0-9]+$" |
        grep -vxE "9|15" | head -1)
  # The first error line: the library's own line first (a warning only if there is no other), else the launcher's.
  # The launcher may split a PE's line where another PE's output came in between: the fault lines are taken out, a
  # line ending in "] " is joined.
  local clean re
  clean=$(echo "$out" | grep -vE "^run_fault:|GSHMEM_TEST_STOP_IN_INIT: stopping" |
          sed -E 's/(fault_wait|mismatch): PE [0-9]+: [a-z_]+ now//' |
          sed -E '/\] *$/{N;s/\n//;}')
  line=$(echo "$clean" | grep -v "warning:" | grep -m1 "gshmem: ")
  for re in "gshmem: " "\.c:[0-9]+:[a-z_0-9]+\] " "Caught signal" "lost PE|has not made" "SHMEM_ABORT" \
            "exited on signal" "ORTE has lost" "[Ee]rror" "non-zero"; do
    [ -n "$line" ] && break
    line=$(echo "$clean" | grep -m1 -E "$re")
  done
  line=$(echo "$line" | sed -E 's/^.*\]\[([a-z_0-9]+\.c:[0-9]+:[a-z_0-9]+)\] /\1: /; s/^\[[^] ]*\] //' |
         sed -E 's/ \(pid [0-9]+, host=[^)]*\)//' | cut -c1-90 | sed 's/|/\\|/g; s/`/'"'"'/g')
  # What the program itself saw: a wrong result, or a call or barrier that should not have returned.
  local wrong silent
  wrong=$(echo "$out" | grep -m1 "WRONG" | sed -E 's/^mismatch: (PE [0-9]+): [a-z_]+ returned, (.*)/\1: \2/' |
          cut -c1-90)
  silent=$(echo "$out" | grep -m1 -E "bad call returned|passed a barrier without|barrier returned" |
           sed 's/^mismatch: //' | cut -c1-90)
  if echo "$out" | grep -q "FAILED: the job hung"; then
    echo "hangs (killed at the ${cap} s cap)${wrong:+; before that \`$wrong\`}${silent:+; before that \`$silent\`}"
  elif [ -z "$took" ]; then
    echo "no result (driver exit $rc)"
  elif [ -n "$sig" ]; then
    echo "crash (signal $sig), ends after ${took} s, exit ${status}${line:+: \`$line\`}"
  elif [ "$status" = 0 ] && [ -n "$wrong" ]; then
    echo "silent wrong result, exit 0: \`$wrong\`"
  elif [ "$status" = 0 ] && [ -n "$silent" ]; then
    echo "no error, exit 0: \`$silent\`"
  elif [ "$status" = 0 ]; then
    echo "completes without an error, exit 0 (each PE's data as its own call promises)"
  else
    echo "ends after ${took} s, exit ${status}${line:+: \`$line\`}${wrong:+; before that \`$wrong\`}"
  fi
}
row() {  # description np gshmem-cell oshmem-cell
  echo "| $1 | $2 | $3 | $4 |"
}

ucx=$(ucx_info -v 2>/dev/null | sed -n 's/^# Version \([^ ]*\).*/\1/p' | head -1)
echo "Fault and bad-input matrix, $(date -u '+%F %H:%M UTC'), $(nproc) cores, GSHMEM_TIMEOUT=$timeout_s," \
     "cap ${cap} s per run; $(ompi_info --version 2>/dev/null | head -1)${ucx:+, UCX $ucx};" \
     "load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| Case | PEs | gshmem | Open MPI OpenSHMEM |"
echo "|---|---|---|---|"

# Stops, kills and exits while the others wait (fault_wait.c).
while read -r c v np what; do
  row "$what" "$np" "$(run_case gshmem "$np" fault_wait "$c" "$v" 0)" "$(run_case oshmem "$np" fault_wait "$c" "$v" 0)"
done <<'EOF'
barrier 1 2 PE 1 SIGSTOP, the others in `shmem_barrier_all`
barrier 0 2 PE 0 SIGSTOP, the others in `shmem_barrier_all`
barrier 1 4 PE 1 SIGSTOP, the others in `shmem_barrier_all`
init 1 2 PE 1 SIGSTOP as `shmem_init` returns, the others in the first barrier
wait_until 1 2 PE 1 SIGSTOP, the others in `shmem_long_wait_until` on a flag it would set
test 1 2 PE 1 SIGSTOP, the others in a `shmem_long_test` loop
broadcast 1 2 PE 1 SIGSTOP, the others in a broadcast from PE 0
putloop 1 2 PE 1 SIGSTOP, the others put 64 KiB blocks into it (quiet each) for 1 s, then barrier
finalize 1 2 PE 1 SIGSTOP before `shmem_finalize`, the others in it
exit 1 2 PE 1 `exit(0)` without `shmem_finalize`, the others in `shmem_barrier_all`
kill 1 2 PE 1 SIGKILL, the others in `shmem_barrier_all`
kill 0 2 PE 0 SIGKILL, the others in `shmem_barrier_all`
EOF

# Stops during init. Open MPI has no hook that stops a PE inside shmem_init: its nearest equivalent is preinit.
row "PE 1 SIGSTOP just before \`shmem_init\`, the others inside it" 2 \
    "$(run_case gshmem 2 fault_wait preinit 1 0)" "$(run_case oshmem 2 fault_wait preinit 1 0)"
for phase in liveness regions transports attach teams; do
  row "PE 1 SIGSTOP inside \`shmem_init\` before phase \`$phase\` (\`GSHMEM_TEST_STOP_IN_INIT=1:$phase\`)" 2 \
      "$(GSHMEM_TEST_STOP_IN_INIT=1:$phase run_case gshmem 2 fault_wait ininit 1 0)" \
      "n/a (no such hook; nearest: the row above)"
done

# Call mismatches and bad arguments (mismatch.c), at the default GSHMEM_CHECK.
while read -r c what; do
  row "$what" 2 "$(run_case gshmem 2 mismatch "$c")" "$(run_case oshmem 2 mismatch "$c")"
done <<'EOF'
bcast_nelems Broadcast, root PE 0 passes `nelems` 8, PE 1 passes 16
bcast_root Broadcast, PE 0 passes root 0, PE 1 root 1; then a sum reduction
reduce_op Reduction, PE 0 sum, PE 1 max
skip_reduce PE 1 skips a sum reduction, then both enter `shmem_barrier_all`
barrier_vs_bcast PE 0 in `shmem_barrier_all`, PE 1 in a broadcast from PE 0
put_bad_source PE 1 puts 8 bytes from the local address 0x1000 to PE 0
put_pe_npes PE 0 puts a long to PE `shmem_n_pes()`
exit_three PE 1 `exit(3)` without `shmem_finalize`, PE 0 in `shmem_barrier_all`
EOF

# Lost links need two network namespaces (tests/multihost/run_multihost.sh): gshmem's rows are in ctest.
for c in linkput linkwait linkbcast linkend; do
  row "Link down between two namespace hosts (\`$c\`)" "2, 4" \
      "not measured here: ctest \`fault.multihost.$c.np2\`, \`.np4\`" "not measured"
done
