#!/bin/bash
# tools/resolution.sh RUN_A RUN_B [RUN_A RUN_B ...]: the icount resolution
# of every bench in two runs of the same kernel and arguments, booted
# separately (make test-resolution makes them).  Prints
# drivers/vm/resolution.tsv's lines: per bench, metric and sweep point, the
# coefficient of variation of the iterations within one boot (both boots'
# samples, each about its own mean), the largest spread within a boot over
# its mean, and whether the two boots gave the same samples bit for bit.
# A swept bench's point is written KEY=VALUE (STRESSOR=mremap), which
# matches every run whose config has that value, swept or not.  More pairs
# (other kernels, other commits of the suite: the spread within a boot
# moves with the bytes the guest carries) give one line per point and
# kernel, the widest of its pairs', "differ" if any pair differed.
set -euo pipefail
usage() { echo "usage: $0 RUN_A RUN_B [RUN_A RUN_B ...] (pairs of run directories)" >&2; exit 2; }
if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then usage; fi
for d in "$@"; do [ -d "$d" ] || usage; done

# pair_lines RUN_A RUN_B: the lines of one pair of boots.
pair_lines() {
	local a=$1 b=$2 kernel dir bench same swept
	kernel=$(sed -n 's/^kernel_release: //p' "$a/meta")
	for dir in "$a"/*/; do
		bench=$(basename "$dir")
		if [ ! -f "$a/$bench/samples.tsv" ] || [ ! -f "$b/$bench/samples.tsv" ]; then continue; fi
		if cmp -s "$a/$bench/samples.tsv" "$b/$bench/samples.tsv"; then same=identical; else same=differ; fi
		swept=$(sed -n 's/^sweep: //p' "$a/$bench/config" 2>/dev/null || true)
		awk -F'\t' -v bench="$bench" -v same="$same" -v kernel="$kernel" -v swept="$swept" '
			FNR == 1 { run++; next }
			$3 !~ /^[0-9]+$/ { next }
			swept != "" && $2 != "-" { $2 = swept "=" $2 }
			{ k = $1 "\t" $2; r = k SUBSEP run; n[r]++; s[r] += $4; q[r] += $4 * $4
			  if (!(r in lo) || $4 < lo[r]) lo[r] = $4; if (!(r in hi) || $4 > hi[r]) hi[r] = $4; keys[k] = 1 }
			END {
				for (k in keys) {
					ss = 0; df = 0; m = 0; rng = 0; cnt = 0
					for (i = 1; i <= run; i++) {
						r = k SUBSEP i; if (!(r in n)) continue
						mi = s[r] / n[r]; ss += q[r] - n[r] * mi * mi; df += n[r] - 1; m += mi; cnt++
						if (mi != 0 && (hi[r] - lo[r]) / (mi < 0 ? -mi : mi) > rng) rng = (hi[r] - lo[r]) / (mi < 0 ? -mi : mi)
					}
					m /= cnt
					if (ss < 0) ss = 0
					cv = (df > 0 && m != 0) ? sqrt(ss / df) / (m < 0 ? -m : m) : 0
					printf "%s\t%s\t%.2e\t%.2e\t%s\t%s\t%d\n", bench, k, cv, rng, same, kernel, n[k SUBSEP 1]
				}
			}' "$a/$bench/samples.tsv" "$b/$bench/samples.tsv"
	done
}

printf '# bench\tmetric\tparam\tcv\trange\tboots\tkernel\titerations\n'
while [ $# -gt 0 ]; do
	pair_lines "$1" "$2"
	shift 2
done | awk -F'\t' -v OFS='\t' '
	{ k = $1 OFS $2 OFS $3 OFS $7
	  if (!(k in cv)) { order[++n] = k; cv[k] = $4; rng[k] = $5; boots[k] = $6; it[k] = $8 }
	  if ($4 + 0 > cv[k] + 0) cv[k] = $4
	  if ($5 + 0 > rng[k] + 0) rng[k] = $5
	  if ($6 != "identical") boots[k] = $6 }
	END { for (i = 1; i <= n; i++) { split(order[i], f, OFS); print f[1], f[2], f[3], cv[order[i]], rng[order[i]], boots[order[i]], f[4], it[order[i]] } }' |
	sort -t$'\t' -k1,1 -k2,2 -k3,3 -k7,7
