# Configs: configs/NAME (or a path) of KEY=VALUE lines, read through
# mmconfig (mmconfig.c beside this file) so no line is ever evaluated by
# the shell.  The result is the CFG and CFG_ORIGIN arrays.  A bench's own keys are its options, as its
# --describe-options lists them (--heap-size is HEAP_SIZE), mapped back to
# options by bench_args: nothing about a bench is written here.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CONFIG_CONFIG:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CONFIG_CONFIG=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/build.sh"  # need_built
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/../core/nearest.sh"  # did_you_mean
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # monitor_list, monitor_names
source "${BASH_SOURCE[0]%/*}/../system/numa.sh"  # numa_problem
source "${BASH_SOURCE[0]%/*}/../system/thp.sh"  # thp_check
source "${BASH_SOURCE[0]%/*}/../vm/resolution.sh"  # vm_resolution_rule

# The bench's keys, in its option table's order, and per key its option
# and kind (size, number, choice, string, flag), from --describe-options.
BENCH_KEYS=""
declare -A KEY_OPTION=() KEY_KIND=()
# The line of the config being loaded (CONFIG_FILE) each key of CFG is on
# (0: not from the file).
declare -A CFG_LINE=()

COMMON_KEYS="BENCH DESCRIPTION ITERATIONS CI_TARGET MAX_ITERATIONS MAX_TIME WARMUP THP THP_DEFRAG NUMA CPU DROP_CACHES COMPACT MONITORS"

