# call term.gp FMT: direct the next plot to OUT.png or OUT.svg.  Both at the
# same size so the HTML page can show either; DejaVu is what make deps installs.
if (ARG1 eq 'png') {
	set terminal pngcairo size 640,420 font 'DejaVu Sans,12' noenhanced
} else {
	set terminal svg size 640,420 font 'DejaVu Sans,12' noenhanced background '#ffffff'
}
set output OUT.'.'.ARG1
