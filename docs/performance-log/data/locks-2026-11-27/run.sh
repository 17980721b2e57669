#!/bin/bash
# run.sh: the lock probe, old (ticket) and new (MCS) library alternately, and Open MPI's OpenSHMEM.
export GSHMEM_SYMMETRIC_SIZE=64M
M="mpiexec --allow-run-as-root --oversubscribe"
for rep in 1 2; do
for np in 2 4; do
  echo "== np $np rep $rep"
  echo -n "ticket shm: "; LD_LIBRARY_PATH=/tmp/old/b/src $M -np $np ./lockb 2000 | grep lock
  echo -n "mcs    shm: "; $M -np $np ./lockb 2000 | grep lock
  echo -n "ticket ucx: "; GSHMEM_TRANSPORTS=ucx LD_LIBRARY_PATH=/tmp/old/b/src $M -x GSHMEM_TRANSPORTS -np $np ./lockb 500 | grep lock
  echo -n "mcs    ucx: "; GSHMEM_TRANSPORTS=ucx $M -x GSHMEM_TRANSPORTS -np $np ./lockb 500 | grep lock
  echo -n "openmpi   : "; oshrun --allow-run-as-root --oversubscribe -np $np ./lockb_ompi 2000 2>/dev/null | grep lock
done
done
# Across the two namespace hosts (tests/multihost/run_multihost.sh): ticket and MCS, gshmem only.
for rep in 1 2; do for np in 2 4; do for v in ticket mcs; do
  if [ $v = ticket ]; then L=/tmp/old/b/src; else L=/work/main/build/src; fi
  echo -n "$v 2 hosts np$np: "
  LD_LIBRARY_PATH=$L /work/main/tests/multihost/run_multihost.sh --mpirun /usr/bin/mpiexec --timeout 100 --np $np \
    --env LD_LIBRARY_PATH=$L -- ./lockb 300 2>&1 | grep -E "^lock|stood"
done; done; done
