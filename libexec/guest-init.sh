#!/bin/bash
# /init of a --kernel guest (runs as PID 1 under bash-static): mount what the
# drivers read, run the same run.sh as on a host with the arguments the
# host wrote into /mmdelta/vm-args, send the results out on ttyS1 and power
# off.  Whatever happens, it ends in poweroff: if PID 1 exited instead, the
# kernel would panic and the host could not tell a failed run from a crash.
set -euo pipefail
export PATH=/usr/bin:/usr/sbin:/bin:/sbin HOME=/root MMDELTA_GUEST=1
# Under icount every bench settles before its timed region (bench --settle):
# the host writes 1 here for an icount guest.
MMDELTA_SETTLE=$(cat /mmdelta/settle 2>/dev/null || echo 0)
export MMDELTA_SETTLE
trap 'poweroff -f' EXIT
# The suite's tree in the initramfs (drivers/vm/initramfs.sh).
MMDELTA_ROOT=/mmdelta
source "$MMDELTA_ROOT/drivers/vm/frame.sh"  # frame_send

OUT=/tmp/out
RESULTS=/results

# The kernel may leave devtmpfs unmounted (DEVTMPFS_MOUNT is off in Debian's
# config and does not apply to an initramfs anyway).  /dev/fd is what bash's
# process substitution opens; udev would make it on a real system.  tracefs
# only exists where the kernel has tracing; monitors that need it say so.
mount_all() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	ln -sf /proc/self/fd /dev/fd
	mkdir -p /dev/shm && { mount -t tmpfs tmpfs /dev/shm 2>/dev/null || true; }
	if [ -d /sys/kernel/tracing ]; then mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || true; fi
}

# What the guest booted with, read inside it, for the host's meta even when
# run.sh fails before writing its own.
guest_facts() {
	local thp=/sys/kernel/mm/transparent_hugepage
	echo "kernel_release: $(uname -r)"
	echo "kernel_version: $(uname -v)"
	echo "cmdline: $(tr -d '\n' </proc/cmdline)"
	if [ -d "$thp" ]; then
		echo "thp_enabled: $(sed 's/.*\[\(.*\)\].*/\1/' "$thp/enabled")"
		echo "thp_defrag: $(sed 's/.*\[\(.*\)\].*/\1/' "$thp/defrag")"
	else
		# a kernel built without THP (CONFIG_TRANSPARENT_HUGEPAGE)
		echo "thp_enabled: not built"
		echo "thp_defrag: not built"
	fi
	echo "vm_boot_seconds: $(cut -d' ' -f1 /proc/uptime)"
}

# For the insns monitor: the kernel's symbols at this boot's addresses
# (KASLR moves them), read after every bench, so in no timed region and
# before none, and only when the host counted.  PID 1 is root; with
# kptr_restrict 0 the addresses are real.  Local data symbols (d, r, b: 40%
# of a Debian kernel's 87,000 lines) are left out: every byte goes out
# through the emulated UART.
save_kallsyms() {
	[ "$(cat /mmdelta/insns-counted 2>/dev/null)" = 1 ] || return 0
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null || true
	grep -v ' [drb] ' /proc/kallsyms >"$OUT/kallsyms" 2>/dev/null || rm -f "$OUT/kallsyms"
}

main() {
	local rc=0
	local -a args send=(guest-facts results)
	mount_all
	mkdir -p "$OUT" "$RESULTS"
	guest_facts >"$OUT/guest-facts"
	mapfile -d '' -t args </mmdelta/vm-args
	echo "mmdelta: guest $(uname -r) up after $(cut -d' ' -f1 /proc/uptime) s; run.sh ${args[*]}" >&2
	"$MMDELTA_ROOT/run.sh" -o "$RESULTS" "${args[@]}" || rc=$?
	mv "$RESULTS" "$OUT/results"
	save_kallsyms
	[ ! -s "$OUT/kallsyms" ] || send+=(kallsyms)
	frame_send /dev/ttyS1 "$rc" "$OUT" "${send[@]}"
}

main
