# Trend chart of one series of the history: every sample at its run's
# position (runs in order), the mean of each segment between change points
# as a step, and each change point marked with the runs around it.
# gnuplot -c trend.gp DATADIR N (DATADIR holds vars.N.gp, sN.dat, sN.seg, sN.tics, marks.N.gp)
# Runs set aside as outliers (NOUT of them) are rings, apart from the samples.
# A series of one run is a chart too: NRUNS 1 is the range [0.5, 1.5].
load ARG1.'/vars.'.ARG2.'.gp'
load PLOTS.'/style.gp'
load ARG1.'/marks.'.ARG2.'.gp'
D = ARG1.'/s'.ARG2
set xrange [0.5 : NRUNS + 0.5]
# A flat series (every sample equal) has an empty range to autoscale: give
# it 5% of its value a side (1 for a series of zeros).
if (YMIN == YMAX) {
	PAD = abs(YMIN) > 0 ? abs(YMIN) * 0.05 : 1
	set yrange [YMIN - PAD : YMAX + PAD]
}
set xtics rotate by 30 right scale 0 font ',9'
set bmargin 6
set style textbox opaque noborder
do for [fmt in 'png svg'] {
	if (fmt eq 'png') {
		set terminal pngcairo size 960,420 font 'DejaVu Sans,12' noenhanced
	} else {
		set terminal svg size 960,420 font 'DejaVu Sans,12' noenhanced background '#ffffff'
	}
	set output OUT.'.'.fmt
	# column 3: 1 for a run set aside as an outlier, drawn as rings
	if (NOUT > 0) {
		plot D.'.dat' using 1:($3 > 0 ? NaN : $2) with points pt 7 ps 0.45 lc rgb '#0072B2' title 'samples', \
		     D.'.dat' using 1:($3 > 0 ? $2 : NaN) with points pt 6 ps 0.9 lc rgb '#7F7F7F' title 'outlier run, set aside', \
		     D.'.seg' using 1:2 with lines lw 2.5 lc rgb '#D55E00' title 'segment mean', \
		     D.'.tics' using 1:(NaN):xtic(2) notitle
	} else {
		plot D.'.dat' using 1:2 with points pt 7 ps 0.45 lc rgb '#0072B2' title 'samples', \
		     D.'.seg' using 1:2 with lines lw 2.5 lc rgb '#D55E00' title 'segment mean', \
		     D.'.tics' using 1:(NaN):xtic(2) notitle
	}
}
