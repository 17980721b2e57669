#!/bin/bash
# PROTO (issue 6), host memory between two hosts: put + quiet from 8 B to 256 MiB between two network-namespace
# hosts (UCX over TCP on a veth pair), with each UCX put path forced and with the automatic choice:
#   direct  every put is a UCP put (GSHMEM_UCX_AGGREGATE=0)
#   batch   puts up to the largest batchable size (2 KiB) go into the per-peer active-message batch
#   auto    the default GSHMEM_UCX_AGGREGATE
# Medians of REPS runs (modes alternate in order every repetition), then a table with auto / best forced.
#   benchmarks/multihost/sweep.sh [-b BUILD_DIR] [-r REPS]     (root: makes the namespaces; exits 77 otherwise)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build
reps=3
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -r) reps=$2; shift 2 ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-r REPS]" >&2; exit 2 ;;
  esac
done
bin=$build/benchmarks/osu-like/osu_oshm_put_lat
[ -x "$bin" ] || { echo "sweep.sh: $bin missing: cmake --build $build --target osu_benchmarks" >&2; exit 1; }
out=${OUT:-/tmp/gshmem-mh-sweep}
mkdir -p "$out"
cat > "$out/inner.sh" << 'INNER'
#!/bin/bash
# inside host h0: $1 = program, $2 = reps, $3 = output dir
prog=$1 reps=$2 out=$3
: > "$out/raw.csv"
for rep in $(seq 1 "$reps"); do
  modes="direct batch auto"
  [ $((rep % 2)) = 0 ] && modes="auto batch direct"
  for m in $modes; do
    case $m in direct) agg=0 ;; batch) agg=2K ;; auto) agg= ;; esac
    for range in "8:64K 2000" "128K:4M 50" "8M:256M 5"; do
      set -- $range
      env ${agg:+GSHMEM_UCX_AGGREGATE=$agg} GSHMEM_SYMMETRIC_SIZE=640M \
        mpirun $MH_MPIRUN_ARGS ${agg:+-x GSHMEM_UCX_AGGREGATE} -x GSHMEM_SYMMETRIC_SIZE -np 2 "$prog" -m "$1" -i "$2" -x 3 \
        2> /dev/null | awk -v m=$m -v r=$rep '/^[0-9]/{print m "," r "," $1 "," $2}' >> "$out/raw.csv"
    done
  done
done
INNER
chmod +x "$out/inner.sh"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), UCX $(ucx_info -v | sed -n 's/# Version //p'), put + quiet between two namespace hosts"
"$repo/tests/multihost/run_multihost.sh" --np 2 --keep-up "$out/inner.sh $bin $reps $out"
python3 - "$out/raw.csv" << 'PY'
import collections, statistics, sys
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m, r, n, us = line.strip().split(",")
    v[(int(n), m)].append(float(us))
sizes = sorted({n for n, _ in v})
print("| bytes | direct (us) | batch (us) | auto (us) | best forced | auto / best |")
print("|---:|---:|---:|---:|---|---:|")
worst = 0
for n in sizes:
    med = {m: statistics.median(v[(n, m)]) for m in ("direct", "batch", "auto") if v[(n, m)]}
    forced = {m: med[m] for m in ("direct", "batch") if m in med}
    best = min(forced, key=forced.get)
    ratio = med["auto"] / forced[best]
    worst = max(worst, ratio)
    print("| %d | %.2f | %.2f | %.2f | %s | %.3f |" % (n, med["direct"], med["batch"], med["auto"], best, ratio))
print("\nworst auto / best forced: %.3f" % worst)
PY
