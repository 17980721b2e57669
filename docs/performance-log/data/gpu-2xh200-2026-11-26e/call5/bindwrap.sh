#!/bin/bash
# bindwrap.sh MODE prog args...: MODE none | local (cores near this rank's GPU) | remote (cores near the other GPU)
mode=$1; shift
r=${OMPI_COMM_WORLD_LOCAL_RANK:-0}
[ "$mode" = remote ] && g=$((1 - r)) || g=$r
bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i $g | tr 'A-Z' 'a-z' | sed 's/^0000\(....\)/\1/')
list=$(cat /sys/bus/pci/devices/$bus/local_cpulist 2>/dev/null)
[ "$mode" = none ] || [ -z "$list" ] && exec "$@"
exec taskset -c "$list" "$@"
