# The host's side of the insns monitor (drivers/monitors/insns.sh) in a
# --kernel run: load the QEMU plugin that counts the guest's instructions
# (drivers/vm/insns-plugin.c) when a config asks for the monitor, and after
# the boot name its per-address counts with the guest's own /proc/kallsyms
# (mmprofile, reports/profile/).  What the run directory gets:
#   kallsyms.gz                          the guest's /proc/kallsyms (this boot)
#   insns.processes                      the guest's list: bench, param, iteration, tag
#   insns.tsv                            a row per bench process: its regions (0: none marked),
#                                        totals, reconciliation
#   insns-plugin.summary                 the plugin's own figures (layouts, memory)
#   BENCH/monitors/insns.TAG.tsv         function<TAB>instructions, clones folded
#   BENCH/monitors/insns.TAG.addr.tsv.gz the plugin's per-address counts
#   BENCH/monitors/insns-tasks.TAG.tsv   the same of the bench's task regions (harness.h), if any
#   insns_kernel, insns_user, insns_total in BENCH/samples.tsv (warmup.tsv)
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_INSNS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_INSNS=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_load
source "${BASH_SOURCE[0]%/*}/../core/build.sh"  # need_built
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../monitors/insns.sh"  # insns_describe, insns_metrics
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # monitor_list
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_set

# The guest's TSC calibration, for the reconciliation (vm_insns_tsc_khz).
VM_INSNS_KHZ=0

# Does any config name the monitor?  (A subshell per config, as
# vm_config_facts loads them.)  MMDELTA_INSNS=1 counts without naming it:
# the guest's arguments are then those of the same run without the
# monitor, to the byte, and so are its figures (bisect.sh's profile).
vm_insns_wanted() {
	local c
	[ "${MMDELTA_INSNS:-0}" != 1 ] || return 0
	for c in "${CONFIGS[@]}"; do
		if (config_load "$c" && monitor_list "${CFG[MONITORS]}") | grep -qx insns; then return 0; fi
	done
	return 1
}

# Before the boot: the plugin built and an accelerator that runs plugins.
vm_insns_setup() {
	vm_insns_wanted || return 0
	[ "$VM_ACCEL" = tcg ] ||
		die "--monitors insns: QEMU plugins run only under TCG, and this run uses $VM_ACCEL (--vm-clock icount forces TCG)"
	"$MMDELTA_ROOT/libexec/deps.sh" insns || die "missing dependencies of the insns monitor (see above)"
	need_built lib/insns-plugin.so bin/mmprofile
	VM_INSNS=1 VM_INSNS_DIR=$1/insns
	# counting costs up to 1.4x the guest's time (docs/monitors.md)
	[ -n "$VM_TIMEOUT" ] || VM_TIMEOUT_S=$((VM_TIMEOUT_S * 3 / 2))
	mkdir -p "$VM_INSNS_DIR"
	meta_set "$RUN_DIR" insns_plugin "drivers/vm/insns-plugin.c, qemu-plugin.h of $(awk -F': ' '$1 == "package" { print $2 }' "$MMDELTA_BUILD/include/qemu-plugin.h.source")"
}

# qemu's -plugin option, one word a line; nothing with the monitor off.
vm_insns_qemu_args() {
	[ "$VM_INSNS" = 1 ] || return 0
	printf '%s\n' -plugin "$MMDELTA_BUILD/lib/insns-plugin.so,out=$VM_INSNS_DIR"
}

# "# KEY: N" of a plugin file.
vm_insns_header() { awk -v k="# $2:" 'index($0, k) == 1 { print $3; exit } !/^#/ { exit }' "$1"; }

# After vm_collect: each bench process's counts into its bench's files and
# samples.  Line K of insns.processes (BENCH PARAM ITERATION TAG) is the
# plugin's process K; a process that marked no region (one that failed
# before its timed phase, or a bench that times by other clock reads) has
# no file: it gets
# a row of insns.tsv with 0 regions, which compare.sh --profile reads as
# the reason it has no profile, and nothing else.
vm_insns_collect() {
	local ksyms=$1/guest/kallsyms k=0 bench param iter tag file
	local -A unmarked=() marked=()
	if [ "$VM_INSNS" != 1 ]; then rm -f "$RUN_DIR/insns.processes"; return 0; fi
	cp "$VM_INSNS_DIR/summary" "$RUN_DIR/insns-plugin.summary" 2>/dev/null || true
	[ -s "$ksyms" ] || vm_insns_keep_raw "the guest sent no /proc/kallsyms"
	gzip -9n <"$ksyms" >"$RUN_DIR/kallsyms.gz"
	[ -f "$RUN_DIR/insns.processes" ] || vm_insns_keep_raw "the guest listed no bench process"
	VM_INSNS_KHZ=$(vm_insns_tsc_khz)
	printf 'bench\ttag\tregions\ttotal\tkernel\tuser\tearly_exits\tover_count_bound\tgap\tmargin\treconciled\ttask_regions\n' >"$RUN_DIR/insns.tsv"
	while IFS=$'\t' read -r bench param iter tag; do
		k=$((k + 1))
		file=$(printf '%s/process-%04d.tsv' "$VM_INSNS_DIR" "$k")
		if [ -f "$file" ]; then
			marked[$bench]=1
			vm_insns_process "$ksyms" "$file" "$bench" "$param" "$iter" "$tag"
			continue
		fi
		unmarked[$bench]=1
		printf '%s\t%s\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\n' "$bench" "$tag" >>"$RUN_DIR/insns.tsv"
	done <"$RUN_DIR/insns.processes"
	for bench in "${!unmarked[@]}"; do vm_insns_unmarked "$bench" "${marked[$bench]:-0}"; done
	vm_insns_say_reconciled
}

