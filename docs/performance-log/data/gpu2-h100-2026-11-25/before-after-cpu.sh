#!/bin/bash
# CPU before/after: the same osu-like programs from the session-start build and from main, alternating, 5 rounds.
run() { LD_LIBRARY_PATH=$1/src mpirun --allow-run-as-root -np 2 --bind-to none -x LD_LIBRARY_PATH $1/benchmarks/osu-like/$2 "${@:3}" 2>/dev/null; }
for r in 1 2 3 4 5; do for b in /work/wt-base/build-gpu /work/main/build; do
  t=$(basename $(dirname $b))
  echo "$r $t put_lat8 $(run $b osu_oshm_put_lat -m 8:8 | awk '/^8 /{print $2}')"
  echo "$r $t get_lat8 $(run $b osu_oshm_get_lat -m 8:8 | awk '/^8 /{print $2}')"
  echo "$r $t put_bw1M $(run $b osu_oshm_put_bw -m 1048576:1048576 | awk '/^1048576 /{print $2}')"
  echo "$r $t barrier $(run $b osu_oshm_barrier | awk '/^[0-9]/{v=$NF} END{print v}')"
  echo "$r $t bcast8 $(run $b osu_oshm_broadcast -m 8:8 | awk '/^8 /{print $2}')"
done; done
