# plot of the device-initiated sweep (benchmarks/gpu/dsweep.cu; CSV mode,scope,bytes,us,GBps,verified),
# one panel per scope.
#   sort -t, -k1,1 -k2,2 -k3,3n dsweep.csv > s.csv && gnuplot -e "csv='s.csv'; png='docs/img/gpu-dsweep.png'" scripts/gpu-dsweep.gp
set datafile separator ","
set terminal pngcairo size 1500,500 font "sans,10"
set output png
set termoption noenhanced
set multiplot layout 1,3 title "gshmem on 2x H200 (NVLink): device-initiated putmem by one group, each route forced and auto"
set logscale x 2
set logscale y 10
set format x "%.0b%BB"
set ylabel "GB/s"
set key top left
set grid
do for [sc in "thread warp block"] {
  set title sc
  set xlabel "bytes per put (" . sc . " scope)"
  plot csv using ((strcol(1) eq "store" && strcol(2) eq sc) ? $3 : 1/0):5 with linespoints title "store (SM)", \
       csv using ((strcol(1) eq "ce" && strcol(2) eq sc) ? $3 : 1/0):5 with linespoints title "ce (proxy copy engine)", \
       csv using ((strcol(1) eq "staged" && strcol(2) eq sc) ? $3 : 1/0):5 with linespoints title "staged (P2P off)", \
       csv using ((strcol(1) eq "auto" && strcol(2) eq sc) ? $3 : 1/0):5 with points pt 6 ps 1.5 title "auto"
}
unset multiplot
