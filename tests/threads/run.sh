#!/bin/bash
# make test-threads: the four linux-mm threads, undone on a real kernel.
# Debian's linux-source-6.1 becomes a git tree (tests/kernels/linux-source.sh,
# shared with make test-bisect-build); each patch beside this script undoes
# one thread's improvement (0001 Yang Shi 2018, 0002 Piggin 2007, 0003
# Babka 2013, 0004 Holt 2005) and is a branch of its own on base, and all
# four in order are the branch threads-series.  The phases:
#   build    base and each undone kernel with the minimal guest config, one
#            tree, incrementally (only the patched files change between
#            branches), into WORK/kernels; a kernel built before from the
#            same files and config (WORK/kernels/by-tree, or --kernels
#            DIR/NAME with its config and commit or tree) is reused
#   measure  each thread's bench and monitors on base and on its undone
#            kernel, under icount (one vCPU) and under --vm-cpus 2
#            --vm-clock realtime; prints each compare.sh block and gate
#            verdict, and fails when an icount figure does not move the way
#            the thread says
#   profile  the exact per-function profile (--monitors insns, icount) of
#            base and undone, and compare.sh --profile's top rows
#   bisect   bisect.sh --tree over threads-series for each thread's metric;
#            fails unless it names that thread's commit (its builds go
#            through the same cache: five trees in all, built once)
#   tests/threads/run.sh [--work DIR] [--kernels DIR] [--only PHASE]
#                        [--thread NAME] [--clock icount|realtime] [-i N]
# --thread: one thread only (yangshi piggin babka holt); --clock: one clock;
# -i: iterations for every measurement (under icount 2 are as good as 5).
# A measurement whose complete run is there with the same arguments is
# not run again.
# WORK defaults to tests/cache/threads (the tree, 1.8 GB with its build, is
# kept there between runs).  About 20 minutes for a build from scratch, 25
# for measure, 40 for bisect on 2 CPUs.
set -euo pipefail

HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
MMDELTA_ROOT=$(cd "$HERE/../.." && pwd)
LINUX_SOURCE_WHO=test-threads
# shellcheck source=tests/kernels/linux-source.sh
source "$MMDELTA_ROOT/tests/kernels/linux-source.sh"  # LINUX_BUILD, LINUX_IMAGE, linux_source_*, say, die

