# bisect.txt's head and step table from bisect.json (jq -r -f report.jq).
# Means are shown as measured, with their change from the good end's mean
# ($g, in unit $u: jq --argjson g MEAN --arg u UNIT).

def pct: if $g == 0 or . == null then "" else " (\((. - $g) / $g * 10000 | round / 100 | if . == 0 then "+0" elif . > 0 then "+\(.)" else "\(.)" end)%)" end;
def val: if . == null then "-" else "\(.) \($u)\(pct)" end;
def mean_of($run): [.steps[] | select(.run == $run and .mean != null)] | last | .mean;
def name: if .commit then "commit \(.commit[0:12])" else .release // .run end;


"bisect of \(.bench), metric \(.metric) (\(.unit), \(.better) is better), \(.iterations) iterations a point: " +
(if .result == "culprit" and (.changes | length) > 1 then
	"\(.changes | length) steps, the first bad kernels \([.changes[].first_bad | name] | join(", "))"
 elif .result == "culprit" then "the first bad kernel is \(.first_bad | name)"
 elif .result == "ambiguous" then "no single culprit: skipped points leave \(.candidates | join(", "))"
 else "the two ends do not differ; nothing bisected" end),
"",
(if .result == "culprit" then
	"  first bad: \(.first_bad.run)  \(.first_bad.image // "")  \(.first_bad.commit // "")",
	"  last good: \(.last_good.run)  \(.last_good.image // "")  \(.last_good.commit // "")",
	"  the step:  \(mean_of(.last_good.run) | val) -> \(mean_of(.first_bad.run) | val)"
 else empty end),
(if .every_step and (.changes | length) > 0 then
	"  steps:     \(.changes | length), in order: size, and share of the change between the ends",
	(.changes | to_entries[] | .value as $c |
		"    \(.key + 1). \($c.last_good.run // "?") -> \($c.first_bad.run // ("one of " + ($c.candidates | join(", "))))" +
		(if $c.pct == null then "" else "  \($c.pct | if . >= 0 then "+\(.)" else "\(.)" end)%, share \($c.share * 10000 | round / 100)%" end)),
	(if .unexplained == null then empty else
		"  unexplained: \(.unexplained * 10000 | round / 100)% of the change lies within the levels (drift, or steps below the threshold)" end)
 else empty end),
"  ends:      good \(.good_mean | val), bad \(.bad_mean | val)" +
	(if .boundary == null then "" else "; a point is bad beyond \(.boundary | val) (" +
	(if .threshold_pct == null then "the midpoint" else "\(.threshold_pct)% from good" end) + ")" end),
"  boots:     \(.boots)" + (if .rounds == null then "" else ", in \(.rounds) rounds" +
	(if .slurm then " of up to \(.jobs) points at once, as Slurm jobs" else " of one point" end) end),
"",
"step  role      run                                 verdict    mean (vs the good end) or why skipped",
(.steps | to_entries[] | .value as $s |
	"\(.key + 1 | tostring | .[0:5] | . + " " * (5 - length)) \($s.role | . + " " * (9 - length)) " +
	"\($s.run | . + " " * ([35 - length, 0] | max)) \($s.verdict | . + " " * (10 - length)) " +
	(if $s.mean == null then $s.note // "" else ($s.mean | val) end))
