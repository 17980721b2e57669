#!/bin/bash
# Run an MPI/OpenSHMEM program on "hosts" made on this machine: network namespaces with their own hostnames, two
# joined by a veth pair, or more (--hosts) each joined to a bridge in a namespace of its own.
#
#   run_multihost.sh [options] -- <program> [args...]
#
# Options:
#   --np N              PEs (default 2); they are split evenly over the hosts in rank order: PEs 0..N/H-1 on host
#                       h0, the next N/H on h1, and so on
#   --hosts H           hosts (default 2, at most 8)
#   --mpirun PATH       the Open MPI launcher (default: mpirun)
#   --env K=V           set K=V for every PE (repeatable); UCX_TLS=tcp,self and UCX_NET_DEVICES=<veth> are preset
#   --timeout S         give up on the job after S seconds (default 170): fail. Seconds in which the machine stood
#                       still (the harness, sleeping 0.1 s, woke more than 2 s late: no process was run) do not
#                       count; the job is killed for good after 3 x S seconds of wall time whatever happened
#   --expect REGEX      the job's output (stdout+stderr) must match REGEX (grep -E; repeatable)
#   --expect-fail       the job must end with a non-zero status (fault tests)
#   --link-down-on M    when the output shows the marker M, bring every host's link down (fault test)
#   --within S          with --link-down-on, or a job expected to fail: the --expect lines must all appear
#                       within S seconds of the fault (the marker); then everything left is killed
#   --expect-end        with --link-down-on: the launcher must exit by itself within --within seconds of the fault
#                       (not be killed by this harness), even with the other host unreachable
#   --check-dev-shm     after the job, fail if a gshmem shared-memory segment was left in /dev/shm
#   --quiet-output      print the job's output only on failure
#   --keep-up CMD       (benchmarks) run CMD inside h0 instead of a program: $MH_MPIRUN_ARGS holds the launcher
#                       arguments that place ranks on the hosts; $MH_NS0, $MH_NS1, ... name their namespaces
#
# Exit status: 0 pass, 1 fail, 77 skipped (not root, no `ip`, or namespaces cannot be made: the reason is printed).
# The namespaces, the veth pair and every process left in them are removed on exit, pass or fail.
set -u

np=2
hosts=2
mpirun=mpirun
timeout_s=170
within=0
expect_fail=0
marker=""
check_shm=0
expect_end=0
ended_alone=0
quiet=0
keep_cmd=""
envs=()
expects=()
while [ $# -gt 0 ]; do
  case "$1" in
    --np) np=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --expect) expects+=("$2"); shift 2 ;;
    --expect-fail) expect_fail=1; shift ;;
    --link-down-on) marker=$2; shift 2 ;;
    --within) within=$2; shift 2 ;;
    --check-dev-shm) check_shm=1; shift ;;
    --expect-end) expect_end=1; shift ;;
    --quiet-output) quiet=1; shift ;;
    --keep-up) keep_cmd=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_multihost: unknown option $1" >&2; exit 2 ;;
  esac
done
if ! [[ "$hosts" =~ ^[2-8]$ ]]; then
  echo "run_multihost: --hosts must be 2 to 8, got '$hosts'" >&2
  exit 2
