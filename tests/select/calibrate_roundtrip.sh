#!/bin/sh
# The calibrate -> profile -> load round trip on 2 PEs, in seconds: gshmem-calibrate measures a tiny size range
# and writes a profile; profile_check loads it with GSHMEM_PROFILE and checks the table's source says "profile".
#   calibrate_roundtrip.sh <gshmem-calibrate> <select_profile_check> <work dir> <launcher and its flags...>
set -eu
cal=$1 chk=$2 dir=$3
shift 3
mkdir -p "$dir"
prof="$dir/roundtrip.prof"
rm -f "$prof"
"$@" "$cal" -b 8 -e 64K -n 10 -r 3 -q -o "$prof"
test -s "$prof" || { echo "calibrate_roundtrip: $prof was not written"; exit 1; }
cat "$prof"
GSHMEM_PROFILE="$prof" "$@" "$chk"
