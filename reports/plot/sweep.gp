# Sweep plot of one metric: each run's mean at every swept value, error bars
# one standard deviation, one line per run.  The swept values are categories
# in the order run.sh ran them (they may be sizes such as 16M).
# gnuplot -c sweep.gp DATADIR OUTBASE PLOTSDIR (DATADIR holds vars.gp, sweep.dat, xtics.dat)
load ARG1.'/vars.gp'
OUT = ARG2
PLOTS = ARG3
load PLOTS.'/style.gp'
set xrange [-0.4 : NPARAMS - 0.6]
set xtics scale 0
do for [fmt in 'png svg'] {
	call PLOTS.'/term.gp' fmt
	plot for [i=1:NRUNS] ARG1.'/sweep.dat' index (i - 1) using 1:2:3 \
	         with yerrorlines pt 7 ps 0.8 lw 1.5 lc rgb COLORS[i] title NAMES[i], \
	     ARG1.'/xtics.dat' using 1:(NaN):xtic(2) notitle
}
