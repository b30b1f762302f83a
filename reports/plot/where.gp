# The --profile block's functions as a diverging bar chart: each function's
# change per iteration, more work to the right in red, less to the left in
# blue, the largest change on top.
# gnuplot -c where.gp DATADIR OUTBASE PLOTSDIR (DATADIR holds vars.gp, where.dat)
load ARG1.'/vars.gp'
OUT = ARG2
PLOTS = ARG3
load PLOTS.'/style.gp'
set title TITLE.': '.NAME_BASE.' -> '.NAME_NEW noenhanced font ',13'
unset key
set grid xtics noytics
set xzeroaxis
set x2zeroaxis
set yrange [-0.7 : NROWS - 0.3]
set ytics scale 0
set format x '%.1s%c'
set xtics rotate by -30
set offsets graph 0.08, graph 0.08, 0, 0
set style fill solid 0.8 border -1
do for [fmt in 'png svg'] {
	call PLOTS.'/term.gp' fmt
	plot ARG1.'/where.dat' using ($2 > 0 ? $2 / 2 : NaN):1:($2 > 0 ? $2 / 2 : NaN):(0.35):ytic(3) with boxxyerror lc rgb '#D55E00', \
	     '' using ($2 <= 0 ? $2 / 2 : NaN):1:($2 <= 0 ? -$2 / 2 : NaN):(0.35) with boxxyerror lc rgb '#0072B2'
}
