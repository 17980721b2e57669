# plot of scripts/gpu-sweep.sh's sweep.csv (mode,bytes,us,GBps,protocol,verified).
#   gnuplot -e "csv='sweep.csv'; png='docs/img/gpu-sweep.png'" scripts/gpu-sweep.gp
set datafile separator ","
set terminal pngcairo size 1000,600 font "sans,10"
set output png
set logscale x 2
set logscale y 10
set format x "%.0b%BB"
set termoption noenhanced
set xlabel "transfer size (host-initiated device-to-device put on a stream + stream sync, PE 0 -> PE 1)"
set ylabel "GB/s"
set key top left
set grid
set title "gshmem on 2x H200 (NVLink): each protocol forced and the automatic choice"
plot csv using (strcol(1) eq "p2p_ce" ? $2 : 1/0):4 with linespoints title "p2p_ce (copy engine)", \
     csv using (strcol(1) eq "p2p_sm" ? $2 : 1/0):4 with linespoints title "p2p_sm (SM copy kernel)", \
     csv using (strcol(1) eq "staged" ? $2 : 1/0):4 with linespoints title "staged (pinned host pipeline)", \
     csv using (strcol(1) eq "auto" ? $2 : 1/0):4 with points pt 6 ps 1.5 title "auto (calibrated profile)", \
     csv using (strcol(1) eq "p2p_off" ? $2 : 1/0):4 with lines dt 2 title "GSHMEM_P2P=0 (auto -> staged)"
