# Everything about the system that a reader of a comparison needs: written
# once per run into meta and topology.txt.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_FACTS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_FACTS=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../monitors/perf.sh"  # perf_hw_counters
source "${BASH_SOURCE[0]%/*}/settings.sh"  # setting_read
source "${BASH_SOURCE[0]%/*}/../core/version.sh"  # suite_version

meta_line() { printf '%s: %s\n' "$1" "$2"; }

# What makes two runs' figures comparable at all: the kernel, its command
# line and the machine.  run.sh --add extends a run only where these match.
facts_identity() {
	meta_line kernel_release "$(uname -r)"
	meta_line kernel_version "$(uname -v)"
	meta_line cmdline "$(tr -d '\n' </proc/cmdline)"
	meta_line hostname "$(uname -n)"
	meta_line arch "$(uname -m)"
	meta_line cpu_model "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	meta_line cpus "$(nproc --all)"
}

facts_meta() {
	local thp=$THP_SYS
	facts_identity
	meta_line numa_nodes "$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l)"
	meta_line memtotal "$(awk '/^MemTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)"
	meta_line memavailable "$(awk '/^MemAvailable:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)"
	meta_line swap_total "$(awk '/^SwapTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)"
	meta_line page_size "$(getconf PAGESIZE)"
	if [ -d "$thp" ]; then
		meta_line thp_enabled "$(setting_read "$thp/enabled")"
		meta_line thp_defrag "$(setting_read "$thp/defrag")"
	else
		# a kernel built without THP (CONFIG_TRANSPARENT_HUGEPAGE)
		meta_line thp_enabled "not built"
		meta_line thp_defrag "not built"
	fi
	meta_line hw_counters "$(perf_hw_counters)"
	# the host's clock is real: zero variance is its resolution (a --kernel
	# run's host side says icount when qemu counts instructions)
	meta_line clock realtime
	meta_line kernel_config "$(facts_kernel_config_source || echo unavailable)"
	meta_line virtualization "$(systemd-detect-virt 2>/dev/null || awk '/hypervisor/ { print "vm"; exit }' /proc/cpuinfo)"
	meta_line suite_version "$(suite_version)"
}

facts_topology() {
	if command -v lstopo-no-graphics >/dev/null; then
		lstopo-no-graphics --of console 2>&1 || true
	else
		echo "lstopo: not installed"
	fi
	echo
	if command -v numactl >/dev/null; then
		numactl --hardware 2>&1 || true
	else
		echo "numactl: not installed"
	fi
}

# The running kernel's config, where the kernel or the distribution keeps it.
facts_kernel_config_source() {
	local f
	for f in /proc/config.gz "/boot/config-$(uname -r)"; do
		[ ! -r "$f" ] || { echo "$f"; return 0; }
	done
	return 1
}

# Copied into the run directory as kernel-config: a baseline and a patched
# kernel often differ in more than the patch.
facts_kernel_config() {
	local src
	src=$(facts_kernel_config_source) || return 0
	case $src in
	*.gz) gzip -dc "$src" >"$1/kernel-config" 2>/dev/null || rm -f "$1/kernel-config" ;;
	*) cp "$src" "$1/kernel-config" ;;
	esac
}

# meta lines of a run made by a Slurm job: which job, node and attempt.
fleet_meta() {
	meta_line slurm_job_id "${SLURM_JOB_ID:-}"
	meta_line slurm_node "${SLURMD_NODENAME:-}"
	meta_line slurm_attempt "${SLURM_RESTART_COUNT:-0}"
}
