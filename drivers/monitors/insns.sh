# insns: exact instruction counts of the timed region per kernel function,
# for run.sh --kernel under TCG (docs/monitors.md).  The counting is the
# host's: a QEMU plugin (drivers/vm/insns-plugin.c) counts every guest
# instruction between the markers the harness executes around each timed
# region (bench/lib/harness.h), and drivers/vm/insns.sh turns its counts
# into BENCH/monitors/insns.TAG.tsv and the insns_* metrics after the boot.
# The guest's side is always on, whether the host counts or not, so that a
# figure with the monitor is the figure without it: the host never passes
# the monitor into the guest, and every bench process of a guest gets a
# line in RUN_DIR/insns.processes, which the plugin's K-th process is.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_INSNS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_INSNS=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"

# Only a host run sees the monitor: the guest's configs never name it.
insns_available() {
	echo "counts instructions only in run.sh --kernel runs under TCG (a QEMU plugin on the host counts them)"
	return 1
}

# The metrics the host adds to samples.tsv; a host run records none.
insns_metrics() { printf '%s\n' insns_kernel insns_user insns_total; }
insns_describe() {
	case $1 in
	insns_kernel) printf 'insns_kernel\tInsns kernel\tcount\tlower\n' ;;
	insns_user) printf 'insns_user\tInsns user\tcount\tlower\n' ;;
	insns_total) printf 'insns_total\tInsns total\tcount\tlower\n' ;;
	esac
}
insns_start() { :; }
insns_stop() { :; }
insns_parse() { :; }

# insns_process_tag BENCH PARAM ITERATION: in a guest, the next bench
# process is this iteration (its tag is MONITOR_TAG).
insns_process_tag() {
	[ "${MMDELTA_GUEST:-0}" = 1 ] || return 0
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$MONITOR_TAG" >>"$RUN_DIR/insns.processes"
}

# A MONITORS list without insns, for the guest ("none" when nothing is left).
insns_strip() {
	local out
	out=$(tr ',' '\n' <<<"$1" | awk 'NF && $0 != "insns"' | paste -sd ,)
	echo "${out:-none}"
}
