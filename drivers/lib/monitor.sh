# Monitors around the timed region.  With monitors on, the bench runs with
# --trigger fifo:DIR: after set-up it writes "ready PID" and waits, after the
# timed region "done PID" and waits again, so the monitors start on a bench
# that is about to measure and stop before it tears down.
#
# A monitor is one file, drivers/lib/monitors/NAME.sh, defining
#   NAME_available        true, or print why not and return 1
#   NAME_start RAW PID    start watching PID; return once it is watching
#   NAME_stop RAW PID     stop watching; its raw output is under RAW.*
#   NAME_parse RAW PID    print metric<TAB>value lines for the iteration
#   NAME_describe METRIC  print METRIC's metrics.tsv line
# and optionally NAME_finish DIR, run once after the bench's last iteration.
# RAW is BENCH/monitors/NAME.TAG, TAG naming the iteration.
# shellcheck shell=bash disable=SC2034  # globals shared across the sourced libs

for _mon in "$MMDELTA_ROOT"/drivers/lib/monitors/*.sh; do
	# shellcheck source=/dev/null
	source "$_mon"
done
unset _mon

# Start order; stops run in reverse.  vmstat is innermost so that starting
# and stopping perf is not counted in its deltas.
MONITOR_ORDER="profile mmaplock perfstat vmstat"
MONITORS_ACTIVE=()
MONITOR_DIR=""          # the bench's directory in the run
MONITOR_TAG=""          # the iteration, for raw file names (set by bench_iterate)
MONITOR_FIFO=""         # private directory for the trigger and perf fifos
MONITOR_BENCH_PID=""    # the bench process between "ready" and its exit
declare -A MONITOR_SKIPPED=()

monitor_names() {
	local f names=()
	for f in "$MMDELTA_ROOT"/drivers/lib/monitors/*.sh; do names+=("$(basename "$f" .sh)"); done
	echo "${names[*]}"
}

# MONITORS is a comma-separated list; "none" or empty turns them off.
monitor_list() {
	[ "$1" != none ] || return 0
	tr ',' '\n' <<<"$1" | awk 'NF'
}

monitor_check_list() {
	local file=$1 list=$2 m
	for m in $(monitor_list "$list"); do
		[[ " $(monitor_names) " == *" $m "* ]] ||
			die "${file##*/}: MONITORS=$list: unknown monitor '$m' (monitors: $(monitor_names))"
	done
}

# The requested monitors in start order.
monitor_ordered() {
	local list=$1 m
	local wanted
	wanted=" $(monitor_list "$list" | tr '\n' ' ') "
	for m in $(monitor_names); do
		[[ " $MONITOR_ORDER " == *" $m "* ]] || [[ $wanted != *" $m "* ]] || echo "$m"
	done
	for m in $MONITOR_ORDER; do [[ $wanted != *" $m "* ]] || echo "$m"; done
}

# Decide which requested monitors run for the bench in DIR.  One that cannot
# run here is said once per run, noted in DIR/monitors/skipped and left out.
monitors_setup() {
	local dir=$1 list=$2 m why tmp
	MONITORS_ACTIVE=() MONITOR_DIR=$dir
	[ -n "$(monitor_list "$list")" ] || return 0
	mkdir -p "$dir/monitors"
	tmp=$(mktemp "$dir/monitors/.why.XXXXXX")
	for m in $(monitor_ordered "$list"); do
		# Not in a subshell: a check may set what its start needs (PERF).
		if "${m}_available" >"$tmp" 2>&1; then
			MONITORS_ACTIVE+=("$m")
			continue
		fi
		why=$(tr '\n' ' ' <"$tmp")
		why=${why% }
		why=${why:-not available}
		[ -n "${MONITOR_SKIPPED[$m]:-}" ] || say "monitor $m skipped: $why"
		MONITOR_SKIPPED[$m]=$why
		printf '%s\t%s\n' "$m" "$why" >>"$dir/monitors/skipped"
	done
	rm -f "$tmp"
	[ ${#MONITORS_ACTIVE[@]} -eq 0 ] || MONITOR_FIFO=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-fifo.XXXXXX")
}

# After the last iteration: each monitor's finishing step, and the fifos go.
monitors_finish() {
	local dir=$1 m
	for m in "${MONITORS_ACTIVE[@]}"; do
		if declare -F "${m}_finish" >/dev/null; then "${m}_finish" "$dir"; fi
	done
	[ -z "$MONITOR_FIFO" ] || rm -rf "$MONITOR_FIFO"
	MONITORS_ACTIVE=() MONITOR_FIFO=""
}

# A monitor that fails mid-run is dropped for the rest of the bench, loudly.
monitor_drop() {
	local m=$1 why=$2 keep=() a
	say "monitor $m dropped: $why"
	printf '%s\t%s\n' "$m" "$why" >>"$MONITOR_DIR/monitors/skipped"
	for a in "${MONITORS_ACTIVE[@]}"; do [ "$a" = "$m" ] || keep+=("$a"); done
	MONITORS_ACTIVE=("${keep[@]}")
}

monitor_raw() { printf '%s/monitors/%s.%s\n' "$MONITOR_DIR" "$1" "$MONITOR_TAG"; }

# The tag of an iteration in raw file names: "3", "warmup1", "SIZE=1G.3".
monitor_tag() {
	local param=$1 i=$2 t
	if ((i <= 0)); then t=warmup$((1 - i)); else t=$i; fi
	if [ "$param" != - ]; then t="${SWEEP_KEY}=$param.$t"; fi
	printf '%s\n' "$t"
}
