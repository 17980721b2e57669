# The GPU apps' sweep plots; scripts/gpu-apps-plot.sh calls it with one data file per series (DIR/APP_VARIANT_NP.dat,
# the columns of DIR/apps-APP.csv) and these variables:
#   which   hsg | stencil | bfs          dir     the folder of the data files     png   the image to write
#   series  "variant:np ..." (bfs: "exchange:np ...")                          gpu   the GPU and date, for the title
#   floor   hsg: 60 B/spin / B in ps; stencil: B in GB/s (the 1-PE copy probe); 0: none
set datafile separator ","
set terminal pngcairo size 1000,620 font "sans,10"
set output png
set termoption noenhanced
set grid
sv(s) = s[1:strstrt(s, ":") - 1]
sn(s) = s[strstrt(s, ":") + 1:]
file(s) = sprintf("%s/%s_%s_%s.dat", dir, which, sv(s), sn(s))
col(v) = v eq "direct" || v eq "device" || v eq "gshmem" ? "#1f77b4" : v eq "auto" ? "#2ca02c" : \
         v eq "stream" ? "#9467bd" : v eq "staged-tx" ? "#ff7f0e" : v eq "staged" ? "#d62728" : "#000000"
dash(n) = n eq "1" ? 1 : n eq "2" ? 2 : 3
# auto: open points and a thin line (it often lies on direct)
ptype(n, v) = (n eq "1" ? 7 : n eq "2" ? 5 : 9) - (v eq "auto" ? 1 : 0)
lwid(v) = v eq "auto" ? 1 : 2
vname(v) = v eq "mpi" ? "MPI twin" : v
pes(n) = n eq "1" ? "1 PE" : n . " PEs"
label(s) = vname(sv(s)) . ", " . pes(sn(s))
# log-scale y: labels at 1, 2 and 5 of each decade

do for [e = -4:6] {
  set ytics add (sprintf("%g", 10.0 ** e) 10.0 ** e, sprintf("%g", 2 * 10.0 ** e) 2 * 10.0 ** e, \
                 sprintf("%g", 5 * 10.0 ** e) 5 * 10.0 ** e)
}
set key inside opaque box lc rgb "#c0c0c0" samplen 3 spacing 1.1
set autoscale yfix
set offsets 0, 0, graph 0.08, graph 0.08

if (which eq "hsg") {
  set title "HSG (3D Heisenberg spin glass, fp32) over-relaxation on " . gpu . ": 1 PE alone, more PEs sharing the GPU (MPS)"
  set xlabel "L (lattice L^3, z-slabs; sweeps 20 x 512 / L per run)"
  set ylabel "ps per spin update (slowest PE's time per sweep / L^3; log scale)"
  set logscale x 2
  set logscale y 10
  set xrange [45:724]
  set xtics (64, 128, 256, 512)
  set key top right
  plot for [s in series] file(s) using 1:5 with linespoints lw lwid(sv(s)) lc rgb col(sv(s)) dt dash(sn(s)) \
         pt ptype(sn(s), sv(s)) ps 1.2 title label(s), \
       (floor > 0 ? floor : 1/0) with lines lw 1 lc rgb "#808080" dt 3 \
         title (floor > 0 ? sprintf("floor 60 B/spin / B = %.2f ps (B: copy probe, 1 PE)", floor) : "")
}
if (which eq "stencil") {
  set title "Stencil (2D Jacobi, 5-point, fp32, norm every 100 iterations) on " . gpu
  set xlabel "N (grid N x N, rows split over the PEs)"
  set ylabel "ms per iteration (slowest PE; log scale)"
  set logscale x 2
  set logscale y 10
  set xrange [1448:23170]
  set xtics (2048, 4096, 8192, 16384)
  set key top left
  fl(x) = 8 * (x - 2) ** 2 / (floor * 1e6)
  plot for [s in series] file(s) using 1:8 with linespoints lw lwid(sv(s)) lc rgb col(sv(s)) dt dash(sn(s)) \
         pt ptype(sn(s), sv(s)) ps 1.2 title label(s), \
       (floor > 0 ? fl(x) : 1/0) with lines lw 1 lc rgb "#808080" dt 3 \
         title (floor > 0 ? sprintf("floor 8 B/point / B, B = %.0f GB/s (copy probe, 1 PE)", floor) : "")
}
if (which eq "bfs") {
  set title "BFS (Graph500 Kronecker, edgefactor 16) on " . gpu . "; numbers: roots searched"
  set xlabel "scale (2^scale vertices, 16 x 2^scale edges)"
  set ylabel "TEPS (Graph500 edge count; log scale)"
  set logscale y 10
  set format y "%.0s%c"
  set xrange [15:25]
  set xtics 1
  set ytics auto
  set key bottom left
  set bars 2
  plot for [s in series] file(s) using 1:6:7:8 with yerrorlines lw 2 lc rgb col(sv(s)) dt dash(sn(s)) pt 7 ps 1.2 \
         title "median, quartiles: " . label(s), \
       for [s in series] file(s) using 1:5 with linespoints lw 2 lc rgb col(sv(s)) dt 2 pt 4 ps 1.4 \
         title "harmonic mean (Graph500): " . label(s), \
       for [s in series] file(s) using 1:($12 > 0 ? $11 : 1/0) with points lc rgb col(sv(s)) pt 6 ps 1.8 \
         title "harmonic mean without the small-component roots: " . label(s), \
       for [s in series] file(s) using 1:6:(sprintf("%d", $4)) with labels offset 0,1.3 font ",8" notitle
}
