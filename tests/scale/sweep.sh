#!/bin/bash
# The scale sweep, on demand: scale_check at several PE counts over namespace hosts made on this machine
# (tests/multihost/run_multihost.sh, needs root), gshmem and Open MPI's OpenSHMEM (the same source built with
# oshcc) alternating in the same run, then one Markdown table of the medians and the ratios gshmem / Open MPI.
#
#   tests/scale/sweep.sh --build DIR [--hosts H] [--np "8 16 32"] [--reps R] [--runs K] [--wait S] [--out DIR]
#
# --build: a configured and built gshmem build folder (its tests/scale/scale_check is used). --runs: runs per
# library and PE count (default 3; the order of the libraries flips every run). --wait: seconds PE 0 sleeps while
# the others wait in a barrier (default 0). Extra environment for gshmem's PEs: GSHMEM_* variables of this shell.
# Output: <out>/raw.txt (every `scale:` line), the table on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="" hosts=4 nps="8 16 32" reps=50 runs=3 wait_s=0 out=out/scale
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --wait) wait_s=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "sweep.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$build" ] && [ -x "$build/tests/scale/scale_check" ] || {
  echo "sweep.sh: --build must name a built gshmem build folder (no tests/scale/scale_check there)" >&2
  exit 2
}
mkdir -p "$out"
raw=$out/raw.txt
: > "$raw"
peer=""
if command -v oshcc > /dev/null && command -v oshrun > /dev/null; then
  peer=$out/scale_check_oshmem
  oshcc -std=c11 -D_GNU_SOURCE -O2 "$here/scale_check.c" -o "$peer" || peer=""
fi
[ -z "$peer" ] && echo "sweep.sh: Open MPI's oshcc/oshrun not found or failed: gshmem's rows only"

one() {  # lib np -> appends "lib np <scale line>" to raw
  local lib=$1 np=$2 line
  local args=(--hosts "$hosts" --np "$np" --timeout 600)
  if [ "$lib" = gshmem ]; then
    line=$(GSHMEM_SYMMETRIC_SIZE=${GSHMEM_SYMMETRIC_SIZE:-64M} "$root/tests/multihost/run_multihost.sh" \
             "${args[@]}" -- "$build/tests/scale/scale_check" --reps "$reps" --wait "$wait_s" 2>&1 | grep '^scale:')
  else
    # Open MPI's memory hooks are off, as its OpenSHMEM needs with UCX in containers and namespaces.
    line=$(OMPI_MCA_memory=^patcher "$root/tests/multihost/run_multihost.sh" --mpirun oshrun "${args[@]}" \
             -- "$peer" --reps "$reps" --wait "$wait_s" 2>&1 | grep '^scale:')
  fi
  if [ -z "$line" ]; then
    echo "sweep.sh: $lib at $np PEs printed no scale line (failed)" >&2
    return
  fi
  echo "$lib $np $line" | tee -a "$raw"
}

for np in $nps; do
  for ((k = 0; k < runs; ++k)); do
    libs="gshmem${peer:+ oshmem}"
    [ $((k % 2)) = 1 ] && [ -n "$peer" ] && libs="oshmem gshmem"
    for lib in $libs; do one "$lib" "$np"; done
  done
done

python3 - "$raw" << 'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    lib, np, _, *kv = line.split()
    vals = dict(x.split("=", 1) for x in kv)
    rows.setdefault((int(np), lib), []).append(vals)
keys = [("init_s", "init (s)"), ("barrier_us", "barrier (us)"), ("reduce8_us", "reduce 8 B (us)"),
        ("bcast8_us", "broadcast 8 B (us)"), ("alltoall8_us", "alltoall 8 B/PE (us)"),
        ("split_ms", "team split (ms)"), ("rss_init_kb_max", "RSS per PE after init, most (KiB)"),
        ("rss_init_kb_avg", "RSS per PE after init, mean (KiB)"),
        ("fds_init_max", "fds per PE after init"), ("rss_kb_max", "RSS per PE at the end (KiB)"),
        ("fds_max", "fds per PE at the end"),
        ("udp_rx_per_pe_s", "UDP rx per PE per s")]
def med(np, lib, k):
    v = [float(r[k]) for r in rows.get((np, lib), []) if r.get(k) not in (None, "n/a")]
    return statistics.median(v) if v else None
print("| PEs | metric | gshmem | Open MPI | gshmem / Open MPI |\n|---:|---|---:|---:|---:|")
for np in sorted({n for n, _ in rows}):
    for k, name in keys:
        g, o = med(np, "gshmem", k), med(np, "oshmem", k)
        f = lambda x: "-" if x is None else ("%.3g" % x if x < 1000 else "{:,.0f}".format(x))
        r = "%.2f" % (g / o) if g is not None and o else "-"
        print("| %d | %s | %s | %s | %s |" % (np, name, f(g), f(o), r))
nps = sorted({n for n, _ in rows})
if len(nps) > 1:  # memory per added PE: the mean resident set after init, first and last PE count
    for lib, label in (("gshmem", "gshmem"), ("oshmem", "Open MPI")):
        a, b = med(nps[0], lib, "rss_init_kb_avg"), med(nps[-1], lib, "rss_init_kb_avg")
        if a is not None and b is not None:
            print("%s: mean RSS after init grows by %.2f KiB per added PE from %d to %d PEs" %
                  (label, (b - a) / (nps[-1] - nps[0]), nps[0], nps[-1]))
EOF
