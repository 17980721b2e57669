#!/bin/bash
# The collectives beside Open MPI's OpenSHMEM in one run, with a verdict per row:
#   benchmarks/coll-verdict.sh [-b BUILD_DIR] [-r REPS] [--hosts-reps N] [--out DIR] [--no-hosts]
# Runs, one after the other, the OSU-method collective benchmarks (barrier_all, broadcast, fcollect, reduce,
# alltoall; 8 B to 1 MiB) with 2 PEs and with 4 PEs on this node (benchmarks/compare, alternating the two
# libraries in every repetition), then with 2+2 PEs on two hosts made of network namespaces
# (benchmarks/multihost/run.sh, needs root; --no-hosts leaves it out). It then prints every row with its ratio
# (gshmem / Open MPI, medians over repetitions) and the target it is held to: <= 1.0 everywhere, <= 0.7 at 64 B
# and below (and barrier_all) on one node. Exit status 0 when every row ran, whatever the verdict; 1 when a run
# failed. The verdict table and the raw output of each part land in DIR (default out/coll-verdict).
# --hosts-reps sets the two-host part's repetitions apart (default: REPS): on a VM a one-node launch's latency depends
# on where the host places the vCPUs for that launch (docs/performance-log), so more one-node repetitions narrow
# the medians at little cost, while a two-host repetition takes minutes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
build=$repo/build reps=5 hreps= out=$repo/out/coll-verdict hosts=1
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -r) reps=$2; shift 2 ;;
    --hosts-reps) hreps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-hosts) hosts=0; shift ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-r REPS] [--hosts-reps N] [--out DIR] [--no-hosts]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
colls=barrier,broadcast,fcollect,reduce,alltoall
rc=0
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# gshmem $(git -C "$repo" rev-parse --short HEAD 2>/dev/null), $reps repetitions on one node, ${hreps:-$reps} between hosts"
} > "$out/verdict.md"
for np in 2 4; do
  echo "coll-verdict: $np PEs on this node" >&2
  python3 "$here/compare" --only "$colls" --reps "$reps" --build "$build" --peers oshmem --np "$np" \
    --out "$out/np$np" > "$out/np$np.log" 2>&1 || { echo "coll-verdict: the $np-PE run failed ($out/np$np.log)" >&2; rc=1; }
done
if [ "$hosts" = 1 ]; then
  echo "coll-verdict: 2+2 PEs on two namespace hosts" >&2
  GSHMEM_PEER_DIR=${GSHMEM_PEER_DIR:-$out/mh-peers} "$here/multihost/run.sh" -b "$build" -r "${hreps:-$reps}" --np 4 \
    --only "$colls" --coll-sweep 8:1048576 > "$out/hosts.log" 2>&1
  mrc=$?
  [ "$mrc" = 77 ] && { echo "coll-verdict: two hosts skipped (needs root)" >&2; hosts=0; }
  [ "$mrc" != 0 ] && [ "$mrc" != 77 ] && { echo "coll-verdict: the two-host run failed ($out/hosts.log)" >&2; rc=1; }
fi
python3 - "$out" "$hosts" >> "$out/verdict.md" <<'EOF'
import csv, os, re, sys
out, hosts = sys.argv[1], sys.argv[2] == "1"
rows = []  # (config, row, gshmem, peer, ratio, target)
for np in (2, 4):
    for coll in ("barrier", "broadcast", "fcollect", "reduce", "alltoall"):
        path = os.path.join(out, "np%d" % np, coll + ".csv")
        if not os.path.exists(path):
            rows.append(("%d PEs" % np, coll, None, None, None, 1.0))
            continue
        for r in csv.DictReader(open(path)):
            if r["metric"] != "Latency (us)":
                continue
            g, p = r.get("gshmem") or "", r.get("oshmem") or ""
            ratio = float(g) / float(p) if g and p else None
            small = coll == "barrier" or int(r["key"]) <= 64
            name = "barrier_all" if coll == "barrier" else "%s %s B" % (coll, r["key"])
            rows.append(("%d PEs" % np, name, g, p, ratio, 0.7 if small else 1.0))
if hosts:
    for line in open(os.path.join(out, "hosts.log")):
        m = re.match(r"\| ((?:barrier|broadcast|fcollect|reduce|alltoall)[^|]*?) \(us\) \| ([\d.]+) \| ([\d.]+) \|", line)
        if m:
            g, p = m.group(2), m.group(3)
            rows.append(("2+2 PEs, two hosts", m.group(1), g, p, float(g) / float(p), 1.0))
bad = [r for r in rows if r[4] is None or r[4] > r[5]]
print("\n| PEs | row | gshmem us | Open MPI us | ratio | target | met |\n|---|---|---:|---:|---:|---|---|")
for c, n, g, p, ratio, t in rows:
    ok = ratio is not None and ratio <= t
    print("| %s | %s | %s | %s | %s | <= %.1f | %s |" % (c, n, g or "-", p or "-", "%.2f" % ratio if ratio else "-", t,
                                                      "yes" if ok else "**no**"))
print("\n%d rows, %d over their target%s" % (len(rows), len(bad), "" if bad else ": every row met"))
for c, n, g, p, ratio, t in bad:
    print("- %s, %s: %s (target <= %.1f)" % (c, n, "%.2f" % ratio if ratio else "did not run", t))
EOF
cat "$out/verdict.md"
exit $rc
