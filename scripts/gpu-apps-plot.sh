#!/bin/bash
# The GPU apps' sweeps (PARTS=sweep of scripts/gpu-apps.sh: the sw_*.log files of one run) as CSVs, markdown tables
# and plots.
#   scripts/gpu-apps-plot.sh --csv DIR      writes DIR/apps-hsg.csv, DIR/apps-stencil.csv, DIR/apps-bfs.csv and
#                                           DIR/apps-tables.md, and prints the tables (awk only: gpu-apps.sh runs this
#                                           on the GPU machine at the end of a sweep)
#   scripts/gpu-apps-plot.sh DIR [IMGDIR [CSVDIR]]
#                                           the same, then the plots with gnuplot (scripts/gpu-apps.gp) into IMGDIR
#                                           (default docs/img): apps-hsg.png (over-relaxation ps per spin vs L, one
#                                           line per variant and PE count, log y), apps-stencil.png (ms per iteration
#                                           vs N), apps-bfs.png (TEPS vs scale: harmonic mean, median with quartiles)
# DIR is the sweep's $OUT as copied back (its summary.txt, when there, names the GPU in the plots' titles). The CSVs
# and tables go to CSVDIR, default DIR, or a new /tmp/gshmem-apps-csv.* folder when DIR is read-only (named in the
# output).
# CSV columns:
#   apps-hsg.csv      L,np,variant,sweeps,ps_or,ps_hb,copy_GBps,floor_ps,e_per_n,max_dev,log
#   apps-stencil.csv  N,ny,np,variant,niter,nccheck,runtime_s,ms_per_iter,GBps,copy_GBps,pct_of_B,floor_ms,validation,log
#   apps-bfs.csv      scale,np,exchange,roots,hmean_TEPS,median_TEPS,q1_TEPS,q3_TEPS,min_TEPS,max_TEPS,
#                     hmean_big_TEPS,small_roots,construction_s,validation,log
#   (copy_GBps: the run's device-to-device copy probe B, empty where the run had none; floor_ps = 60 B/spin / B;
#   floor_ms = 8 B/point / B; hmean_big_TEPS: the harmonic mean without the roots in small components, which the app
#   reports beside Graph500's statistic, equal to hmean_TEPS where there were none.)
set -eu
csv_only=0
if [ "${1:-}" = --csv ]; then csv_only=1; shift; fi
D=${1:?usage: scripts/gpu-apps-plot.sh [--csv] DIR [IMGDIR [CSVDIR]]}
IMG=${2:-$(dirname "$0")/../docs/img}
HERE=$(cd "$(dirname "$0")" && pwd)
[ -d "$D" ] || { echo "gpu-apps-plot: no folder $D" >&2; exit 1; }
# the CSVs and tables: CSVDIR, else DIR, else (DIR read-only, as the device tool's copy is) a new folder in /tmp
C=${3:-$D}
if mkdir -p "$C" 2> /dev/null && (: > "$C/.gpu-apps-plot.probe") 2> /dev/null; then
  rm -f "$C/.gpu-apps-plot.probe"
else
  C=$(mktemp -d /tmp/gshmem-apps-csv.XXXX)
fi

