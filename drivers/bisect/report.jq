# bisect.txt's head and step table from bisect.json (jq -r -f report.jq).  Means are shown in the unit of compare.sh's table below
# them ($div, $u: bisect_display), each to the digits its interval leaves
# (show.jq), with their change from the good end's mean ($g: jq --argjson g
# MEAN), in percent and signed as compare.sh's tables: positive = better (a
# count, .better "none", the plain change).
# show.jq beside this file (a search path of "./" is this file's folder;
# without it jq 1.6 looks in the current directory first).
include "show" {search: "./"};

def sign: if .better == "lower" then -1 else 1 end;
def pct($sg): if $g == 0 or . == null then "" else
	" (\((. - $g) / (if $g < 0 then -$g else $g end) * 100 * $sg * 100 | round / 100 + 0
	      | if . >= 0 then "+\(.)" else "\(.)" end)%)" end;
def direction: if .better == "none" then "neither better nor worse" else "\(.better) is better" end;
def changes: "  changes:   in percent of the good end's mean, " +
	(if .better == "none" then "the plain change (a count)" else "positive = better" end);
def val($res; $sg): if . == null then "-" else show($div; $u; $res) + pct($sg) end;
def measured($run): [.steps[] | select(.run == $run and .mean != null)] | last;
# The last measure of $run, to the digits its interval leaves.
def figure($run; $sg): measured($run) as $m | $m.mean | val($m.half; $sg);
def end_half($role): [.steps[] | select(.role == $role and .verdict == "measured")] | last | .half;
# The boundary is known to within the wider of the ends' intervals.
def boundary_half: [end_half("good end"), end_half("bad end")] | if any(. == null) then null else max end;
def name: if .commit then "commit \(.commit[0:12])" else .release // .run end;


sign as $sg |
"bisect of \(.bench), metric \(.metric) (\(.unit), \(direction)), \(.iterations) iterations a point: " +
(if .result == "culprit" and (.changes | length) > 1 then
	"\(.changes | length) steps, the first bad kernels \([.changes[].first_bad | name] | join(", "))"
 elif .result == "culprit" then "the first bad kernel is \(.first_bad | name)"
 elif .result == "ambiguous" then "no single culprit: skipped points leave \(.candidates | join(", "))"
 else "the two ends do not differ; nothing bisected" end),
"",
(if .result == "culprit" then
	"  first bad: \(.first_bad.run)  \(.first_bad.image // "")  \(.first_bad.commit // "")",
	"  last good: \(.last_good.run)  \(.last_good.image // "")  \(.last_good.commit // "")",
	changes,
	"  the step:  \(figure(.last_good.run; $sg)) -> \(figure(.first_bad.run; $sg))"
 else changes end),
(if .every_step and (.changes | length) > 0 then
	"  steps:     \(.changes | length), in order: size, and share of the change between the ends",
	(.changes | to_entries[] | .value as $c |
		"    \(.key + 1). \($c.last_good.run // "?") -> \($c.first_bad.run // ("one of " + ($c.candidates | join(", "))))" +
		(if $c.pct == null then "" else "  \($c.pct * $sg + 0 | if . >= 0 then "+\(.)" else "\(.)" end)%, share \($c.share * 10000 | round / 100)%" end)),
	(if .unexplained == null then empty else
		"  unexplained: \(.unexplained * 10000 | round / 100)% of the change lies within the levels (drift, or steps below the threshold)" end)
 else empty end),
boundary_half as $ch |
end_half("good end") as $gh | end_half("bad end") as $bh |
"  ends:      good \(.good_mean | val($gh; $sg)), bad \(.bad_mean | val($bh; $sg))" +
	(if .boundary == null then "" else "; a point is bad beyond \(.boundary | val($ch; $sg)) (" +
	(if .threshold_pct == null then "the midpoint" else "\(.threshold_pct)% from good" end) + ")" end),
"  boots:     \(.boots)" + (if .rounds == null then "" else ", in \(.rounds) rounds" +
	(if .slurm then " of up to \(.jobs) points at once, as Slurm jobs" else " of one point" end) end),
"",
"step  role      run                                 verdict    mean (change from the good end) or why skipped",
(.steps | to_entries[] | .value as $s |
	"\(.key + 1 | tostring | .[0:5] | . + " " * (5 - length)) \($s.role | . + " " * (9 - length)) " +
	"\($s.run | . + " " * ([35 - length, 0] | max)) \($s.verdict | . + " " * (10 - length)) " +
	(if $s.mean == null then $s.note // "" else ($s.mean | val($s.half; $sg)) end))
