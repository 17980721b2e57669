#!/bin/bash
# gshmem vs Open MPI's OpenSHMEM across two hosts made on this machine (network namespaces + veth, UCX over TCP).
#   benchmarks/multihost/run.sh [-b BUILD_DIR] [-r REPS] [--log FILE]
#       [--only put_lat,get_lat,fadd,barrier,put_bw,put_signal,broadcast,reduce,fcollect,alltoall]
#       [--np N] [--coll-sweep A:B]   (N PEs split over the two hosts; collectives at every power of two A..B)
#       [--variant NAME:GSHMEM_X=V[,...]]   (gshmem again with these settings, in the same alternation)
# Builds the peer programs with oshcc from benchmarks/osu-like (as benchmarks/compare does), then runs each
# benchmark with 2 PEs, one per host, alternating gshmem and the peer, and prints a markdown table of medians and
# ratios (gshmem/peer). Needs root (namespaces); exits 77 with the reason otherwise.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build
reps=5
np=2
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -r) reps=$2; shift 2 ;;
    --only|--log|--coll-sweep|--variant) extra+=("$1" "$2"); shift 2 ;;
    --np) np=$2; extra+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-r REPS] [--only LIST] [--log FILE] [--np N] [--coll-sweep A:B] [--variant NAME:K=V]" >&2; exit 2 ;;
  esac
done
bin=$build/benchmarks/osu-like
progs="put_lat get_lat atomics barrier put_bw put_signal_lat broadcast reduce fcollect alltoall"
for p in $progs; do
  [ -x "$bin/osu_oshm_$p" ] || { echo "run.sh: $bin/osu_oshm_$p missing: cmake --build $build --target osu_benchmarks" >&2; exit 1; }
done
peer=${GSHMEM_PEER_DIR:-/tmp/gshmem-mh-peers}
mkdir -p "$peer"
for p in $progs; do
  src=$repo/benchmarks/osu-like/osu_oshm_$p.c
  if [ ! -x "$peer/osu_oshm_$p" ] || [ "$src" -nt "$peer/osu_oshm_$p" ]; then
    oshcc -O2 -o "$peer/osu_oshm_$p" "$src" "$repo/benchmarks/osu-like/osu_util.c"
  fi
done
floor=$build/benchmarks/multihost/gshmem_tcpfloor
[ -x "$floor" ] && extra+=(--floor "$floor")  # the plain-TCP floor, same run (cmake --build $build --target gshmem_tcpfloor)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), UCX $(ucx_info -v | sed -n 's/# Version //p'), UCX_TLS=tcp,self over veth"
exec "$repo/tests/multihost/run_multihost.sh" --np "$np" --keep-up \
  "python3 $here/bench.py --gshmem-bin $bin --peer-bin $peer --reps $reps ${extra[*]:-}"
