# Bar chart of one platform's headline ratios (headline.csv) as gshmem's speed-up over the peer, log scale:
# above 1 gshmem is faster, below 1 the peer is. From the repository root:
#   for p in cpu twohosts gpu; do gnuplot -e "platform='$p'" docs/img/headline.gp; done
if (!exists("platform")) platform = "cpu"
csv = "docs/img/headline.csv"
names = "'CPU, one node: gshmem vs Open MPI OpenSHMEM and MPI RMA (2026-11-25, 2-core VM, 2 PEs)' \
'Two hosts over UCX/TCP: gshmem vs Open MPI OpenSHMEM (2026-11-25, 2 PEs, one per host)' \
'GPU: gshmem vs NVSHMEM 3.4.5 (2026-11-22, 2x H200 over NVLink, one PE per GPU)'"
idx = (platform eq "cpu") ? 1 : (platform eq "twohosts") ? 2 : 3
set datafile separator ","
set terminal pngcairo size 1100,540 font "sans,10"
set output sprintf("docs/img/headline-%s.png", platform)
set termoption noenhanced
set title word(names, idx)
set logscale y 10
set yrange [0.1:100]
set ylabel "gshmem speed-up over the peer (log scale; > 1: gshmem faster)"
set ytics ("0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100)
set grid ytics
set xtics rotate by -35 left nomirror
set bmargin 9
set rmargin 16
set style fill solid 0.8 border -1
set boxwidth 0.7
unset key
speedup(r, kind) = (kind eq "rate") ? r : 1.0 / r
lo(x) = x < 1 ? x : 1
hi(x) = x < 1 ? 1 : x
fmt(x) = x >= 10 ? sprintf("%.0f", x) : sprintf("%.2f", x)
peerlabel(l, p) = (platform eq "cpu") ? sprintf("%s (%s)", l, p eq "MPI RMA" ? "MPI" : "SHMEM") : l
data = sprintf("< grep '^%s,' %s", platform, csv)
n = int(system(sprintf("grep -c '^%s,' %s", platform, csv)))
set xrange [-0.6:n - 0.4]
# each bar runs from 1 to the speed-up: up (green) where gshmem is faster, down (red) where the peer is
plot data using 0:(1):($0 - 0.35):($0 + 0.35):(lo(speedup($4, strcol(5)))):(hi(speedup($4, strcol(5)))): \
         (speedup($4, strcol(5)) >= 1 ? 0x2e8b57 : 0xcd3333):xtic(peerlabel(strcol(2), strcol(3))) \
         with boxxyerror lc rgb variable, \
     data using 0:(s = speedup($4, strcol(5)), s >= 1 ? s * 1.18 : s / 1.18):(fmt(speedup($4, strcol(5)))) \
         with labels, \
     1 with lines lc rgb "black" lw 1.5
