# Several --kernel images without --slurm: one run.sh --kernel per image on
# this machine, up to --jobs at once, each run its own run directory,
# complete or failed on its own.  The parent resolves the configs and builds
# the guest's binaries once, so the children only boot and collect.  An
# icount guest's figures do not depend on what else the host runs, so
# booting them side by side measures the same as one after another.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_MANY:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_MANY=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/build.sh"  # need_built
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_get, rundir_check_free, rundir_check_name, rundir_check_root
source "${BASH_SOURCE[0]%/*}/image.sh"  # vm_image_check, vm_image_release
source "${BASH_SOURCE[0]%/*}/vm.sh"  # vm_benches, vm_check_options

# What one guest costs the host besides its memory: qemu itself and TCG's
# translated code (measured: a 2G guest's qemu holds 0.53 GiB after boot,
# its guest RAM not yet touched).  The host keeps 1 GiB for itself.
VM_MANY_OVERHEAD_MB=512
VM_MANY_HOST_RESERVE_MB=1024
# The runs' names, one per image, in the order given.
VM_MANY_NAMES=()

# vm_many_names PREFIX IMAGE...: the run names, PREFIX-RELEASE (RELEASE
# without -n), one per line; refused when a release is missing or two
# images would make the same run.
vm_many_names() {
	local prefix=$1 image rel name seen=" "; shift
	for image in "$@"; do
		vm_image_check "$image"
		rel=$(vm_image_release "$image")
		[ -n "$rel" ] || die "--kernel $image: no release in its header; such an image needs a run of its own (-n NAME)"
		name=${prefix:+$prefix-}$rel
		rundir_check_name "$name"
		[[ $seen != *" $name "* ]] || die "--kernel $image: run '$name' is named twice (two images of release $rel)"
		seen+="$name "
		echo "$name"
	done
}

# MemAvailable in MiB (MMDELTA_MEMAVAILABLE_MB stands in for it in tests).
vm_many_mem_available() {
	[ -z "${MMDELTA_MEMAVAILABLE_MB:-}" ] || { echo "$MMDELTA_MEMAVAILABLE_MB"; return; }
	awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo
}

# vm_many_jobs JOBS IMAGES: how many guests at once.  Given, it must fit in
# memory; by default as many as there are CPUs (an icount guest is one vCPU,
# one host thread busy) and memory allows, and no more than the images.
vm_many_jobs() {
	local want=$1 images=$2 per avail fit cpus
	per=$((VM_MEM_MB + VM_MANY_OVERHEAD_MB))
	avail=$(($(vm_many_mem_available) - VM_MANY_HOST_RESERVE_MB))
	fit=$((avail > 0 ? avail / per : 0))
	if [ -n "$want" ]; then
		[ "$want" -le "$fit" ] ||
			die "--jobs $want: $want guests of $VM_MEM need $((want * per)) MiB ($VM_MEM + ${VM_MANY_OVERHEAD_MB}M of qemu each), this machine has $avail MiB to spare (MemAvailable less 1G); at most --jobs $fit"
		echo "$want"
		return
	fi
	[ "$fit" -ge 1 ] || die "one guest of $VM_MEM needs $per MiB, this machine has $avail MiB to spare (MemAvailable less 1G): give a smaller --vm-mem"
	cpus=$(nproc)
	[ "$VM_CLOCK" = icount ] || cpus=$((cpus / VM_CPUS > 0 ? cpus / VM_CPUS : 1))
	want=$((cpus < fit ? cpus : fit))
	echo $((want < images ? want : images))
}

