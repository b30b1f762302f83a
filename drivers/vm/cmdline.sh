# The guest kernel's command line and the run's time limit, both derived
# from the configs to run.  Boot-time settings go on the command line
# because some only take effect there; the guest reads them back and meta
# records what the guest saw (cmdline, thp_enabled).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_CMDLINE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_CMDLINE=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_load

# "BENCH THP WORK" for config FILE: its bench, its THP setting and the
# number of bench processes it starts (warm-ups and iterations, times the
# sweep points).
vm_config_facts() (
	local points
	config_load "$1"
	read -r -a points <<<"${CFG[${SWEEP_KEY:-BENCH}]}"
	echo "${CFG[BENCH]} ${CFG[THP]} $(((CFG[ITERATIONS] + CFG[WARMUP]) * ${#points[@]}))"
)

# console=ttyS0: ttyS1 must stay free for the results.  panic=-1 reboots at
# once on a panic, which -no-reboot turns into qemu exiting.  Debian kernels
# boot with THP=always; a config's THP goes on the command line when every
# config agrees on it (run.sh in the guest still sets it per config).
vm_cmdline() {
	local c thp work thps=() line="console=ttyS0 panic=-1"
	for c in "${CONFIGS[@]}"; do
		read -r _ thp work < <(vm_config_facts "$c")
		[ "$thp" = default ] || thps+=("$thp")
	done
	if [ ${#thps[@]} -gt 0 ] && [ "$(printf '%s\n' "${thps[@]}" | sort -u | wc -l)" = 1 ]; then
		line+=" transparent_hugepage=${thps[0]}"
	fi
	echo "$line${VM_APPEND:+ $VM_APPEND}"
}

# Seconds to wait for the completion marker: a boot allowance plus, per
# bench process, a fixed part and a part for the memory it may touch (a
# bench touches at most the VM's memory).  Generous, because a slow CI host
# must not fail a healthy run; emulation is ~10x slower than KVM.
VM_BOOT_ALLOWANCE=120
vm_timeout() {
	local c work total=0 per
	[ -z "$VM_TIMEOUT" ] || { echo "$VM_TIMEOUT"; return; }
	for c in "${CONFIGS[@]}"; do
		read -r _ _ work < <(vm_config_facts "$c")
		total=$((total + work))
	done
	per=$((20 + 30 * ((VM_MEM_MB + 1023) / 1024)))
	[ "$VM_ACCEL" = tcg ] || per=$(((per + 9) / 10))
	echo $((VM_BOOT_ALLOWANCE + total * per))
}
