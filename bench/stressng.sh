# The stressng bench wraps stress-ng: what run.sh needs of it beyond the
# bench's options (docs/adding-a-scenario.md).
# shellcheck shell=bash

# The program the config names, as the bench finds it.
stressng_program() { printf '%s\n' "${CFG[STRESS_NG]:-stress-ng}"; }

# meta's wrapped_stress-ng: a bogo-op is what one stress-ng version makes
# it, so compare.sh refuses runs of two (reports/rundir/runinfo.c).
driver_meta() {
	local version
	version=$("$(stressng_program)" --version 2>/dev/null | awk '{ for (i = 1; i < NF; i++) if ($i == "version") { print $(i + 1); exit } }')
	printf 'wrapped_stress-ng %s\n' "${version:-unknown}"
}

# What a --kernel guest needs besides the static bench: stress-ng and its
# shared libraries, at their host paths (drivers/vm/initramfs.sh).
guest_programs() { printf '%s\n' stress-ng; }
