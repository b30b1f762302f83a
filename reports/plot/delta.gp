# Delta chart of one metric: each run's change of the mean against the
# baseline, in percent (positive is better, as in the tables), with the
# confidence interval of the difference as error bars.  A significant change
# is a solid bar with a star beyond the end of its error bar (above a gain,
# below a loss, clear of the whisker); a bar whose interval covers zero is
# pale.
# gnuplot -c delta.gp DATADIR OUTBASE PLOTSDIR (DATADIR holds vars.gp, delta.dat, xtics.dat)
load ARG1.'/vars.gp'
OUT = ARG2
PLOTS = ARG3
load PLOTS.'/style.gp'
set xrange [0.3 : NPARAMS * NRUNS - 0.3]
set xtics scale 0
set xzeroaxis lt -1 lw 1
# the zero line must be on the plot even when every change is large
set autoscale yfix
set yrange [*<0:0<*]
# room beyond the longest error bar for its star
set offsets 0, 0, graph 0.15, graph 0.15
set boxwidth 0.6 absolute
# column 5 is the run's index (0 = baseline), for its colour
bar(i, s) = ($5 == i - 1 && $4 == s) ? $2 : NaN
# The stars: no all-NaN label column (gnuplot 5.4 crashes on one), an empty
# label where there is no star.
do for [fmt in 'png svg'] {
	call PLOTS.'/term.gp' fmt
	plot for [i=2:NRUNS] ARG1.'/delta.dat' using 1:(bar(i, 1)) with boxes fill solid 0.8 border lc rgb COLORS[i] fc rgb COLORS[i] notitle, \
	     for [i=2:NRUNS] ARG1.'/delta.dat' using 1:(bar(i, 0)) with boxes fill solid 0.2 border lc rgb COLORS[i] fc rgb COLORS[i] notitle, \
	     ARG1.'/delta.dat' using 1:2:3 with yerrorbars pt 7 ps 0.4 lw 1.5 lc rgb '#222222' title 'confidence interval', \
	     '' using 1:($2 + $3):($4 == 1 && $2 >= 0 ? '*' : '') with labels offset 0, char 0.9 font ',14' notitle, \
	     '' using 1:($2 - $3):($4 == 1 && $2 < 0 ? '*' : '') with labels offset 0, char -0.7 font ',14' notitle, \
	     NaN with boxes fill solid 0.8 lc rgb '#777777' fc rgb '#777777' title 'significant (*)', \
	     NaN with boxes fill solid 0.2 lc rgb '#777777' fc rgb '#777777' title 'no difference proven', \
	     for [i=2:(NPARAMS > 1 ? NRUNS : 1)] NaN with boxes fill solid 0.8 lc rgb COLORS[i] fc rgb COLORS[i] title NAMES[i], \
	     ARG1.'/xtics.dat' using 1:(NaN):xtic(2) notitle
}
