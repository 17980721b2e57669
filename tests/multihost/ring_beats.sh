#!/bin/bash
# Heartbeat traffic of ring watching, across two hosts: run a job under run_multihost.sh with GSHMEM_LOG_LEVEL=INFO
# and GSHMEM_LOG_SUBSYS=INIT, then check each PE's closing line of the watchdog
#   gshmem: PE <p>: INFO INIT: liveness: T ticks, W PE(s) watched, S heartbeat datagram(s) sent, R received
# There must be one per PE; each PE watches at most the other PEs of its host and 2 ring successors, and sends and
# receives at most 2 datagrams per tick, besides the init greeting (a first beat and at most 10 resends to each
# ring neighbour) and the 3 copies of its last word.
#   ring_beats.sh <np> <PEs per host> -- <run_multihost.sh> [its arguments]
# Exit status: run_multihost.sh's when it did not pass (77: skipped), else 0 when every line holds, 1 when not.
set -u
np=$1 ppn=$2
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" | tee "$out"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || exit "$rc"
awk -v np="$np" -v ppn="$ppn" '
  match($0, /gshmem: PE [0-9]+: INFO INIT: liveness: [0-9]+ ticks, [0-9]+ PE\(s\) watched, [0-9]+ heartbeat datagram\(s\) sent, [0-9]+ received/) {
    line = substr($0, RSTART, RLENGTH)
    gsub(/[^0-9]+/, " ", line)
    split(line, f, " ")  # pe, ticks, watched, sent, received
    pe = f[1]; ticks = f[2]; watched = f[3]; sent = f[4]; rcvd = f[5]
    if (pe in seen) next
    seen[pe] = 1; n++
    most = 2 * (ticks + 11) + 2 * 3
    printf "ring_beats: PE %d: %d ticks, %d watched, %d sent, %d received (at most %d each way)\n", pe, ticks,
           watched, sent, rcvd, most
    if (watched > ppn - 1 + 2) { print "ring_beats: FAILED: PE " pe " watches " watched " PEs"; bad = 1 }
    if (sent > most || rcvd > most) { print "ring_beats: FAILED: PE " pe " exceeds 2 datagrams per tick"; bad = 1 }
    if (ticks < 1) { print "ring_beats: FAILED: PE " pe " counted no tick"; bad = 1 }
  }
  END {
    if (n != np) { print "ring_beats: FAILED: " n " liveness lines, expected " np; bad = 1 }
    if (!bad) print "ring_beats: PASSED"
    exit bad
  }' "$out"
