# For the tests that boot Debian's cloud kernels: the kernel list, or the
# whole file skipped when the packages cannot be had at all.
# shellcheck shell=bash

# KERNELS gets fetch-debian-kernels.sh's "RELEASE<TAB>VMLINUZ" lines.  Its
# exit 2 (no packages to be had) skips; any other failure fails the caller.
# ROOT is the caller's (helpers.bash, fleet.bash); KERNELS is for the caller.
# shellcheck disable=SC2034,SC2154
debian_kernels() {
	local status=0
	KERNELS=$("$ROOT/tests/kernels/fetch-debian-kernels.sh") || status=$?
	[ "$status" != 2 ] || skip "Debian's linux-image-*-cloud-amd64-unsigned packages cannot be downloaded"
	[ "$status" = 0 ]
}
