# Configs: configs/NAME (or a path) of KEY=VALUE lines, read through
# tools/mmconfig so no line is ever evaluated by the shell.  The result is the
# CFG and CFG_ORIGIN arrays; a driver reads them with cfg and cfg_size_arg.
# shellcheck shell=bash

# shellcheck source=drivers/lib/state.sh
source "${BASH_SOURCE[0]%/*}/state.sh"

COMMON_KEYS="BENCH DESCRIPTION ITERATIONS CI_TARGET MAX_ITERATIONS MAX_TIME WARMUP THP THP_DEFRAG NUMA CPU DROP_CACHES COMPACT MONITORS"

# The file a bench-or-config argument names.
config_path() {
	local arg=$1
	if [[ $arg != */* && -f $MMDELTA_ROOT/configs/$arg ]]; then
		printf '%s\n' "$MMDELTA_ROOT/configs/$arg"
	elif [[ $arg == */* && -f $arg ]]; then
		printf '%s\n' "$arg"
	else
		die "unknown bench or config '$arg' (configs: $(cd "$MMDELTA_ROOT/configs" && echo *))"
	fi
}

# mmconfig's KEY<TAB>VALUE<TAB>ORIGIN lines for FILE, allowing KEYS.
config_lines() {
	local file=$1 keys=$2 s
	local -a sets=()
	for s in "${SETS[@]}"; do sets+=(--set "$s"); done
	"$MMDELTA_ROOT/tools/mmconfig" --keys "$keys" "${sets[@]}" "$file"
}

# Load FILE into CFG: find BENCH, source its driver for its keys, then
# parse again allowing exactly the common and the driver's keys.
config_load() {
	local file=$1 lines key value origin bench
	CONFIG_FILE=$file
	lines=$(config_lines "$file" '*') || exit 1
	bench=$(awk -F'\t' '$1 == "BENCH" { print $2 }' <<<"$lines")
	[ -n "$bench" ] || config_die "no BENCH= line"
	[[ $bench =~ ^[a-z0-9]+$ && -f $MMDELTA_ROOT/drivers/$bench.sh ]] ||
		config_die "unknown bench '$bench' (benches: $(bench_list))"
	DRIVER_KEYS="" DRIVER_FLAGS=""
	# shellcheck source=/dev/null
	source "$MMDELTA_ROOT/drivers/$bench.sh"
	lines=$(config_lines "$file" "$(tr ' ' ',' <<<"$COMMON_KEYS $DRIVER_KEYS")") || exit 1
	CFG=([ITERATIONS]=10 [CI_TARGET]=1% [MAX_ITERATIONS]=30 [MAX_TIME]=600 [WARMUP]=1 [THP]=default [THP_DEFRAG]=default [NUMA]=none [CPU]=none [DROP_CACHES]=no [COMPACT]=no [MONITORS]="")
	CFG_ORIGIN=()
	while IFS=$'\t' read -r key value origin; do
		CFG[$key]=$value
		CFG_ORIGIN[$key]=$origin
	done <<<"$lines"
	[ -z "${ITERATIONS_OVERRIDE:-}" ] || CFG[ITERATIONS]=$ITERATIONS_OVERRIDE
	config_check
	numa_prefix "${CFG[NUMA]}" "${CFG[CPU]}" >/dev/null
	for key in DROP_CACHES COMPACT $DRIVER_FLAGS; do
		[[ ${CFG[$key]:-no} =~ ^(yes|no)$ ]] || config_die "$key=${CFG[$key]}: must be yes or no"
	done
	thp_check THP "${CFG[THP]}" "never always madvise"
	thp_check THP_DEFRAG "${CFG[THP_DEFRAG]}" "always defer defer+madvise madvise never"
	monitor_check_list "$file" "${CFG[MONITORS]}"
}

config_check() {
	local key
	[[ ${CFG[ITERATIONS]} =~ ^([1-9][0-9]*|auto)$ ]] || config_die "ITERATIONS=${CFG[ITERATIONS]}: must be a whole number > 0 or auto"
	[[ ${CFG[CI_TARGET]} =~ ^(0?\.[0-9]*[1-9][0-9]*|[1-9][0-9]*(\.[0-9]+)?)%$ ]] || config_die "CI_TARGET=${CFG[CI_TARGET]}: must be a percentage > 0, like 1% or 0.5%"
	[[ ${CFG[MAX_ITERATIONS]} =~ ^([3-9]|[1-9][0-9]+)$ ]] || config_die "MAX_ITERATIONS=${CFG[MAX_ITERATIONS]}: must be a whole number >= 3"
	[[ ${CFG[MAX_TIME]} =~ ^[1-9][0-9]*$ ]] || config_die "MAX_TIME=${CFG[MAX_TIME]}: must be a whole number of seconds > 0"
	[[ ${CFG[WARMUP]} =~ ^[0-9]+$ ]] || config_die "WARMUP=${CFG[WARMUP]}: must be a whole number"
	SWEEP_KEY=""
	for key in "${!CFG[@]}"; do
		[[ ${CFG[$key]} == *" "* && $key != DESCRIPTION ]] || continue
		[[ " $DRIVER_KEYS " == *" $key "* ]] || config_die "$key cannot be swept (only $DRIVER_KEYS)"
		[ -z "$SWEEP_KEY" ] || config_die "both $SWEEP_KEY and $key are lists; one sweep per config"
		SWEEP_KEY=$key
	done
}

# die, naming the config being loaded.
config_die() { die "$CONFIG_FILE: $*"; }

bench_list() {
	local f names=()
	for f in "$MMDELTA_ROOT"/drivers/*.sh; do names+=("$(basename "$f" .sh)"); done
	echo "${names[*]}"
}

# The resolved config, KEY=VALUE sorted: BENCH/config and --dry-run.
cfg_dump() {
	local key
	for key in $(printf '%s\n' "${!CFG[@]}" | sort); do printf '%s=%s\n' "$key" "${CFG[$key]}"; done
}

# For drivers: the value of KEY at the current sweep point.
cfg() { printf '%s\n' "${CFG[$1]:-}"; }

# For drivers: "--option VALUE" for each KEY:--option pair whose key is set.
cfg_args() {
	local pair key
	for pair in "$@"; do
		key=${pair%%:*}
		if [ -n "${CFG[$key]:-}" ]; then printf '%s\n' "${pair#*:}" "${CFG[$key]}"; fi
	done
}

# For drivers: a yes|no key (listed in DRIVER_FLAGS, so config_check has
# refused any other value) as a flag.
cfg_flag() {
	if [ "${CFG[$1]:-}" = yes ]; then printf '%s\n' "$2"; fi
}

# For drivers: "--option VALUE" for a size, plus --cap-size unless the user
# typed the value with --set.  A config's size is the thread's figure and is
# scaled to the machine; a size typed on the command line is taken literally
# and refused when it does not fit.
cfg_size_arg() {
	local key=$1 opt=$2
	if [ -n "${CFG[$key]:-}" ]; then printf '%s\n' "$opt" "${CFG[$key]}"; fi
	if [ "${CFG_ORIGIN[$key]:-}" != set ]; then printf '%s\n' --cap-size; fi
}