# ------------------------------------------------------------------------------------------------ logs -> CSV
hsg_row() {  # the result line `L, NP, variant, sweeps, OR, HB, E/N, dev` and the copy probe's B
  awk -v lf="$(basename "$1")" '
    /^hsg_gpu bench: copy probe B / { for (i = 1; i < NF; i++) if ($i == "B" && $(i + 1) + 0 > 0) { B = $(i + 1); break } }
    /^[0-9]+, [0-9]+, [a-z-]+, [0-9]+, / { if (split($0, a, /, */) >= 8) { split($0, r, /, */); got = 1 } }
    END {
      if (!got || r[5] + 0 <= 0) exit
      fl = B > 0 ? sprintf("%.2f", 60 / B * 1e3) : ""
      printf "%d,%d,%s,%d,%s,%s,%s,%s,%s,%s,%s\n", r[1], r[2], r[3], r[4], r[5], r[6], B, fl, r[7], r[8], lf
    }' "$1"
}
stencil_row() {  # the -csv line `jacobi_gpu, nx, ny, niter, nccheck, npes, variant, runtime, runtime_1pe`
  awk -v lf="$(basename "$1")" '
    /^stencil_gpu bench: device-to-device copy B = / { for (i = 2; i < NF; i++) if ($i == "=" && $(i - 1) == "B") B = $(i + 1) }
    /-> validation / { val = $NF }
    /^stencil_gpu: .* fp64 / { bpp = 16 }
    /^jacobi_gpu, / { split($0, r, /, */); got = 1 }
    END {
      if (!got || r[8] + 0 <= 0) exit
      if (!bpp) bpp = 8
      nx = r[2]; ny = r[3]; it = r[4]; rt = r[8]
      pts = (nx - 2) * (ny - 2)
      gbs = bpp * pts * it / rt / 1e9
      pct = B > 0 ? sprintf("%.1f", 100 * gbs / B) : ""
      fl = B > 0 ? sprintf("%.6g", bpp * pts / (B * 1e9) * 1e3) : ""
      printf "%d,%d,%d,%s,%d,%d,%s,%.6g,%.1f,%s,%s,%s,%s,%s\n", nx, ny, r[6], r[7], it, r[5], rt, rt / it * 1e3, gbs, \
        B, pct, fl, val == "" ? "?" : val, lf
    }' "$1"
}
bfs_row() {  # the Graph500 statistics block and the app's own summary lines
  awk -v lf="$(basename "$1")" '
    $1 == "SCALE:" { sc = $2 } $1 == "num_pes:" { np = $2 } $1 == "NBFS:" { nb = $2 } $1 == "construction_time:" { ct = $2 }
    $1 == "bfs" && $2 == "min_TEPS:" { mn = $3 }
    $1 == "bfs" && $2 == "firstquartile_TEPS:" { q1 = $3 }
    $1 == "bfs" && $2 == "median_TEPS:" { md = $3 }
    $1 == "bfs" && $2 == "thirdquartile_TEPS:" { q3 = $3 }
    $1 == "bfs" && $2 == "max_TEPS:" { mx = $3 }
    $1 == "bfs" && $2 == "harmonic_mean_TEPS:" { hm = $3 }
    /^bfs_gpu: exchange / { ex = $0 ~ /MPI/ ? "mpi" : "gshmem" }
    /^bfs_gpu: harmonic mean .* validation / { val = $NF }
    /roots lie in small components/ {
      small = $2
      if (match($0, /over the other [0-9]+: [0-9.eE+-]+/)) { s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); big = s }
    }
    END {
      if (sc == "" || hm == "") exit
      if (small == "") { small = 0; big = hm }
      printf "%d,%d,%s,%d,%s,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s\n", sc, np, ex == "" ? "gshmem" : ex, nb, hm, md, q1, q3, \
        mn, mx, big, small, ct, val == "" ? "?" : val, lf
    }' "$1"
}
make_csv() {  # make_csv APP HEADER SORTKEYS: one row per sw_APP_*.log, sorted into series
  local app=$1 f out=$C/apps-$1.csv
  echo "$2" > "$out"
  # shellcheck disable=SC2086 # $3: several sort keys
  for f in "$D"/sw_"$app"_*.log; do
    [ -e "$f" ] || continue
    "${app}_row" "$f"
  done | sort -t, $3 >> "$out"
  echo "$out: $(($(wc -l < "$out") - 1)) rows"
}
make_csv hsg "L,np,variant,sweeps,ps_or,ps_hb,copy_GBps,floor_ps,e_per_n,max_dev,log" "-k2,2n -k3,3 -k1,1n"
make_csv stencil "N,ny,np,variant,niter,nccheck,runtime_s,ms_per_iter,GBps,copy_GBps,pct_of_B,floor_ms,validation,log" \
  "-k3,3n -k4,4 -k1,1n"
make_csv bfs "scale,np,exchange,roots,hmean_TEPS,median_TEPS,q1_TEPS,q3_TEPS,min_TEPS,max_TEPS,hmean_big_TEPS,small_roots,construction_s,validation,log" \
  "-k2,2n -k3,3 -k1,1n"

