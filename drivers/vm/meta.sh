# meta of a --kernel run.  The guest's run.sh writes its own meta (kernel,
# cmdline, THP, memory, CPUs as the guest sees them); the host adds what only
# it knows (the qemu, the image, real start and end times: the guest's RTC
# is pinned for repeatability) and merges the two, host lines first.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_META:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_META=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_get, meta_set, meta_tmpfile
source "${BASH_SOURCE[0]%/*}/../system/facts.sh"  # meta_line, suite_version
source "${BASH_SOURCE[0]%/*}/accel.sh"  # vm_clock_note
source "${BASH_SOURCE[0]%/*}/cmdline.sh"  # vm_timeout
source "${BASH_SOURCE[0]%/*}/qemu.sh"  # vm_qemu_version

# Host-side lines written before the boot.
vm_meta_host() {
	meta_line vm qemu
	meta_line vm_image "$(realpath "$VM_KERNEL")"
	meta_line vm_qemu_version "$(vm_qemu_version)"
	meta_line vm_accel "$VM_ACCEL"
	meta_line vm_cpu_model "$VM_CPU_MODEL"
	meta_line vm_clock "$VM_CLOCK"
	meta_line clock "$VM_CLOCK"	# what compare.sh reads; the guest's "realtime" loses the merge
	meta_line vm_clock_note "$(vm_clock_note)"
	if [ "$VM_ACCEL" = tcg ]; then
		meta_line vm_timing_note "emulated (TCG): compare kernels only against each other under the same emulation, never against the host"
	fi
	meta_line vm_memory $((VM_MEM_MB * 1024 * 1024))
	meta_line vm_cpus "$VM_CPUS"
	meta_line vm_numa "$VM_NUMA"
	meta_line vm_append "$VM_APPEND_LINE"
	meta_line vm_timeout "$VM_TIMEOUT_S"
	meta_line vm_kernel_caps "$VM_CAPS_FROM"
	meta_line load_at_start "$LOAD_AT_START"
	meta_line vm_host "$(uname -n)"
	meta_line vm_host_kernel_release "$(uname -r)"
	meta_line vm_host_cpu_model "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	meta_line suite_version "$(suite_version)"
}

# vm_meta_merge DIR FILE...: DIR/meta, then each FILE's keys that are not
# there yet, in order.  Keys the guest cannot know right (times, command,
# version) are in DIR/meta first and so win.
vm_meta_merge() {
	local dir=$1 tmp; shift
	tmp=$(meta_tmpfile "$dir")
	awk '{ k = substr($0, 1, index($0, ": ") - 1) } k == "" || !(k in seen) { seen[k] = 1; print }' \
		"$dir/meta" "$@" >"$tmp"
	mv "$tmp" "$dir/meta"
}

# The guest has no /boot: take the config Debian's layout (and `make
# install`) keeps beside the image, config-RELEASE, where there is one.
vm_kernel_config() {
	local release config
	release=$(meta_get "$RUN_DIR" kernel_release)
	config=$(dirname "$VM_KERNEL")/config-$release
	[ -n "$release" ] && [ -r "$config" ] || return 0
	cp "$config" "$RUN_DIR/kernel-config"
	meta_set "$RUN_DIR" kernel_config "$(realpath "$config")"
}
