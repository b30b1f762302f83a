# The kernel image of a --kernel run: refuse anything qemu cannot boot as a
# Linux kernel before a VM is started, and read the release from its header
# so the run can be named before the guest has said anything.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_IMAGE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_IMAGE=1

source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die

# x86 boot protocol (Documentation/arch/x86/boot.rst): "HdrS" at 0x202 marks
# a bzImage; the 16-bit word at 0x20e points (less 0x200) to the version
# string "RELEASE (builder) #1 SMP ...".
VM_HDRS_OFFSET=514
VM_VERSION_PTR_OFFSET=526

# What is wrong with IMAGE as a kernel to boot, or nothing.
vm_image_problem() {
	local image=$1 magic
	[ -e "$image" ] || { echo "no such file"; return; }
	{ [ -f "$image" ] && [ -r "$image" ]; } || { echo "not a readable file"; return; }
	magic=$(dd if="$image" bs=1 skip="$VM_HDRS_OFFSET" count=4 2>/dev/null | tr -d '\0')
	[ "$magic" = HdrS ] ||
		echo "not a Linux kernel image (no bzImage header; give the vmlinuz/bzImage, not vmlinux or an initrd)"
}

vm_image_check() {
	local problem
	problem=$(vm_image_problem "$1")
	[ -z "$problem" ] || die "--kernel $1: $problem"
}

# The release (first word of the header's version string), or nothing.
vm_image_release() {
	local image=$1 ptr
	ptr=$(od -An -tu2 -j"$VM_VERSION_PTR_OFFSET" -N2 "$image" | tr -d ' ')
	[ -n "$ptr" ] && [ "$ptr" -gt 0 ] || return 0
	dd if="$image" bs=1 skip=$((ptr + 512)) count=256 2>/dev/null |
		tr '\0' '\n' | awk 'NR == 1 { print $1 }'
}