# ------------------------------------------------------------------------------------------------ CSV -> tables
# pivot CSV XCOL VARCOL NPCOL VALCOL FMT XNAME: markdown table, one row per x, one column per (variant, PEs), in the
# order PEs, then direct auto stream staged-tx staged device mpi; then, for each PE count with the MPI twin, a column
# gshmem's first variant there (direct, or device) / the twin
pivot() {
  awk -F, -v xc="$2" -v vc="$3" -v nc="$4" -v yc="$5" -v fmt="$6" -v xname="$7" '
    function rank(v) { return v == "direct" ? 1 : v == "device" ? 1 : v == "auto" ? 2 : v == "stream" ? 3 : \
                                v == "staged-tx" ? 4 : v == "staged" ? 5 : v == "mpi" ? 9 : 8 }
    NR == 1 { next }
    {
      k = sprintf("%03d%d%s", $nc, rank($vc), $vc)
      if (!(k in seen)) { seen[k] = 1; keys[++nk] = k; kv[k] = $vc; kn[k] = $nc }
      if (!($xc in xs)) { xs[$xc] = 1; xl[++nx] = $xc }
      val[$xc, k] = $yc
    }
    END {
      if (!nk) { print "(no rows)"; exit }
      for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++) if (keys[j] < keys[i]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
      for (i = 1; i <= nx; i++) for (j = i + 1; j <= nx; j++) if (xl[j] + 0 < xl[i] + 0) { t = xl[i]; xl[i] = xl[j]; xl[j] = t }
      # the ratio columns: per PE count with the twin, the first gshmem variant there / the twin
      nr = 0
      for (i = 1; i <= nk; i++) if (kv[keys[i]] == "mpi")
        for (j = 1; j <= nk; j++) if (kn[keys[j]] + 0 == kn[keys[i]] + 0 && kv[keys[j]] != "mpi") {
          nr++; twin[nr] = keys[i]; mine[nr] = keys[j]; break
        }
      h = "| " xname " |"; s = "|---:|"
      for (i = 1; i <= nk; i++) {
        k = keys[i]; h = h sprintf(" %s, %s |", kv[k] == "mpi" ? "MPI twin" : kv[k], kn[k] + 0 == 1 ? "1 PE" : kn[k] " PEs"); s = s "---:|"
      }
      for (i = 1; i <= nr; i++) { h = h sprintf(" %s / twin, %d PE%s |", kv[mine[i]], kn[mine[i]], kn[mine[i]] + 0 == 1 ? "" : "s"); s = s "---:|" }
      print h; print s
      for (r = 1; r <= nx; r++) {
        x = xl[r]; line = "| " x " |"
        for (i = 1; i <= nk; i++) line = line " " (((x, keys[i]) in val) ? sprintf(fmt, val[x, keys[i]]) : "") " |"
        for (i = 1; i <= nr; i++) line = line " " (((x, mine[i]) in val) && ((x, twin[i]) in val) && val[x, twin[i]] > 0 ? \
                                                 sprintf("%.2f", val[x, mine[i]] / val[x, twin[i]]) : "") " |"
        print line
      }
    }' "$1"
}
tables() {
  local gpu
  gpu=$(sed -n '1s/^date \([^ ]*\) GPU 0: \([^(]*\) (.*/\2 (\1)/p' "$D/summary.txt" 2> /dev/null || true)
  echo "# GPU apps sweep ${gpu:+on $gpu}"
  echo
  echo "HSG over-relaxation, ps per spin (slowest PE's time per sweep / L^3; 1 PE alone on the GPU, more PEs sharing"
  echo "it under MPS; MPI twin = the same binary with --mpi):"
  echo
  pivot "$C/apps-hsg.csv" 1 3 2 5 "%.2f" L
  echo
  echo "HSG heat bath, ps per spin:"
  echo
  pivot "$C/apps-hsg.csv" 1 3 2 6 "%.2f" L
  awk -F, 'NR > 1 && $8 != "" && $2 == 1 { s += $8; n++ } END { if (n) printf "\nFloor 60 B/spin / B at 1 PE (mean of %d runs): %.2f ps\n", n, s / n }' "$C/apps-hsg.csv"
  echo
  echo "Stencil 2D Jacobi N x N fp32, ms per iteration (norm every 100 iterations):"
  echo
  pivot "$C/apps-stencil.csv" 1 4 3 8 "%.4f" N
  echo
  echo "Stencil, 1 PE, against the copy probe B:"
  echo
  echo "| N | variant | ms per iteration | GB/s (8 B per point) | B (GB/s) | % of B | validation |"
  echo "|---:|---|---:|---:|---:|---:|---|"
  awk -F, 'NR > 1 && $3 == 1 { printf "| %s | %s | %.4f | %.1f | %s | %s | %s |\n", $1, $4, $8, $9, $10, $11, $13 }' "$C/apps-stencil.csv"
  echo
  echo "BFS (Graph500 Kronecker, edgefactor 16), TEPS; every tree validated:"
  echo
  echo "| scale | PEs | exchange | roots | harmonic mean | median | quartiles | harmonic mean without small-component roots | construction (s) | validation |"
  echo "|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"
  awk -F, 'function g(x) { return x >= 1e9 ? sprintf("%.1f G", x / 1e9) : x >= 1e6 ? sprintf("%.1f M", x / 1e6) : \
                                 x >= 1e3 ? sprintf("%.1f k", x / 1e3) : sprintf("%.0f", x) }
    NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s / %s | %s (%d) | %.1f | %s |\n", $1, $2, $3, $4, g($5), g($6), g($7), g($8),
             ($12 > 0 ? g($11) : "="), $12, $13, $14 }' "$C/apps-bfs.csv"
}
tables > "$C/apps-tables.md"
cat "$C/apps-tables.md"
[ $csv_only = 1 ] && exit 0