fi
if [ -z "$keep_cmd" ] && [ $# -eq 0 ]; then
  echo "run_multihost: no program given" >&2
  exit 2
fi

skip() {
  echo "SKIP: multi-host test not run: $*"
  exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root to create network namespaces (running as uid $(id -u))"
command -v ip > /dev/null || skip "the 'ip' command (iproute2) is not installed"
command -v "$mpirun" > /dev/null || skip "launcher '$mpirun' not found"

id=$$
nss=()
for ((h = 0; h < hosts; ++h)); do nss+=("gsh${id}h$h"); done
ns0=${nss[0]}
nsbr="gsh${id}br"  # the bridge's namespace (more than two hosts)
veth="gsv${id}"
veth=${veth:0:15}
work=$(mktemp -d /tmp/gshmem-multihost.XXXXXX)
made_ns=0

cleanup() {
  local rc=$?
  for ns in "${nss[@]}" "$nsbr"; do
    if ip netns list 2> /dev/null | grep -qw "$ns"; then
      local pids
      pids=$(ip netns pids "$ns" 2> /dev/null)
      [ -n "$pids" ] && kill -9 $pids 2> /dev/null
    fi
  done
  sleep 0.2
  for ns in "${nss[@]}" "$nsbr"; do
    ip netns del "$ns" 2> /dev/null
  done
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for ns in "${nss[@]}"; do
  ip netns add "$ns" 2> "$work/err" || skip "cannot create a network namespace: $(cat "$work/err")"
done
made_ns=1
if [ "$hosts" = 2 ]; then
  if ! ip link add "$veth" netns "${nss[0]}" type veth peer name "$veth" netns "${nss[1]}" 2> "$work/err"; then
    skip "cannot create a veth pair: $(cat "$work/err")"
  fi
else
  # One veth pair per host: "$veth" inside the host, "v<h>" inside the bridge's namespace, joined to bridge br0.
  ip netns add "$nsbr" 2> "$work/err" || skip "cannot create a network namespace: $(cat "$work/err")"
  ip -n "$nsbr" link add br0 type bridge 2> "$work/err" || skip "cannot create a bridge: $(cat "$work/err")"
  ip -n "$nsbr" link set br0 up
  for ((h = 0; h < hosts; ++h)); do
    if ! ip link add "$veth" netns "${nss[h]}" type veth peer name "v$h" netns "$nsbr" 2> "$work/err"; then
      skip "cannot create a veth pair: $(cat "$work/err")"
    fi
    ip -n "$nsbr" link set "v$h" master br0
    ip -n "$nsbr" link set "v$h" up
  done
fi
for ((h = 0; h < hosts; ++h)); do
  ns=${nss[h]}
  ip -n "$ns" addr add 10.200.0.$((h + 1))/24 dev "$veth"
  ip -n "$ns" link set lo up
  ip -n "$ns" link set "$veth" up
done
# Wait for carrier everywhere: UCX ignores an interface whose operational state is not up.
for _ in $(seq 50); do
  down=0
  for ns in "${nss[@]}"; do
    [ "$(ip netns exec "$ns" cat /sys/class/net/$veth/operstate)" = up ] || down=1
  done
  [ "$down" = 0 ] && break
  sleep 0.1
done

# rsh agent: "<agent> [rsh options] <host> <command...>" -> run the command inside that host's namespace.
cat > "$work/agent" << EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
  case "\$1" in -*) shift ;; *) break ;; esac
done
host=\$1; shift
case "\$host" in
  h[0-7]) ns=gsh${id}\$host ;;
  *) echo "multihost agent: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec "\$ns" unshare --uts /bin/sh -c "hostname \$host; \$*"
EOF
chmod +x "$work/agent"
per=$(( (np + hosts - 1) / hosts ))
: > "$work/hosts"
for ((h = 0; h < hosts; ++h)); do printf 'h%d slots=%d\n' "$h" "$per" >> "$work/hosts"; done

export UCX_TLS=${UCX_TLS:-tcp,self}
export UCX_NET_DEVICES=$veth
for kv in "${envs[@]+"${envs[@]}"}"; do export "${kv?}"; done
xargs_env=()
for v in $(env | grep -oE '^(UCX|GSHMEM)_[A-Za-z0-9_]*'); do xargs_env+=(-x "$v"); done
# The MPI bootstrap uses TCP only: Open MPI's shared-memory BTL names its files and session directories after the
# hostname, which both "hosts" share, and crashes when the two collide. (gshmem's own on-node path is memfd-based.)
launcher=("$mpirun" --allow-run-as-root --oversubscribe --bind-to none --mca plm_rsh_agent "$work/agent"
          --mca plm_rsh_no_tree_spawn 1 --hostfile "$work/hosts" --mca oob_tcp_if_include "$veth"
          --mca btl_tcp_if_include "$veth" --mca btl self,tcp "${xargs_env[@]}")

