#!/bin/bash
# Test of gshmem-scale-model: for N = 4096 PEs, 32 per node and default GSHMEM_* settings, the tool's numbers must
# equal the formulas below, derived by hand from the code (docs/SCALING.md explains each). The receive buffer is
# the tool's own reading of this machine, so the drop fraction is checked against it.
# Usage: check.sh <path to gshmem-scale-model>. Exit 0 when every value matches.
set -u
tool=$1
N=4096 PPN=32
out=$(env -i PATH="$PATH" "$tool" --pes $N --ppn $PPN --values) || { echo "FAIL: the tool exited $?"; exit 1; }
get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$out"; }
fails=0
expect() {  # key, expected value (a number or an awk expression)
  local got want
  got=$(get "$1")
  want=$(awk "BEGIN { printf \"%.6f\", $2 }")
  if [ -z "$got" ] || ! awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; m = w < 0 ? -w : w;
                                                          exit !(d <= 1e-6 * (m > 1 ? m : 1)) }'; then
    echo "FAIL: $1 = ${got:-missing}, expected $want ($2)"
    fails=$((fails + 1))
  else
    echo "ok: $1 = $got"
  fi
}
remote=$((N - PPN))
# Heartbeats: GSHMEM_TIMEOUT 60 s -> period min(max(60/20 s, 50 ms), 250 ms) = 0.25 s. Ring watching: a PE watches
# its successors me+1 and me+2; in a node of 32 PEs (block placement) the last PE has both on the next node, the one
# before it one: at most 2 peers per PE, 3 ring edges leave each node, whatever N.
expect period_ms 250
expect beat_peers 2
expect beat_tx_per_pe_s "2 / 0.25"
expect beat_rx_per_pe_s "2 / 0.25"
expect beat_tx_per_node_s "3 / 0.25"
rmem=$(get rmem_default)
cap=$((rmem / 768))
expect rcvbuf_dgrams $cap
expect beat_drop_fraction "($cap < 2) ? 1 - $cap / 2 : 0"
# Control area: 64x32 sync cells of 64 B + 132 claims of 64 B = 139520; + N x 65 words; mailboxes: payload
# max(2^20 / 2N, 256) = 256, slots of 320 B: N x 64 + 2N x 320; team boards 8 x N x 32; + 128; rounded to 4096.
expect mailbox_payload 256
expect control_bytes "int((139520 + $N * 520 + $N * 64 + 2 * $N * 320 + 8 * $N * 32 + 128 + 4095) / 4096) * 4096"
# Collectives: tree reduce over K = N/32 = 128 leaders: a leader takes 31 messages from its node, sends and takes
# log2(128) = 7 in recursive doubling, sends 31 results, each message acknowledged; the job sends 2(N-K) on the
# nodes and K x 7 between them, each acknowledged. Tree broadcast (radix 8 over 128 leaders): the root sends to
# leader 64, then 8, 16, ..., 56, then 1..7 (15 in all), and to its 31 node-mates.
# Hierarchical barrier: dissemination among the 4096 / 32 = 128 node leaders, log2(128) = 7 rounds per leader;
# split: 2 AMOs per member (mask, triplet), a probe per remote-node peer, two barriers; split_2d: 64 rows + 64 columns.
expect reduce_msgs_per_pe "2 * (31 + 7)"
expect reduce_msgs_job "2 * (2 * ($N - 128) + 128 * 7)"
expect bcast_root_msgs "15 + 31"
expect barrier_msgs_per_pe 7
expect split_amos_per_pe "2 * $N"
expect split_msgs_per_pe "2 * $N + $remote + 2 * 7"
expect split2d_splits 128
expect quiet_peers "$remote"
# GPU scratch slot: 16 MiB / (2N), 256-aligned.
expect device_slot_bytes "16777216 / (2 * $N)"
expect root_fds "$N + 1"
if [ "$fails" -ne 0 ]; then echo "$fails value(s) differ"; exit 1; fi
echo "all values match"