WORK=$MMDELTA_ROOT/tests/cache/threads PREBUILT="" ONLY="" ONLY_THREAD="" CLOCKS="icount realtime"
ITER_ARGS=()
KERNELS=(base undo-1 undo-2 undo-3 undo-4)
# The measurements: name, undone kernel, config, the metric that must grow
# under icount (at the config's last parameter), the gate's metric, and
# run.sh's arguments.  Piggin's elapsed time does not move under icount
# (one vCPU: the threads never contend), so its checks are what the lock
# mode changes on one CPU: voluntary context switches, write acquisitions.
MEASURES="
yangshi	undo-1	procmunmap	reader_max	reader_mean	-i 5 --set SIZE=512M --monitors mmaplock,perfstat,vmstat
piggin	undo-2	heaprelease-madvise	voluntary_cs	elapsed	-i 5 --set OPS=20000 --monitors perfstat,vmstat
piggin-lock	undo-2	heaprelease-lock	mmap_lock_write_acquisitions	elapsed	
babka	undo-3	timedmunlock	ns_per_page	ns_per_page	-i 5 --set SIZE=512M --monitors perfstat,vmstat
holt	undo-4	sparsemunmap-sweep-vm	elapsed	elapsed	"
# The bisections: name, the patch whose commit must be named, config,
# metric, bisect.sh's arguments (one size: a point's figure is one number).
BISECTS="
yangshi	1	procmunmap	reader_max	--set SIZE=512M
piggin	2	heaprelease-lock	mmap_lock_write_acquisitions	
babka	3	timedmunlock	ns_per_page	--set SIZE=512M
holt	4	sparsemunmap-sweep-vm	elapsed	--set SIZE=256G"
# The profiles: name, undone kernel, config, run.sh's arguments (smaller
# sizes: the plugin slows TCG down).  Each sparsemunmap munmap is a timed
# region, so Holt's table is the 5 munmaps of its 256G walk.
PROFILES="
yangshi	undo-1	procmunmap	--set SIZE=64M
piggin	undo-2	heaprelease-madvise	--set OPS=2000
babka	undo-3	timedmunlock	--set SIZE=64M
holt	undo-4	sparsemunmap-sweep-vm	--set SIZE=256G"
REALTIME=(--vm-cpus 2 --vm-clock realtime --ignore-load)

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--work) WORK=$2; shift ;;
		--kernels) PREBUILT=$(realpath "$2"); shift ;;
		--only) ONLY=$2; shift
			[[ $ONLY =~ ^(build|measure|profile|bisect)$ ]] || die "--only $ONLY: give build, measure, profile or bisect" ;;
		--thread) ONLY_THREAD=$2; shift ;;
		--clock) CLOCKS=$2; shift
			[[ $CLOCKS =~ ^(icount|realtime)$ ]] || die "--clock $CLOCKS: give icount or realtime" ;;
		-i) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "-i needs a whole number > 0"
			ITER_ARGS=(-i "$2"); shift ;;
		-h | --help) usage; exit 0 ;;
		*) die "unknown argument $1 (see --help)" ;;
		esac
		shift
	done
	WORK=$(realpath -m "$WORK") TREE=$(realpath -m "$WORK")/linux CACHE=$(realpath -m "$WORK")/kernels/by-tree
}

