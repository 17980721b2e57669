#!/bin/bash
# Run an MPI/OpenSHMEM job on this machine with every rank in a namespace of its own, so that PEs of one node (to
# the launcher) differ in what they see:
#
#   run_namespaced.sh --ns pid [options] -- <program> [args...]
#
#   --ns pid        each rank in its own PID namespace (unshare --pid --fork --mount-proc): PIDs of peers mean
#                   nothing there (every rank is PID 1); gshmem's segments must still travel (SCM_RIGHTS)
#   --np N          PEs (default 2)
#   --mpirun PATH   the Open MPI launcher (default: mpirun)
#   --expect REGEX  the job's output (stdout+stderr) must match REGEX (grep -E; repeatable)
#   --expect-fail   the job must end with a non-zero status
#   --timeout S     give up on the job after S seconds (default 100): fail
#
# Every rank prints its namespace first ("namespaced rank: pid:[...]"); the job must show N distinct ones.
# Exit status: 0 pass, 1 fail, 77 skipped (unshare missing or not permitted: the reason is printed).
set -u

ns=""
np=2
mpirun=mpirun
timeout_s=100
expect_fail=0
expects=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ns) ns=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --expect) expects+=("$2"); shift 2 ;;
    --expect-fail) expect_fail=1; shift ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_namespaced: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "run_namespaced: no program given" >&2; exit 2; }
case "$ns" in
  pid) flags=(--pid --fork --mount-proc --kill-child) ;;
  *) echo "run_namespaced: --ns pid (a rank per network namespace cannot reach Open MPI's daemon)" >&2; exit 2 ;;
esac

skip() {
  echo "SKIP: namespaced test not run: $*"
  exit 77
}
command -v unshare > /dev/null || skip "the 'unshare' command (util-linux) is not installed"
command -v "$mpirun" > /dev/null || skip "launcher '$mpirun' not found"
probe=$(unshare "${flags[@]}" true 2>&1) || skip "unshare ${flags[*]} is not permitted here: $probe"

work=$(mktemp -d /tmp/gshmem-namespaced.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat > "$work/rank" << EOF
#!/bin/sh
exec unshare ${flags[*]} sh -c 'echo "namespaced rank: \$(readlink /proc/self/ns/$ns)"; exec "\$@"' rank "\$@"
EOF
chmod +x "$work/rank"

# Open MPI between the ranks: TCP (its shared-memory BTL crashes when ranks share a PID in different namespaces).
launcher=("$mpirun" --oversubscribe --bind-to none --mca btl self,tcp)
[ "$(id -u)" = 0 ] && launcher+=(--allow-run-as-root)
timeout -k 5 "$timeout_s" "${launcher[@]}" -np "$np" "$work/rank" "$@" > "$work/out" 2>&1
rc=$?
cat "$work/out"

fail() {
  echo "run_namespaced: FAILED: $*"
  exit 1
}
[ "$rc" = 124 ] && fail "the job did not end within $timeout_s s"
distinct=$(grep -oE '^namespaced rank: .*' "$work/out" | sort -u | wc -l)
[ "$distinct" = "$np" ] || fail "expected $np ranks in distinct $ns namespaces, saw $distinct"
if [ "$expect_fail" = 1 ]; then
  [ "$rc" != 0 ] || fail "expected a non-zero exit status, got 0"
else
  [ "$rc" = 0 ] || fail "exit status $rc"
fi
for re in "${expects[@]+"${expects[@]}"}"; do
  grep -qE -- "$re" "$work/out" || fail "output does not match '$re'"
done
echo "run_namespaced: OK"