if [ -n "$keep_cmd" ]; then
  export MH_MPIRUN_ARGS="${launcher[*]:1}"
  export MH_VETH=$veth MH_HOSTS=$hosts
  for ((h = 0; h < hosts; ++h)); do export "MH_NS$h=${nss[h]}"; done
  ip netns exec "$ns0" unshare --uts /bin/bash -c "hostname h0; $keep_cmd"
  exit $?
fi

# Each PE's stderr is also kept in a file here: after a link fault, what PEs on h1 print cannot travel back to
# mpirun on h0, but the harness (same machine) still reads it. `tee -p`: the launcher closes its end of the PE's
# stderr once the PE has died, and a plain tee that reads the PE's last line after that dies of SIGPIPE before it
# writes the line into the file.
cat > "$work/pe" << EOF
#!/bin/bash
exec "\$@" 2> >(exec tee -p "$work/stderr.pe\${OMPI_COMM_WORLD_RANK:-x}" >&2)
EOF
chmod +x "$work/pe"
shm_before=$(ls /dev/shm 2> /dev/null | grep -i gshmem | sort)
launch() {
  rm -f "$work"/stderr.pe*
  start=$(date +%s.%N)
  ip netns exec "$ns0" unshare --uts /bin/sh -c 'hostname h0; exec "$@"' sh timeout -k 5 "$hard_s" "${launcher[@]}" -np "$np" "$work/pe" "$@" > "$work/job" 2>&1 &
  job=$!
}
kill_all() {
  local ns pids
  for ns in "${nss[@]}"; do
    pids=$(ip netns pids "$ns" 2> /dev/null)
    [ -n "$pids" ] && kill -9 $pids 2> /dev/null
  done
}
hard_s=$((timeout_s * 3))
launch "$@"
attempt=1
stalled=0    # seconds in which the machine stood still since the launch (they do not count toward --timeout)
last_tick=$start
timed_out=0
stalled_at_fault=0  # $stalled when the fault was injected: post-fault times subtract only later standstills