# BENCH MARKED: a bench some of whose processes marked no region (MARKED 1:
# others did).  One that never marks one gets a skipped line, as a monitor
# that could not run does.
vm_insns_unmarked() {
	local bench=$1
	if [ "$2" = 1 ]; then
		say "insns: some processes of $bench marked no timed region (regions 0 in $RUN_DIR/insns.tsv): nothing counted for them"
		return 0
	fi
	say "insns: $bench marks no timed region of its own (docs/monitors.md): no profile for it"
	mkdir -p "$RUN_DIR/$bench/monitors"
	printf 'insns\tthe bench marks no timed region\n' >>"$RUN_DIR/$bench/monitors/skipped"
}

# The plugin's files stay in insns-raw/ when they cannot be named.
vm_insns_keep_raw() {
	mv "$VM_INSNS_DIR" "$RUN_DIR/insns-raw"
	die "insns: $1; the plugin's counts are in $RUN_DIR/insns-raw"
}

# One process: its function table, its per-address file, its metrics and
# its row of insns.tsv.
vm_insns_process() {
	local ksyms=$1 file=$2 bench=$3 param=$4 iter=$5 tag=$6 dir=$RUN_DIR/$3 out rec elapsed total exits f tasks
	local -a values=()
	out=$dir/monitors/insns.$tag
	mkdir -p "$dir/monitors"
	"$MMDELTA_BUILD/bin/mmprofile" reduce "$ksyms" "$file" >"$out.tsv" || die "insns: $file could not be reduced"
	gzip -9n <"$file" >"$out.addr.tsv.gz"
	# the task regions' table, when the process marked any
	tasks=0
	if [ -f "${file%.tsv}.tasks.tsv" ]; then
		"$MMDELTA_BUILD/bin/mmprofile" reduce "$ksyms" "${file%.tsv}.tasks.tsv" >"$dir/monitors/insns-tasks.$tag.tsv" ||
			die "insns: ${file%.tsv}.tasks.tsv could not be reduced"
		tasks=$(vm_insns_header "${file%.tsv}.tasks.tsv" regions)
	fi
	vm_insns_declare "$dir"
	total=$(vm_insns_header "$file" total)
	{
		printf 'insns_kernel\t%s\t%s\t%s\n' "$param" "$iter" "$(vm_insns_header "$file" kernel)"
		printf 'insns_user\t%s\t%s\t%s\n' "$param" "$iter" "$(vm_insns_header "$file" user)"
		printf 'insns_total\t%s\t%s\t%s\n' "$param" "$iter" "$total"
	} >>"$dir/$( ((iter > 0)) && echo samples || echo warmup).tsv"
	# a run without warm-ups has no warmup.tsv, and awk fails on a missing file
	for f in "$dir/samples.tsv" "$dir/warmup.tsv"; do [ ! -f "$f" ] || values+=("$f"); done
	elapsed=$(awk -F'\t' -v p="$param" -v i="$iter" '$1 == "elapsed" && $2 == p && $3 == i { print $4 }' "${values[@]}")
	exits=$(awk '/^# early_exits:/ { print $3 "\t" $5; exit }' "$file")
	rec="-	-	-"
	# only icount makes a nanosecond an instruction
	if [ "$VM_CLOCK" = icount ] && [ -n "$elapsed" ] && [ "$(vm_insns_header "$file" regions)" = 1 ]; then
		rec=$("$MMDELTA_BUILD/bin/mmprofile" reconcile "$elapsed" "$total" "$VM_INSNS_KHZ" \
			$((${exits%%$'\t'*} + ${exits#*$'\t'}))) || true
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$bench" "$tag" "$(vm_insns_header "$file" regions)" "$total" \
		"$(vm_insns_header "$file" kernel)" "$(vm_insns_header "$file" user)" "$exits" "$rec" \
		"$tasks" >>"$RUN_DIR/insns.tsv"
}

# The guest's TSC calibration in kHz, from its console: the refined one
# where the kernel refined it.  "999.999 MHz" is tsc_khz 999999 exactly.
vm_insns_tsc_khz() {
	tr -d '\r' <"$RUN_DIR/vm-console.log" |
		awk '/tsc: (Refined TSC clocksource calibration:|Detected) [0-9]+\.[0-9]+ MHz/ {
			for (i = 1; i <= NF; i++) if ($(i + 1) == "MHz") { v = $i; sub(/\./, "", v) } }
			END { print v + 0 }'
}

# The monitor's metrics in the bench's metrics.tsv, once.
vm_insns_declare() {
	local m
	[ -f "$1/metrics.tsv" ] || return 0
	! awk -F'\t' '$1 == "insns_total" { f = 1 } END { exit !f }' "$1/metrics.tsv" || return 0
	for m in $(insns_metrics); do printf '%s\tinsns\n' "$(insns_describe "$m")" >>"$1/metrics.tsv"; done
}

# One line on how the regions' totals met their icount figures.
vm_insns_say_reconciled() {
	local line
	line=$(awk -F'\t' 'NR > 1 && $11 != "-" { n++; if ($11 != "ok") bad = bad " " $1 "/" $2 " (" $9 " ns)";
			g = $9 < 0 ? -$9 : $9; if (g > max) max = g }
		NR > 1 && $3 > 0 { p++ }
		END { if (!p) exit 1
			printf "%d processes profiled", p
			if (n) printf "; %d regions against their elapsed: %s", n, bad ? "outside the margin:" bad : "all reconcile, within " max + 0 " ns" }' "$RUN_DIR/insns.tsv") || return 0
	say "insns: $line"
	meta_set "$RUN_DIR" vm_tsc_khz "$VM_INSNS_KHZ"
}