# The tree: base, undo-N (patch N alone on base), threads-series (all four).
make_tree() {
	local n p
	linux_source_tree "$TREE"
	for p in "$HERE"/000[1-4]-*.patch; do
		n=${p##*/000} n=${n%%-*}
		linux_source_branch "$TREE" "threads-undo-$n" "$p"
	done
	linux_source_branch "$TREE" threads-series "$HERE"/000[1-4]-*.patch
}

branch_of() { [ "$1" = base ] && echo base || echo "threads-$1"; }

# A kernel in DIR/NAME fits when its config is the tree's and it was built
# from the branch's files: its tree (or its commit's tree) is the branch's.
kernel_fits() {
	local dir=$1/$2 want built
	[ -f "$dir/bzImage" ] && cmp -s "$dir/config" "$TREE/.config" || return 1
	want=$(git -C "$TREE" rev-parse "$(branch_of "$2")^{tree}")
	if [ -f "$dir/tree" ]; then built=$(<"$dir/tree")
	elif [ -f "$dir/commit" ]; then built=$(git -C "$TREE" rev-parse -q --verify "$(<"$dir/commit")^{tree}" || true)
	fi
	[ "${built:-}" = "$want" ]
}

build_kernel() {
	local name=$1 out=$WORK/kernels/$1 branch
	branch=$(branch_of "$name")
	git -C "$TREE" checkout -q -f "$branch"
	seed "$name"
	say "$name: $(git -C "$TREE" log -1 --format='%h %s')"
	linux_build_cached "$TREE" "$CACHE" || die "$name: the build failed"
	mkdir -p "$out"
	cp "$TREE/$LINUX_IMAGE" "$out/bzImage"
	cp "$TREE/.config" "$out/config"
	git -C "$TREE" rev-parse "$branch^{tree}" >"$out/tree"
}

# A --kernels DIR/NAME that is the branch's kernel goes into the cache.
seed() {
	[ -n "$PREBUILT" ] && kernel_fits "$PREBUILT" "$1" || return 0
	say "$1: $PREBUILT/$1/bzImage is this branch's kernel (its tree and config)"
	linux_cache_seed "$TREE" "$CACHE" "$PREBUILT/$1/bzImage" "$(branch_of "$1")"
}

build_all() {
	local k
	linux_source_install
	make_tree
	linux_source_configure "$TREE"
	say "linux-source-6.1 $(linux_source_version); guest config $LINUX_GUEST_CONFIG"
	for k in "${KERNELS[@]}"; do build_kernel "$k"; done
}

# The means of METRIC (at the last parameter) in runs A and B, "A B".
means() {
	"$MMDELTA_ROOT/compare.sh" -o "$RES" --format json "$1" "$2" |
		jq -r --arg m "$3" '[.benches[].metrics[] | select(.metric == $m) | .params[-1].runs[].mean] | map(tostring) | join(" ")'
}

# measure_one CLOCK NAME UNDONE CONFIG CHECK GATE ARGS...: both kernels,
# the compare block, the gate's verdict; under icount the check.
measure_one() {
	local clock=$1 name=$2 undone=$3 config=$4 check=$5 gate=$6 k run m
	shift 6
	local -a clockargs=()
	[ "$clock" = icount ] || clockargs=("${REALTIME[@]}")
	for k in base "$undone"; do
		run=$clock-$name-$k
		local -a argv=(--kernel "$WORK/kernels/$k/bzImage" "${clockargs[@]}" "$@" "${ITER_ARGS[@]}" "$config")
		if grep -qx 'status: complete' "$RES/$run/meta" 2>/dev/null && [ "$(cat "$RES/$run.args")" = "${argv[*]}" ]; then
			say "$run: done already"; continue
		fi
		rm -rf "${RES:?}/$run"
		say "$run: $config"
		printf '%s\n' "${argv[*]}" >"$RES/$run.args"
		"$MMDELTA_ROOT/run.sh" -o "$RES" -n "$run" "${argv[@]}" >"$RES/$run.log" 2>&1 ||
			die "$run failed: $(tail -n 1 "$RES/$run.log")"
	done
	printf '\n=== %s: %s, base against %s, %s clock\n' "$name" "$config" "$undone" "$clock"
	# exit 1 (REGRESSION) or 3 (inconclusive) are verdicts, printed with the table
	"$MMDELTA_ROOT/compare.sh" -o "$RES" --gate 5 --gate-metric "$gate" "$clock-$name-base" "$clock-$name-$undone" || true
	[ "$clock" = icount ] || return 0
	read -r -a m < <(means "$clock-$name-base" "$clock-$name-$undone" "$check")
	if awk -v a="${m[0]:-x}" -v b="${m[1]:-x}" 'BEGIN { exit !(a + 0 < b + 0) }'; then
		echo "check: $check grew, ${m[0]} -> ${m[1]}"
	else
		echo "check FAILED: $check did not grow (${m[*]})"
		FAILED+=("$name")
	fi
	return 0
}

# Is NAME (a measurement: piggin-lock is piggin's) asked for?
wanted() { [ -n "$1" ] && { [ -z "$ONLY_THREAD" ] || [ "${1%-lock}" = "$ONLY_THREAD" ]; }; }

measure_all() {
	local clock name undone config check gate args
	RES=$WORK/results
	mkdir -p "$RES"
	for clock in $CLOCKS; do
		while IFS=$'\t' read -r name undone config check gate args; do
			wanted "$name" || continue
			# shellcheck disable=SC2086  # args: words by design
			measure_one "$clock" "$name" "$undone" "$config" "$check" "$gate" $args
		done <<<"$MEASURES"
	done
}

profile_all() {
	local name undone config args k run
	RES=$WORK/profiles
	mkdir -p "$RES"
	while IFS=$'\t' read -r name undone config args; do
		wanted "$name" || continue
		for k in base "$undone"; do
			run=$name-$k
			rm -rf "${RES:?}/$run"
			say "$run: $config, --monitors insns"
			# shellcheck disable=SC2086  # args: words by design
			"$MMDELTA_ROOT/run.sh" -o "$RES" -n "$run" --kernel "$WORK/kernels/$k/bzImage" --monitors insns -i 2 $args \
				"$config" >"$RES/$run.log" 2>&1 || die "$run failed: $(tail -n 1 "$RES/$run.log")"
		done
		printf '\n=== %s: %s, the insns profile, base against %s\n' "$name" "$config" "$undone"
		# from the where block's first line, whatever its verdict
		"$MMDELTA_ROOT/compare.sh" -o "$RES" --profile --top 10 "$name-base" "$name-$undone" |
			sed -n '/ (insns: per iteration/,$p'
	done <<<"$PROFILES"
}

# bisect_one NAME N CONFIG METRIC ARGS...: bisect.sh --tree --first (git
# bisect's one culprit) names commit N of threads-series.
bisect_one() {
	local name=$1 n=$2 config=$3 metric=$4 want got json
	shift 4
	want=$(git -C "$TREE" rev-list --reverse base..HEAD | sed -n "${n}p")
	rm -rf "${BRES:?}/$name"
	say "bisect $name: $config, metric $metric, expecting $(git -C "$TREE" log -1 --format='%h %s' "$want")"
	"$MMDELTA_ROOT/bisect.sh" -o "$BRES" -n "$name" --first -i 2 --metric "$metric" "$@" --tree "$TREE" \
		--build "$MMDELTA_ROOT/tests/kernels/linux-build.sh $CACHE" \
		--image "$LINUX_IMAGE" "$config" base HEAD >"$BRES/$name.log" 2>&1 || true
	json=$BRES/$name/bisect.json
	[ -f "$json" ] || { echo "bisect $name FAILED: $(tail -n 1 "$BRES/$name.log")"; FAILED+=("bisect-$name"); return 0; }
	got=$(jq -r '.first_bad.commit // "none"' "$json")
	jq -r --arg name "$name" '"bisect \($name): \(.result), first bad \(.first_bad.commit // "-" | .[0:12]), \(.boots) boots, builds \([.steps[] | .build_seconds | select(. != null) | tostring + " s"] | join(", ")), \(.good_mean) -> \(.bad_mean) \(.unit)"' "$json"
	sed -n '/^step  role/,/^$/p' "$BRES/$name/bisect.txt"
	[ "$got" = "$want" ] || { echo "bisect $name FAILED: named $got, not $want"; FAILED+=("bisect-$name"); }
}

bisect_all() {
	local name n config metric args t0
	BRES=$WORK/bisect
	mkdir -p "$BRES"
	# detached: the branch may be checked out in the tree this one was cloned from
	git -C "$TREE" checkout -q -f --detach "$(git -C "$TREE" rev-parse -q --verify threads-series ||
		git -C "$TREE" rev-parse origin/threads-series)"
	seed series
	while IFS=$'\t' read -r name n config metric args; do
		wanted "$name" || continue
		t0=$SECONDS
		# shellcheck disable=SC2086  # args: words by design
		bisect_one "$name" "$n" "$config" "$metric" $args
		echo "bisect $name: $((SECONDS - t0)) s of wall time"
	done <<<"$BISECTS"
}

need_kernels() {
	local k
	for k in "${KERNELS[@]}"; do
		[ -f "$WORK/kernels/$k/bzImage" ] || die "$WORK/kernels/$k/bzImage is missing: run --only build first"
	done
}

phase() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }

main() {
	FAILED=()
	parse_args "$@"
	if phase build; then build_all; fi
	if phase measure; then need_kernels; measure_all; fi
	if phase profile; then need_kernels; profile_all; fi
	if phase bisect; then
		[ -f "$TREE/.config" ] || die "$TREE is not prepared: run --only build first"
		bisect_all
	fi
	[ ${#FAILED[@]} -eq 0 ] || die "failed: ${FAILED[*]}"
	say "every thread seen; results in $WORK"
}

main "$@"
