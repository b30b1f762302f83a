#!/bin/bash
# tools/resolution.sh RUN_A RUN_B: the icount resolution of every bench in
# two runs of the same kernel and arguments, booted separately (make
# test-resolution makes them).  Prints drivers/vm/resolution.tsv's lines:
# per bench, metric and sweep point, the coefficient of variation of the
# iterations within one boot (both boots' samples, each about its own
# mean), the largest spread within a boot over its mean, and whether the
# two boots gave the same samples bit for bit.  A swept bench's point is
# written KEY=VALUE (STRESSOR=mremap), which matches every run whose config
# has that value, swept or not.
set -euo pipefail
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then echo "usage: $0 RUN_A RUN_B (two run directories)" >&2; exit 2; fi
a=$1 b=$2
kernel=$(sed -n 's/^kernel_release: //p' "$a/meta")
printf '# bench\tmetric\tparam\tcv\trange\tboots\tkernel\titerations\n'
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
		}' "$a/$bench/samples.tsv" "$b/$bench/samples.tsv" | sort -t$'\t' -k1,1 -k2,2 -k3,3
done