# The file a bench-or-config argument names; a mistyped name gets the
# nearest configs' names first.
config_path() {
	local arg=$1 near=""
	local -a names
	if [[ $arg != */* && -f $MMDELTA_ROOT/configs/$arg ]]; then
		printf '%s\n' "$MMDELTA_ROOT/configs/$arg"
	elif [[ $arg == */* && -f $arg ]]; then
		printf '%s\n' "$arg"
	else
		names=("$MMDELTA_ROOT"/configs/*)
		names=("${names[@]##*/}")
		[[ $arg == */* ]] || near=$(did_you_mean "$arg" "${names[@]}")
		die "unknown bench or config '$arg' (${near}configs: ${names[*]})"
	fi
}

# mmconfig's KEY<TAB>VALUE<TAB>ORIGIN lines for FILE, a config of BENCH,
# allowing KEYS (comma-separated, or *), with the --set values that apply
# to it; or die with mmconfig's reason.
config_lines() {
	local file=$1 keys=$2 bench=$3 s key out
	local -a sets=()
	for s in "${SETS[@]}"; do
		key=${s%%=*}
		if [[ $key == *.* ]]; then
			[ "${key%%.*}" = "$bench" ] || continue
			s=${s#*.} key=${key#*.}
		fi
		[[ ",$keys," != *",$key,"* ]] || sets+=(--set "$s")
	done
	if ! out=$("$MMDELTA_BUILD/bin/mmconfig" --keys "$keys" "${sets[@]}" "$file" 2>&1); then
		[[ $out != --set* ]] || out="$file: $out"
		die "$out"
	fi
	printf '%s\n' "$out"
}

# --set KEY=VALUE applies to every config that has KEY, --set
# BENCH.KEY=VALUE to BENCH's config only.  Refused as typed when malformed.
set_check() {
	local s=$1 key
	[[ $s == *=* ]] || die "--set $s: expected KEY=VALUE or BENCH.KEY=VALUE"
	key=${s%%=*}
	[[ $key =~ ^([a-z0-9]+\.)?[A-Z][A-Z0-9_]*$ ]] ||
		die "--set $s: a key is upper-case letters, digits and _, or BENCH.KEY for one bench"
	[ "${key#*.}" != BENCH ] || die "--set $s: name the bench or config to run instead"
	[ -n "${s#*=}" ] || die "--set $s: ${key#*.} has no value (leave the key out for the default)"
}

# Refuse a --set that no config of the run can take, naming what they have.
sets_check() {
	local c s key bench
	local -A keys=()
	for c in "${CONFIGS[@]}"; do
		bench=$(config_bench "$c") || exit 2
		bench_keys_load "$bench"
		keys[$bench]=" $BENCH_KEYS "
	done
	for s in "${SETS[@]}"; do
		key=${s%%=*}
		if [[ $key == *.* ]]; then
			bench=${key%%.*} key=${key#*.}
			[ -n "${keys[$bench]:-}" ] ||
				die "--set $s: no config of this run is for $bench (benches: ${!keys[*]})"
			[[ " $COMMON_KEYS ${keys[$bench]} " == *" $key "* ]] ||
				die "--set $s: $bench has no key $key (its keys:${keys[$bench]% }; and the common keys)"
			continue
		fi
		[[ " $COMMON_KEYS ${keys[*]} " == *" $key "* ]] && continue
		die "--set $s: no config of this run has $key ($(for bench in "${!keys[@]}"; do printf '%s:%s; ' "$bench" "${keys[$bench]% }"; done)and the common keys, docs/configs.md)"
	done
}

# The bench FILE names (BENCH=), checked; exits with the reason otherwise.
config_bench() {
	local file=$1 lines bench
	lines=$(config_lines "$file" '*' "") || exit 2
	bench=$(awk -F'\t' '$1 == "BENCH" { print $2 }' <<<"$lines")
	[ -n "$bench" ] || die "$file: no BENCH= line"
	[[ $bench =~ ^[a-z0-9]+$ ]] || die "$file: unknown bench '$bench' (benches: $(bench_list))"
	if [[ " $(bench_list) " != *" $bench "* ]]; then
		# An installed tree ships configs/NAME with every bench NAME: its
		# binary is missing, and need_built says so.
		[ -f "$MMDELTA_ROOT/Makefile" ] || [ ! -f "$MMDELTA_ROOT/configs/$bench" ] || need_built "bin/$bench"
		die "$file: unknown bench '$bench' (benches: $(bench_list))"
	fi
	printf '%s\n' "$bench"
}

# Learn BENCH's keys from its option table: --heap-size is HEAP_SIZE.
bench_keys_load() {
	local bench=$1 name kind key
	BENCH_KEYS="" KEY_OPTION=() KEY_KIND=()
	while IFS=$'\t' read -r name kind _; do
		key=${name^^} key=${key//-/_}	# no fork: every config load reads every option
		BENCH_KEYS+="${BENCH_KEYS:+ }$key"
		KEY_OPTION[$key]=--$name KEY_KIND[$key]=$kind
	done < <("$MMDELTA_BUILD/bin/$bench" --describe-options) ||
		die "$bench: --describe-options failed"
}

# Load FILE into CFG: find BENCH, learn its keys, then parse again allowing
# exactly the common keys and the bench's.  bench/BENCH.sh, for a bench
# that needs orchestration of its own, is sourced when it exists.
config_load() {
	local file=$1 lines key value origin line bench why
	CONFIG_FILE=$file
	bench=$(config_bench "$file") || exit 2
	bench_keys_load "$bench"
	unset -f driver_args driver_meta guest_programs
	if [ -f "$MMDELTA_ROOT/bench/$bench.sh" ]; then
		# shellcheck source=/dev/null  # one per bench that has one, named by the config
		source "$MMDELTA_ROOT/bench/$bench.sh"
	fi
	lines=$(config_lines "$file" "$(tr ' ' ',' <<<"$COMMON_KEYS $BENCH_KEYS")" "$bench") || exit 2
	CFG=([ITERATIONS]=10 [CI_TARGET]=1% [MAX_ITERATIONS]=30 [MAX_TIME]=600 [WARMUP]=1 [THP]=default [THP_DEFRAG]=default [NUMA]=none [CPU]=none [DROP_CACHES]=no [COMPACT]=no)
	# The bench names the monitors its scenario is about, once, for every
	# config of it that names none.
	CFG[MONITORS]=$("$MMDELTA_BUILD/bin/$bench" --default-monitors) || die "$bench: --default-monitors failed"
	CFG_ORIGIN=() CFG_LINE=()
	while IFS=$'\t' read -r key value origin line; do
		CFG[$key]=$value CFG_ORIGIN[$key]=$origin CFG_LINE[$key]=$line
	done <<<"$lines"
	[ -z "${ITERATIONS_OVERRIDE:-}" ] || CFG[ITERATIONS]=$ITERATIONS_OVERRIDE
	config_check
	# under --kernel with the icount clock, the count the bench's spread needs
	vm_resolution_rule
	why=$(numa_problem "${CFG[NUMA]}" "${CFG[CPU]}")
	[ -z "$why" ] || config_key_die "${why%% *}" "${why#* }"
	for key in DROP_CACHES COMPACT $BENCH_KEYS; do
		[[ $key == DROP_CACHES || $key == COMPACT || ${KEY_KIND[$key]} == flag ]] || continue
		[[ ${CFG[$key]:-no} =~ ^(yes|no)$ ]] || config_key_die "$key" "must be yes or no"
	done
	for key in THP THP_DEFRAG; do
		why=$(thp_check "$key" "${CFG[$key]}") || config_key_die "$key" "$why"
	done
	for key in $(monitor_list "${CFG[MONITORS]}"); do
		[[ " $(monitor_names) " == *" $key "* ]] ||
			config_key_die MONITORS "unknown monitor '$key' (monitors: $(monitor_names))"
	done
}

config_check() {
	local key dup
	[[ ${CFG[ITERATIONS]} =~ ^([1-9][0-9]*|auto)$ ]] || config_key_die ITERATIONS "must be a whole number > 0 or auto"
	[[ ${CFG[CI_TARGET]} =~ ^(0?\.[0-9]*[1-9][0-9]*|[1-9][0-9]*(\.[0-9]+)?)%$ ]] || config_key_die CI_TARGET "must be a percentage > 0, like 1% or 0.5%"
	[[ ${CFG[MAX_ITERATIONS]} =~ ^([3-9]|[1-9][0-9]+)$ ]] || config_key_die MAX_ITERATIONS "must be a whole number >= 3"
	[[ ${CFG[MAX_TIME]} =~ ^[1-9][0-9]*$ ]] || config_key_die MAX_TIME "must be a whole number of seconds > 0"
	[[ ${CFG[WARMUP]} =~ ^[0-9]+$ ]] || config_key_die WARMUP "must be a whole number"
	SWEEP_KEY=""
	for key in "${!CFG[@]}"; do
		[[ ${CFG[$key]} == *" "* && $key != DESCRIPTION ]] || continue
		[[ " $BENCH_KEYS " == *" $key "* ]] || config_key_die "$key" "cannot be swept (only $BENCH_KEYS)"
		[ -z "$SWEEP_KEY" ] || config_die "both $SWEEP_KEY and $key are lists; one sweep per config"
		SWEEP_KEY=$key
		# Two equal points would be one sample set with each iteration twice.
		dup=$(tr ' ' '\n' <<<"${CFG[$key]}" | awk 'NF && seen[$0]++ { print; exit }')
		[ -z "$dup" ] || config_key_die "$key" "lists $dup twice; each swept value is run once"
	done
}

# The config's name in messages: configs/NAME for the tree's own, else the
# path as given.
config_name() { printf '%s\n' "${CONFIG_FILE#"$MMDELTA_ROOT"/}"; }

# Where KEY's value is written: "FILE:LINE", or the config's name when it
# came from --set or is a default.
config_where() {
	if [ "${CFG_ORIGIN[$1]:-}" = file ]; then
		printf '%s:%s\n' "$(config_name)" "${CFG_LINE[$1]}"
	else
		config_name
	fi
}

# die with the bench's own refusal of an option ("--lock x: must be ..."),
# at the line of the key it came from.
config_option_die() {
	local msg=$1 key
	if [[ $msg =~ ^--([a-z0-9-]+) ]]; then
		key=${BASH_REMATCH[1]^^} key=${key//-/_}
		die "$(config_where "$key"): $msg"
	fi
	config_die "$msg"
}

# die, naming the config being loaded.
config_die() { die "$(config_name): $*"; }

# die for KEY's value, saying where it was written: "FILE:LINE: KEY=V: WHY",
# "FILE: --set KEY=V: WHY".
config_key_die() {
	local key=$1 why=$2 set=""
	[ "${CFG_ORIGIN[$key]:-}" != set ] || set="--set "
	die "$(config_where "$key"): $set$key=${CFG[$key]}: $why"
}

# The benches: bench/NAME.c in a source tree; in an installed tree or a
# guest's, which have no sources, each binary bin/NAME that has its config
# configs/NAME (bin/ also holds the tools).  bench/NAME-PART.c is a bench's
# helper.
bench_list() {
	local f n
	for f in "$MMDELTA_ROOT"/bench/*.c "$MMDELTA_BUILD"/bin/*; do
		[ -e "$f" ] || continue
		n=${f##*/} n=${n%.c}	# no basename: run.sh starts often
		[[ $n != *-* ]] || continue
		[[ $f == *.c ]] || [ -f "$MMDELTA_ROOT/configs/$n" ] || continue
		printf '%s\n' "$n"
	done | sort -u | paste -sd ' '
}

# The resolved config, KEY=VALUE sorted: BENCH/config and --dry-run.
cfg_dump() {
	local key
	for key in $(printf '%s\n' "${!CFG[@]}" | sort); do printf '%s=%s\n' "$key" "${CFG[$key]}"; done
}

# The bench's arguments for the current sweep point, one word per line:
# bench/BENCH.sh's driver_args where it has one, else bench_args_generic.
bench_args() {
	if declare -F driver_args >/dev/null; then driver_args; else bench_args_generic; fi
}

# Each key the config sets as its option: KEY=V is --key V, a flag KEY=yes
# is --key.  A bench with a size option also gets --cap-size unless a size
# was typed with --set: a config's size is the thread's figure and is scaled
# to the machine, a size typed on the command line is taken literally and
# refused when it does not fit.
bench_args_generic() {
	local key cap=""
	for key in $BENCH_KEYS; do
		if [ "${KEY_KIND[$key]}" = size ]; then cap=${cap:-yes}; fi
		if [ "${KEY_KIND[$key]}" = size ] && [ "${CFG_ORIGIN[$key]:-}" = set ]; then cap=no; fi
		[ -n "${CFG[$key]:-}" ] || continue
		if [ "${KEY_KIND[$key]}" = flag ]; then
			[ "${CFG[$key]}" = no ] || printf '%s\n' "${KEY_OPTION[$key]}"
		else
			printf '%s\n' "${KEY_OPTION[$key]}" "${CFG[$key]}"
		fi
	done
	if [ "$cap" = yes ]; then printf '%s\n' --cap-size; fi
}
