# Shared look of every mmdelta plot.  Loaded by the plot scripts after the
# generated vars.gp; `call PLOTS.'/term.gp' FMT` then picks PNG or SVG.
# noenhanced: metric and run names hold underscores, which gnuplot's enhanced
# text would turn into subscripts.
set encoding utf8
set border 3 lc rgb '#444444'
set tics nomirror out
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set key outside bottom center horizontal noenhanced samplen 1.5 spacing 1.1 width 1 maxrows 2
set title TITLE noenhanced font ',13'
set ylabel YLABEL noenhanced
set xlabel XLABEL noenhanced
# fixed y range plus 5%: rounding out to the next tic can put a -5 ms
# under times that are never negative.
set autoscale yfix
set offsets 0, 0, graph 0.06, graph 0.06
