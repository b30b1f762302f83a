# What an icount figure resolves, bench by bench (drivers/vm/resolution.tsv,
# measured: docs/vm.md has the table and how).  Two boots of one kernel
# repeat every figure of every bench bit for bit, threads included; the
# iterations within a boot do not, since each starts from the state the
# one before left (the timer tick's phase, the allocator, the address-space
# layout), and with two threads on one vCPU the tick decides where the
# scheduler switches them.  That spread is the resolution: a change
# between two kernels smaller than it cannot be told from where the
# iterations happened to fall.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_RESOLUTION:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_RESOLUTION=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die

# The table; the tests give their own.
VM_RESOLUTION_FILE=${MMDELTA_RESOLUTION:-${BASH_SOURCE[0]%/*}/resolution.tsv}
# A coefficient of variation up to this is exact enough for two iterations
# and the midpoint rule: a 95% interval of two values is about 9 standard
# deviations wide each side, so a step of 2% is still decided at 1e-3.
VM_EXACT_CV=0.001

# vm_resolution_cv BENCH METRIC [KEY=VALUE...]: the spread recorded
# (coefficient of variation of the iterations within one boot), the largest
# over the lines whose param is one of the KEY=VALUE given (the config's
# values: STRESSOR=mremap), else over every param measured; nothing when the
# table has no such line.
vm_resolution_cv() {
	[ -r "$VM_RESOLUTION_FILE" ] || return 0
	local bench=$1 metric=$2
	shift 2
	awk -F'\t' -v b="$bench" -v m="$metric" -v pairs="$*" '
		BEGIN { n = split(pairs, p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1 }
		$1 != b || $2 != m { next }
		$4 > cv { cv = $4 }
		($3 in want) && $4 > own { own = $4; mine = 1 }
		END { if (mine) print own; else if (cv != "") print cv }' "$VM_RESOLUTION_FILE"
}

# A config file's keys (KEY=VALUE lines, a run's BENCH/config too) as
# vm_resolution_cv takes them, each value of a swept key on its own.
vm_resolution_file_pairs() {
	[ -r "$1" ] || return 0
	awk '/^[A-Z_][A-Z0-9_]*=/ { k = substr($0, 1, index($0, "=") - 1); n = split(substr($0, index($0, "=") + 1), v, " ")
		for (i = 1; i <= n; i++) print k "=" v[i] }' "$1"
}

# The loaded config's keys so.
vm_resolution_pairs() {
	local k v
	for k in "${!CFG[@]}"; do
		for v in ${CFG[$k]}; do printf '%s=%s\n' "$k" "$v"; done
	done
}

# vm_resolution_exact CV: whether a spread is within what two iterations decide.
vm_resolution_exact() {
	awk -v c="$1" -v e="$VM_EXACT_CV" 'BEGIN { exit !(c == "" || c + 0 <= e + 0) }'
}

# The rule that chose the loaded config's ITERATIONS (CFG), a sentence for
# the run's log, --dry-run and meta; empty but under --kernel with the
# icount clock.  There a figure repeats from boot to boot, so a kernel A/B
# needs the iterations its spread within a boot needs, not those a noisy
# host needs: with no count asked for (-i, --set ITERATIONS=, ITERATIONS=auto
# or a user's own config), the count that sees VM_SEE_PCT in the bench's
# primary metric (the first its --describe lists), at most the config's.
# The change to see, in percent: the smallest a changelog's table reports.
# (run.sh's --gate, whose percentage it would be, is refused with --kernel:
# an icount A/B is gated with compare.sh --gate.)
VM_SEE_PCT=1

# vm_resolution_rule: set VM_ITERATIONS_RULE, and CFG[ITERATIONS] when the
# table chooses it.
vm_resolution_rule() {
	local n=${CFG[ITERATIONS]} origin=${CFG_ORIGIN[ITERATIONS]:-} metric cv shown pct count seen need
	VM_ITERATIONS_RULE=""
	[ -n "$VM_KERNEL" ] && [ "$VM_CLOCK" = icount ] || return 0
	if [ -n "${ITERATIONS_OVERRIDE:-}" ]; then
		VM_ITERATIONS_RULE="ITERATIONS=$n: given with -i"
	elif [ "$origin" = set ]; then
		VM_ITERATIONS_RULE="ITERATIONS=$n: given with --set"
	elif [ "$n" = auto ]; then
		VM_ITERATIONS_RULE="ITERATIONS=auto: the config's, until the mean's 95% CI is within CI_TARGET"
	elif [ "$origin" = file ] && [[ $(realpath "$CONFIG_FILE") != "$(realpath "$MMDELTA_ROOT/configs")/"* ]]; then
		VM_ITERATIONS_RULE="ITERATIONS=$n: set in $CONFIG_FILE"
	fi
	[ -z "$VM_ITERATIONS_RULE" ] || return 0
	metric=$("$MMDELTA_BUILD/bin/${CFG[BENCH]}" --describe | awk -F'\t' 'NR == 1 { print $1 }')
	# shellcheck disable=SC2046  # one word a pair
	cv=$(vm_resolution_cv "${CFG[BENCH]}" "$metric" $(vm_resolution_pairs))
	if [ -z "$cv" ]; then
		VM_ITERATIONS_RULE="ITERATIONS=$n: the config's; resolution.tsv has no icount spread of ${CFG[BENCH]} $metric"
		return 0
	fi
	pct=$VM_SEE_PCT
	read -r count seen < <("$MMDELTA_BUILD/bin/mmci" --iterations "$cv" "$pct" "$n") ||
		die "mmci --iterations $cv $pct $n failed"
	CFG[ITERATIONS]=$count
	read -r need _ < <("$MMDELTA_BUILD/bin/mmci" --iterations "$cv" "$pct" 100000)
	shown=$(printf '%.1e' "$cv")
	if vm_resolution_exact "$cv"; then
		VM_ITERATIONS_RULE="ITERATIONS=$count: exact under icount (spread $shown), the count resolution.tsv needs to see $pct%"
	elif [ "$need" -le "$count" ]; then
		VM_ITERATIONS_RULE="ITERATIONS=$count: spread under icount ($shown of $metric), the count resolution.tsv needs to see $pct% ($count see $seen%)"
	else
		VM_ITERATIONS_RULE="ITERATIONS=$count: the config's; $metric spreads under icount ($shown), so $count see $seen%, not $pct% ($need would)"
	fi
}
