# Bar chart of one platform's headline ratios as gshmem's speed-up over the peer, log scale: above 1 gshmem is
# faster, below 1 the peer is. Input: a CSV with the header
#   platform,operation,peer,unit,gshmem,peer_value,ratio,better
# (ratio = gshmem / peer; better is "lower" for times, "higher" for rates). From the repository root:
#   gnuplot -e "csv='docs/performance/cpu.csv'; out='docs/performance/cpu.png'; title='CPU, one node'" \
#     docs/performance/headline.gp
if (!exists("csv")) csv = "docs/performance/cpu.csv"
if (!exists("out")) out = "docs/performance/cpu.png"
if (!exists("title")) title = csv
set datafile separator ","
set terminal pngcairo size 1300,760 font "sans,10"
set output out
set termoption noenhanced
set title title
set logscale y 10
set yrange [0.1:1000]
set ylabel "gshmem speed-up over the peer (log scale; > 1: gshmem faster)"
set ytics ("0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "500" 500)
set grid ytics
set xtics rotate by -40 left nomirror
set bmargin 20
set rmargin 24
set style fill solid 0.8 border -1
unset key
speedup(r, better) = (better eq "higher") ? r : 1.0 / r
lo(x) = x < 1 ? x : 1
hi(x) = x < 1 ? 1 : x
fmt(x) = x >= 10 ? sprintf("%.0f", x) : sprintf("%.2f", x)
n = int(system(sprintf("tail -n +2 '%s' | grep -c .", csv)))
set xrange [-0.6:n - 0.4]
# each bar runs from 1 to the speed-up: up (green) where gshmem is faster, down (red) where the peer is
plot csv every ::1 using 0:(1):($0 - 0.35):($0 + 0.35):(lo(speedup($7, strcol(8)))):(hi(speedup($7, strcol(8)))): \
         (speedup($7, strcol(8)) >= 1 ? 0x2e8b57 : 0xcd3333): \
         xtic(sprintf("%s (%s)", strcol(2), strcol(3))) with boxxyerror lc rgb variable, \
     csv every ::1 using 0:(s = speedup($7, strcol(8)), s >= 1 ? s * 1.2 : s / 1.2):(fmt(speedup($7, strcol(8)))) \
         with labels, \
     1 with lines lc rgb "black" lw 1.5