# vm_many_check RESULTS FORCE: after the options and before anything is
# written (with --dry-run too): the names, each run's place in the results
# root, the jobs.
vm_many_check() {
	local results=$1 force=$2 n
	[ -z "$ADD_ITERATIONS$GATE_BASELINE$GATE_PCT" ] ||
		die "--add, --baseline and --gate take one run; give one --kernel image"
	mapfile -t VM_MANY_NAMES < <(vm_many_names "$NAME" "${FLEET_KERNELS[@]}")
	[ ${#VM_MANY_NAMES[@]} = ${#FLEET_KERNELS[@]} ] || exit 1
	vm_check_options
	VM_JOBS=$(vm_many_jobs "$VM_JOBS" ${#FLEET_KERNELS[@]}) || exit 1
	rundir_check_root "$results"
	for n in "${VM_MANY_NAMES[@]}"; do rundir_check_free "$results" "$n" "$force"; done
}

# run.sh's arguments for every child: the command line without --kernel,
# -n and --jobs (each child gets its image and name).
vm_many_child_args() {
	local -a out=()
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel | -n | --jobs) shift ;;
		-c | -i | -o | --set | --monitors | --vm-*) out+=("$1" "$2"); shift ;;
		*) out+=("$1") ;;
		esac
		shift
	done
	printf '%s\0' "${out[@]}"
}

# vm_many_start I LOGDIR ARGS...: run image I in the background, its output
# kept in LOGDIR/I.log and shown with the run's name before each line (but
# its own compare line: the last line names them all).
vm_many_start() {
	local i=$1 logs=$2 name=${VM_MANY_NAMES[$1]}; shift 2
	(
		set -o pipefail
		"${MMDELTA_VM_RUNNER:-$MMDELTA_ROOT/run.sh}" --kernel "${FLEET_KERNELS[i]}" -n "$name" "$@" 2>&1 </dev/null |
			tee "$logs/$i.log" | sed -u -e "/^mmdelta: compare: /d" -e "s/^mmdelta: /mmdelta: [$name] /" >&2
	) &
	VM_MANY_PIDS[i]=$!
}

# The run's directory as it ended: complete, or partial.
vm_many_dir() {
	local results=$1 name=$2
	if [ -d "$results/$name" ]; then echo "$results/$name"; else echo "$results/.$name.partial"; fi
}

# vm_many_ended I RC RESULTS LOGDIR: keep the child's output in its run
# directory (run.log) and say how it ended, in one line.
vm_many_ended() {
	local i=$1 rc=$2 results=$3 logs=$4 name=${VM_MANY_NAMES[$1]} dir why
	dir=$(vm_many_dir "$results" "$name")
	[ ! -d "$dir" ] || cp "$logs/$i.log" "$dir/run.log" 2>/dev/null || true
	if [ "$rc" = 0 ]; then
		VM_MANY_DONE+=("$name")
		return
	fi
	why=$(grep '^mmdelta: ' "$logs/$i.log" | grep -v -e '^mmdelta: run left partial' -e '^mmdelta: \[guest\]' |
		tail -n 1 | sed 's/^mmdelta: //')
	VM_MANY_FAILED+=("$name")
	say "$name failed: ${why:-exit $rc} (${FLEET_KERNELS[i]})"
}

# Ctrl-C or SIGTERM: every child's run.sh stops its qemu and leaves its run
# partial, status interrupted; then this one exits.
vm_many_interrupt() {
	local pid
	trap '' INT TERM
	say "interrupted: stopping the runs still going"
	for pid in "${VM_MANY_PIDS[@]}"; do pkill -TERM -P "$pid" 2>/dev/null || true; done
	wait
	exit 130
}

# vm_many_run RESULTS DRY ARGS...: run.sh's main for several images,
# once the configs resolved.  Exit 0 only when every run completed.
vm_many_run() {
	local results=$1 dry=$2 logs i rc next=0 running pid
	local -a args benches
	shift 2
	mapfile -d '' -t args < <(vm_many_child_args "$@")
	if [ "$dry" = 1 ]; then
		for i in "${!FLEET_KERNELS[@]}"; do
			echo "# run ${VM_MANY_NAMES[i]}: --kernel ${FLEET_KERNELS[i]} (up to $VM_JOBS at once)"
			"${MMDELTA_VM_RUNNER:-$MMDELTA_ROOT/run.sh}" --kernel "${FLEET_KERNELS[i]}" -n "${VM_MANY_NAMES[i]}" "${args[@]}" || return
		done
		return 0
	fi
	# Built once here: children running make side by side in one tree would race.
	mapfile -t benches < <(vm_benches)
	need_built "${benches[@]/#/static/}" static/mmconfig static/mmci static/mmstat
	logs=$(mktemp -d)
	VM_MANY_PIDS=() VM_MANY_DONE=() VM_MANY_FAILED=()
	trap vm_many_interrupt INT TERM
	say "${#FLEET_KERNELS[@]} runs, up to $VM_JOBS guests at once: ${VM_MANY_NAMES[*]}"
	running=0
	while [ "$next" -lt ${#FLEET_KERNELS[@]} ] || [ "$running" -gt 0 ]; do
		while [ "$running" -lt "$VM_JOBS" ] && [ "$next" -lt ${#FLEET_KERNELS[@]} ]; do
			vm_many_start "$next" "$logs" "${args[@]}"
			next=$((next + 1)) running=$((running + 1))
		done
		rc=0
		wait -n -p pid "${VM_MANY_PIDS[@]}" || rc=$?
		for i in "${!VM_MANY_PIDS[@]}"; do
			[ "${VM_MANY_PIDS[i]}" = "$pid" ] || continue
			unset "VM_MANY_PIDS[i]"
			vm_many_ended "$i" "$rc" "$results" "$logs"
		done
		running=$((running - 1))
	done
	trap - INT TERM
	rm -rf "$logs"
	vm_many_summary "$results"
}

# The last lines: which runs failed, and the compare.sh command for the
# complete ones in the order the images were given.
vm_many_summary() {
	local results=$1 n cmd opt="" done=()
	for n in "${VM_MANY_NAMES[@]}"; do
		[[ " ${VM_MANY_DONE[*]} " != *" $n "* ]] || done+=("$n")
	done
	cmd=$MMDELTA_ROOT/compare.sh
	[ "${0##*/}" != run.sh ] || cmd=${0%/*}/compare.sh
	[ "$results" = "${MMDELTA_RESULTS:-results}" ] || opt=" -o $results"
	[ ${#VM_MANY_FAILED[@]} = 0 ] ||
		say "${#VM_MANY_FAILED[@]} of ${#VM_MANY_NAMES[@]} runs failed: ${VM_MANY_FAILED[*]} (each left partial, its output in run.log)"
	if [ ${#done[@]} -ge 2 ]; then
		say "compare: $cmd$opt ${done[*]}"
	elif [ ${#done[@]} = 1 ]; then
		say "complete: only ${done[0]}; nothing to compare it with"
	fi
	[ ${#VM_MANY_FAILED[@]} = 0 ]
}