# ------------------------------------------------------------------------------------------------ CSV -> plots
command -v gnuplot > /dev/null || { echo "gpu-apps-plot: gnuplot not found (apt-get install -y gnuplot-nox)" >&2; exit 1; }
mkdir -p "$IMG"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# series FILE APP VARCOL NPCOL VALIDCOL: one data file per (variant, PEs) in $T, rows sorted by x; prints the series
# as "variant:np" words in the pivot's order; rows whose validation failed are left out
series() {
  awk -F, -v t="$T" -v app="$2" -v vc="$3" -v nc="$4" -v okc="$5" '
    function rank(v) { return v == "direct" ? 1 : v == "device" ? 1 : v == "gshmem" ? 1 : v == "auto" ? 2 : \
                              v == "stream" ? 3 : v == "staged-tx" ? 4 : v == "staged" ? 5 : v == "mpi" ? 9 : 8 }
    NR == 1 || (okc > 0 && $okc == "FAILED") { next }
    { k = $vc ":" $nc; print > (t "/" app "_" $vc "_" $nc ".dat"); if (!(k in s)) { s[k] = sprintf("%03d%d", $nc, rank($vc)); n++ } }
    END { for (k in s) print s[k], k }' "$1" | sort | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }'
}
gpu=$(sed -n '1s/^date \([^T]*\)T\([0-9]*:[0-9]*\)[^ ]* GPU 0: \([^(]*\) (.*/\3, \1 \2Z/p' "$D/summary.txt" 2> /dev/null || true)
gpu=${gpu:-one GPU}
plot() {  # plot APP SERIES FLOOR
  [ -n "$2" ] || { echo "gpu-apps-plot: no $1 rows, no plot"; return 0; }
  gnuplot -e "which='$1'; dir='$T'; series='$2'; png='$IMG/apps-$1.png'; gpu='$gpu'; floor=$3" "$HERE/gpu-apps.gp"
  echo "$IMG/apps-$1.png: $2"
}
hsg_floor=$(awk -F, 'NR > 1 && $8 != "" && $2 == 1 { s += $8; n++ } END { print n ? s / n : 0 }' "$C/apps-hsg.csv")
st_b=$(awk -F, 'NR > 1 && $10 != "" && $3 == 1 { s += $10; n++ } END { print n ? s / n : 0 }' "$C/apps-stencil.csv")
plot hsg "$(series "$C/apps-hsg.csv" hsg 3 2 0)" "$hsg_floor"
plot stencil "$(series "$C/apps-stencil.csv" stencil 4 3 13)" "$st_b"
plot bfs "$(series "$C/apps-bfs.csv" bfs 3 2 14)" 0
