# Box plot of each run's samples of one metric, in run order: box = quartiles,
# whiskers = min and max, bar = median, cross = mean, dots = the iterations.
# For a sweep, runs stand side by side in one group per swept value.
# gnuplot -c box.gp DATADIR OUTBASE PLOTSDIR (DATADIR holds vars.gp, box.dat, pts.dat, xtics.dat)
load ARG1.'/vars.gp'
OUT = ARG2
PLOTS = ARG3
load PLOTS.'/style.gp'
set xrange [0.3 : NPARAMS * (NRUNS + 1) - 0.3]
set boxwidth 0.5 absolute
set style fill solid 0.3 border
set xtics scale 0
# Dots are spread sideways by a fixed pattern (not random), so the picture
# is the same on every run of the script.
jitter(i) = ((int(i) % 5) - 2) * 0.06
do for [fmt in 'png svg'] {
	call PLOTS.'/term.gp' fmt
	plot ARG1.'/box.dat' using 1:3:2:6:5:8 with candlesticks whiskerbars 0.5 lc rgb variable lw 1.5 title 'quartiles, min-max', \
	     '' using 1:4:4:4:4:8 with candlesticks lc rgb variable lw 3 title 'median', \
	     ARG1.'/pts.dat' using ($1 + jitter($0)):2:3 with points pt 7 ps 0.6 lc rgb variable title 'iterations', \
	     ARG1.'/box.dat' using 1:7 with points pt 2 ps 1.6 lw 2 lc rgb '#000000' title 'mean', \
	     for [i=1:(NPARAMS > 1 ? NRUNS : 0)] NaN with boxes lc rgb COLORS[i] title NAMES[i], \
	     ARG1.'/xtics.dat' using 1:(NaN):xtic(2) notitle
}
