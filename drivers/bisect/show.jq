# A bisection's figures as a person reads them (report.jq's bisect.txt,
# measure.sh's progress lines: bisect_show): every figure of a line in
# one unit, the one compare.sh's table chose for the metric ($div and $unit
# are mmstat's display_divisor and display_unit, from the unit ladder of
# reports/compare/units.c), and only to the digits that mean something.

# . printed with $d decimals, as printf's %.*f does.
def fixed($d):
	(. * pow(10; $d) | round) as $n
	| ($n | fabs | tostring) as $s
	| (if ($s | length) <= $d then "0" * ($d + 1 - ($s | length)) + $s else $s end) as $p
	| (if $n < 0 then "-" else "" end) + $p[0:($p | length) - $d]
	  + (if $d > 0 then "." + $p[($p | length) - $d:] else "" end);

# The decimals that show a figure known to within . (in the shown unit):
# to the second significant digit of that width; null when it is 0 or
# unknown (the figure is exact: every iteration under icount alike).
def decimals:
	if . != null and . > 0 and (isinfinite | not) then [1 - (log10 | floor), 0] | max else null end;

# show($div; $unit; $res): . (in the metric's own unit) in the shown unit,
# known to within $res (in the metric's unit too: the half width of its 95%
# interval; 0 or null when exact).  An exact figure keeps its own digits,
# ten significant at most: a mean of nanosecond counts has no more, and
# past them shows a double's rounding (0.006592232999999999).
def show($div; $unit; $res):
	(. / $div) as $v
	| ($v | fabs | if . >= 1 then (log10 | floor) + 1 else 1 end) as $int
	| ([10 - $int, 0] | max) as $most
	| (if $res == null then null else $res / $div | decimals end) as $d
	| (if $d == null then $v | fixed($most) | (if test("\\.") then sub("0+$"; "") | sub("\\.$"; "") else . end)
	   else $v | fixed([$d, $most] | min) end)
	  + (if $unit == "" then "" else " " + $unit end);

# "MEAN ± HALF", both to the half width's digits; without a half width (one
# iteration) the mean alone.
def show_ci($div; $unit; $half):
	if $half == null then show($div; $unit; null) + " (one value, no interval)"
	else show($div; $unit; $half) + " ± " + ($half | show($div; $unit; $half)) end;
