#!/bin/bash
# Copies the binaries the lent GPU machine runs (scripts/gpu-lease.sh, scripts/gpu-apps.sh, scripts/gpu-nvshmem-peer.sh)
# from a CUDA build tree into a small carry folder, stripped: the device tool carries at most 64 MiB.
#   scripts/gpu-carry.sh BUILD CARRY
set -eu
B=${1:-build-gpu} C=${2:-build-carry}
mkdir -p "$C/src" "$C/lib" "$C/tests/gpu" "$C/benchmarks/gpu" "$C/benchmarks/osu-like" "$C/benchmarks/micro" "$C/apps"
copy() { [ -e "$B/$1" ] && cp -L "$B/$1" "$C/$1" && strip --strip-unneeded "$C/$1" 2>/dev/null || true; }
cp -L "$B"/src/libgshmem.so.* "$C/src/" && strip --strip-unneeded "$C"/src/libgshmem.so.*
for f in "$C"/src/libgshmem.so.*.*.*; do (cd "$C/src" && ln -sf "$(basename "$f")" libgshmem.so.0 && ln -sf libgshmem.so.0 libgshmem.so); done
for t in tests/gpu/gpu_device_tests tests/gpu/gpu_exit_test benchmarks/gpu/gshmem_gpu_bench benchmarks/gpu/gshmem_dsweep \
         benchmarks/gpu/gshmem_staged_bw benchmarks/gpu/gshmem_signal_pingpong benchmarks/gpu/gshmem_coll_bench benchmarks/gpu/gshmem_halo benchmarks/micro/gshmem_micro_proxy_ring \
         benchmarks/osu-like/osu_oshm_put_lat benchmarks/osu-like/osu_oshm_put_bw benchmarks/osu-like/osu_oshm_get_lat \
         benchmarks/osu-like/osu_oshm_put_signal_lat apps/hsg apps/stencil apps/bfs apps/hsg_gpu apps/stencil_gpu apps/bfs_gpu; do
  copy "$t"
done
du -sh "$C"
