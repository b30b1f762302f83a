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

# The table; the tests give their own.
VM_RESOLUTION_FILE=${MMDELTA_RESOLUTION:-${BASH_SOURCE[0]%/*}/resolution.tsv}
# A coefficient of variation up to this is exact enough for two iterations
# and the midpoint rule: a 95% interval of two values is about 9 standard
# deviations wide each side, so a step of 2% is still decided at 1e-3.
VM_EXACT_CV=0.001

# vm_resolution_cv BENCH METRIC: the spread recorded (coefficient of
# variation of the iterations within one boot, the largest over the
# parameters measured), or nothing when the table has no such line.
vm_resolution_cv() {
	[ -r "$VM_RESOLUTION_FILE" ] || return 0
	awk -F'\t' -v b="$1" -v m="$2" '$1 == b && $2 == m && $4 > cv { cv = $4 } END { if (cv != "") print cv }' "$VM_RESOLUTION_FILE"
}

# vm_resolution_exact CV: whether a spread is within what two iterations decide.
vm_resolution_exact() {
	awk -v c="$1" -v e="$VM_EXACT_CV" 'BEGIN { exit !(c == "" || c + 0 <= e + 0) }'
}
