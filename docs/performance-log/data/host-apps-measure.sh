#!/usr/bin/env bash
# The host apps on 2 PEs, as logged in host-apps-2026-11-25T*.log: BFS at scale 18 and 20 (3 runs each, then
# one top-down-only run), HSG at L = 64 and the stencil at 4096^2 (5 runs each, gshmem and the MPI twin
# alternated so that load changes hit both), and one stencil run with the 1-PE serial reference.
#   host-apps-measure.sh BUILD_DIR   (as root: mpirun needs --allow-run-as-root, kept below)
cd "${1:?build dir}/apps" || exit 1
M="mpirun --allow-run-as-root -np 2 --bind-to none"
export GSHMEM_SYMMETRIC_SIZE=1G
echo "=== $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for rep in 1 2 3 4 5; do
  for s in 18 20; do [ $rep -gt 3 ] && continue
    echo "--- bfs scale $s rep $rep load $(cut -d' ' -f1 /proc/loadavg)"
    $M ./bfs --scale $s | grep -E "harmonic|median_TEPS|min_TEPS|max_TEPS|median_time|mean per search|construction_time|median_nedge"
  done
done
echo "--- bfs scale 20 top-down only"
$M ./bfs --scale 20 --top-down | grep -E "harmonic_mean|mean per search"
for rep in 1 2 3 4 5; do
  for v in "" --mpi; do
    echo "--- hsg L=64 $v rep $rep load $(cut -d' ' -f1 /proc/loadavg)"
    $M ./hsg -L 64 -s 10 $v | tail -1
  done
done
for rep in 1 2 3 4 5; do
  for v in "" --mpi; do
    echo "--- stencil 4096 $v rep $rep load $(cut -d' ' -f1 /proc/loadavg)"
    $M ./stencil -nx 4096 -ny 4096 -niter 200 -csv $v | grep -E "ms/iteration|^jacobi|validation"
  done
done
echo "--- stencil 4096 with the 1-PE serial run (--check)"
$M ./stencil -nx 4096 -ny 4096 -niter 200 --check | grep -E "ms/iteration|1-PE|check:"
echo "=== end $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
