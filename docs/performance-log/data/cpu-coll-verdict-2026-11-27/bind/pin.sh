#!/bin/bash
# pin wrapper: PIN=mod -> core rank%2 ; PIN=div -> core rank/2 ; else none
r=${OMPI_COMM_WORLD_RANK:-0}
case "$PIN" in
  mod) exec taskset -c $((r % 2)) "$@";;
  div) exec taskset -c $((r / 2)) "$@";;
  *) exec "$@";;
esac