fault_at=""
collect() {  # the job's output, then what each PE wrote to stderr that the launcher did not forward
  cat "$work/job"
  for f in "$work"/stderr.pe*; do
    [ -e "$f" ] || continue
    grep -vxF -f "$work/job" "$f" 2> /dev/null | sed "s|^|[stderr of ${f##*.}, not forwarded] |"
  done
}
matched_all() {
  collect > "$work/out"
  local e
  for e in "${expects[@]+"${expects[@]}"}"; do grep -qE -- "$e" "$work/out" || return 1; done
  return 0
}
# Watch the job: inject the link fault at the marker; after a fault, stop as soon as every --expect line is there.
while kill -0 "$job" 2> /dev/null; do
  collect > "$work/out"
  # A machine that stands still (seen here as a kernel that ran nothing, this loop included, for a minute at a
  # time) stops the job as much as the harness: that time is not the job's.
  now=$(date +%s.%N)
  gap=$(echo "$now - $last_tick" | bc)
  if [ "$(echo "$gap > 2" | bc)" = 1 ]; then
    stalled=$(echo "$stalled + $gap - 0.1" | bc)
    echo "run_multihost: the machine stood still for $gap s (nothing ran); the timeout does not count it"
  fi
  last_tick=$now
  if [ "$(echo "$now - $start - $stalled > $timeout_s" | bc)" = 1 ]; then
    timed_out=1
    break
  fi
  # Open MPI 4.1 now and then never starts the daemon on one namespace (no PE runs after 30 s): launch again, once.
  if [ "$attempt" = 1 ] && ! ls "$work"/stderr.pe* > /dev/null 2>&1 &&
     [ "$(echo "$(date +%s.%N) - $start - $stalled > 30" | bc)" = 1 ]; then
    echo "run_multihost: no PE started within 30 s (launcher stuck): launching again"
    kill_all
    wait "$job" 2> /dev/null
    attempt=2
    launch "$@"
    stalled=0
    last_tick=$start
    continue
  fi
  if [ -n "$marker" ] && [ -z "$fault_at" ] && grep -qF -- "$marker" "$work/out"; then
    for ns in "${nss[@]}"; do ip -n "$ns" link set "$veth" down; done
    fault_at=$(date +%s.%N)
    stalled_at_fault=$stalled
    echo "run_multihost: marker seen: link $veth down at +$(echo "$fault_at - $start" | bc) s"
  fi
  if [ "$expect_end" = 0 ] && [ -n "$fault_at" ] && [ ${#expects[@]} -gt 0 ] && matched_all; then
    echo "run_multihost: every expected message arrived $(echo "$(date +%s.%N) - $fault_at" | bc) s after the fault"
    break
  fi
  if [ -n "$fault_at" ] && [ "$within" != 0 ] &&
     [ "$(echo "$(date +%s.%N) - $fault_at - ($stalled - $stalled_at_fault) > $within + 5" | bc)" = 1 ]; then
    break
  fi
  sleep 0.1
done
rc=0
if kill -0 "$job" 2> /dev/null; then
  # After a link fault the launcher itself cannot reach the other host: end what is left.
  sleep 1
  kill_all
  wait "$job"
  rc=$?
  [ "$rc" = 0 ] && rc=137
else
  ended_alone=1
  wait "$job"
  rc=$?
fi
collect > "$work/out"
end=$(date +%s.%N)
if [ -n "$fault_at" ]; then
  echo "run_multihost: the launcher $([ "$ended_alone" = 1 ] && echo exited || echo was killed)" \
       "$(echo "$end - $fault_at" | bc) s after the fault"
fi
elapsed=$(echo "$end - $start - $stalled" | bc)  # the machine's standstills do not count
ref=${fault_at:-$start}
ref_stalled=$(echo "$stalled - $stalled_at_fault" | bc)  # standstills since ref

fail=()
if [ "$expect_fail" = 1 ]; then
  [ "$rc" != 0 ] || fail+=("expected the job to fail, it exited 0")
else
  [ "$rc" = 0 ] || fail+=("job exited with status $rc")
fi
[ "$timed_out" = 1 ] || [ "$rc" = 124 ] &&
  fail+=("job hit the harness timeout of $timeout_s s (not counting $stalled s in which the machine stood still)")
for e in "${expects[@]+"${expects[@]}"}"; do
  grep -qE -- "$e" "$work/out" || fail+=("output does not match '$e'")
done
if [ "$within" != 0 ]; then
  took=$(echo "$(date +%s.%N) - $ref - $ref_stalled" | bc)
  if [ -n "$fault_at" ] || [ "$expect_fail" = 1 ]; then
    [ "$(echo "$elapsed > $within + 10 && $took > $within + 10" | bc)" = 1 ] &&
      fail+=("the job took $took s after the fault, more than $within s (+10 s slack)")
  fi
fi
if [ "$expect_end" = 1 ] && [ "$ended_alone" = 0 ]; then
  fail+=("the launcher did not exit by itself within $within s (+5 s) of the fault: the harness killed it")
fi
if [ -n "$marker" ] && [ -z "$fault_at" ]; then fail+=("marker '$marker' never appeared"); fi
if [ "$check_shm" = 1 ]; then
  shm_after=$(ls /dev/shm 2> /dev/null | grep -i gshmem | sort)
  left=$(comm -13 <(echo "$shm_before") <(echo "$shm_after") | grep . || true)
  [ -n "$left" ] && fail+=("shared-memory segments left in /dev/shm: $left")
  echo "run_multihost: /dev/shm has no new gshmem segments: $([ -z "$left" ] && echo yes || echo NO)"
fi

if [ "$quiet" = 0 ] || [ ${#fail[@]} -gt 0 ]; then
  echo "---- output of: ${launcher[*]} -np $np $* ----"
  cat "$work/out"
  echo "---- exit status $rc after $elapsed s ----"
fi
if [ ${#fail[@]} -gt 0 ]; then
  for f in "${fail[@]}"; do echo "run_multihost: FAILED: $f"; done
  exit 1
fi
echo "run_multihost: PASSED (np $np on $hosts hosts, $elapsed s)"
exit 0
