# Run-sequence plot of one metric: each run's values in the order they were
# measured, warm-ups hollow, so warm-up effects and drift show at a glance.
# gnuplot -c runseq.gp DATADIR OUTBASE PLOTSDIR (DATADIR holds vars.gp, seq.dat, marks.gp)
load ARG1.'/vars.gp'
OUT = ARG2
PLOTS = ARG3
load PLOTS.'/style.gp'
load ARG1.'/marks.gp'
set autoscale xfix
set offsets 0.6, 0.6, graph 0.06, graph 0.06
do for [fmt in 'png svg'] {
	call PLOTS.'/term.gp' fmt
	plot for [i=1:NRUNS] ARG1.'/seq.dat' index (i - 1) using 1:($3 == 0 ? $2 : NaN) \
	         with linespoints pt 7 ps 0.7 lw 1.5 lc rgb COLORS[i] title NAMES[i], \
	     for [i=1:NRUNS] ARG1.'/seq.dat' index (i - 1) using 1:($3 == 1 ? $2 : NaN) \
	         with points pt 6 ps 1.0 lw 1.5 lc rgb COLORS[i] notitle
}
