#!/bin/bash
# host memory between two hosts: put + quiet from 8 B to 256 MiB between two network-namespace
# hosts (UCX over TCP on a veth pair), each UCX put path forced and the automatic choice, interleaved in one
# process by benchmarks/multihost/hsweep.cpp (direct: every put a UCP put; batch: puts up to 2 KiB in the per-peer
# active-message batch; auto: GSHMEM_UCX_AGGREGATE). Prints the table with auto / best forced.
#   benchmarks/multihost/sweep.sh [-b BUILD_DIR] [-m MAX]     (root: makes the namespaces; exits 77 otherwise)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build
max=268435456
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -m) max=$2; shift 2 ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-m MAX_BYTES]" >&2; exit 2 ;;
  esac
done
bin=$build/benchmarks/multihost/gshmem_hsweep
[ -x "$bin" ] || { echo "sweep.sh: $bin missing: cmake --build $build --target gshmem_hsweep" >&2; exit 1; }
out=${OUT:-/tmp/gshmem-mh-sweep}
mkdir -p "$out"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), UCX $(ucx_info -v | sed -n 's/# Version //p'), put + quiet between two namespace hosts"
GSHMEM_SYMMETRIC_SIZE=$((max / 1048576 * 2 + 64))M "$repo/tests/multihost/run_multihost.sh" --np 2 --keep-up \
  "mpirun \$MH_MPIRUN_ARGS -x GSHMEM_SYMMETRIC_SIZE -np 2 $bin $max > $out/sweep.csv"
python3 - "$out/sweep.csv" << 'PY'
import collections, sys
v = collections.defaultdict(dict)
ver = {}
for line in open(sys.argv[1]):
    f = line.strip().split(",")
    if len(f) != 4 or f[0] not in ("direct", "batch", "auto"):
        if line.startswith("#"): print(line.strip())
        continue
    v[int(f[1])][f[0]] = float(f[2])
    ver[int(f[1])] = ver.get(int(f[1]), "ok") if f[3] == "ok" else "BAD"
print("| bytes | direct (us) | batch (us) | auto (us) | best forced | auto / best | verified |")
print("|---:|---:|---:|---:|---|---:|---|")
worst = 0
for n in sorted(v):
    r = v[n]
    best = min(("direct", "batch"), key=lambda m: r[m])
    ratio = r["auto"] / r[best]
    worst = max(worst, ratio)
    print("| %d | %.2f | %.2f | %.2f | %s | %.3f | %s |" % (n, r["direct"], r["batch"], r["auto"], best, ratio, ver[n]))
print("\nworst auto / best forced: %.3f" % worst)
PY
