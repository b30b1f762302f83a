# Acceleration and clock of a --kernel run.  KVM when it really works, else
# TCG; under TCG the default clock is icount, because wall-clock timings of
# an emulated guest vary by about 35% from boot to boot and cannot tell two
# kernels apart, while instruction counting repeats bit for bit.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_ACCEL:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_ACCEL=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say

# Opening /dev/kvm is not enough: in some sandboxes it opens, but without
# vmx/svm the guest never gets past the BIOS.
vm_kvm_usable() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo
}

# Set VM_ACCEL, VM_CPU_MODEL and VM_CLOCK from VM_CLOCK (auto|icount|realtime)
# and the host.  The CPU model is named on qemu's command line, not left to
# its default, because an icount figure depends on it: the kernel picks its
# code paths (alternatives, string ops, page clearing) by CPU features.
# qemu64 with RDRAND, which TCG emulates from qemu's generator (seeded under
# icount): the kernel seeds its CRNG from it at boot, as on any x86 of the
# last decade.  Without it the CRNG stayed unseeded for the first 30 s of a
# boot, every random draw (a new slab's shuffled freelist, among others)
# hashed the whole input pool, and heaprelease's mprotect pattern spent 4%
# of its region there, a share that varied with its slab churn
# (docs/measurement.md).
vm_choose_accel() {
	VM_ACCEL=tcg VM_CPU_MODEL=qemu64,+rdrand
	# shellcheck disable=SC2034  # VM_CPU_MODEL: read by qemu.sh and meta.sh
	if [ "$VM_CLOCK" != icount ] && vm_kvm_usable; then VM_ACCEL=kvm VM_CPU_MODEL=host; fi
	if [ "$VM_CLOCK" = auto ]; then
		VM_CLOCK=realtime
		[ "$VM_ACCEL" = kvm ] || VM_CLOCK=icount
	fi
	# icount with more than one vCPU hangs the guest on qemu 7.2 (seen on
	# Debian bookworm's qemu): refuse rather than wait for the timeout.
	if [ "$VM_CLOCK" = icount ] && [ "$VM_CPUS" -gt 1 ]; then
		die "--vm-cpus $VM_CPUS: icount needs exactly one vCPU (qemu hangs with more); use --vm-clock realtime for SMP guests"
	fi
}

# Said when the run starts, not while options are checked, so that a refused
# option is answered in one line.
vm_accel_note() {
	if [ "$VM_ACCEL" = tcg ]; then
		say "no usable KVM: the guest is emulated (TCG, $VM_CLOCK clock); its timings compare kernels only against each other under the same emulation, never against the host"
	fi
}

# The meta note that says what the guest's clock measures.
vm_clock_note() {
	if [ "$VM_CLOCK" = icount ]; then
		echo "guest time counts executed instructions (-icount shift=0: 1 ns each); repeatable across boots; measures the work the kernel does, not cache, TLB or lock-contention effects"
	elif [ "$VM_ACCEL" = tcg ]; then
		echo "host wall clock of an emulated guest; varies by tens of percent from boot to boot"
	else
		echo "host wall clock under KVM"
	fi
}
