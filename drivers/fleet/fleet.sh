# run.sh --slurm: submit the run to a Slurm cluster instead of running it
# here, one batch job per kernel image (--kernel, repeatable) or per node of
# the partition (--each-node), each running the same run.sh on its node
# (libexec/fleet-job.sh).  Slurm queues, places and requeues; this file
# only turns run.sh's options into jobs.  docs/fleet.md has the cluster it needs.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_FLEET_FLEET:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_FLEET_FLEET=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/wait.sh"  # --wait: following the jobs
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_path
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../run/dryrun.sh"  # dry_run
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # rundir_check, rundir_check_name, rundir_check_root
source "${BASH_SOURCE[0]%/*}/../vm/image.sh"  # vm_image_check, vm_image_release
source "${BASH_SOURCE[0]%/*}/../vm/vm.sh"  # vm_option

FLEET_EACH_NODE=0 FLEET_WAIT=0 FLEET_FOLLOW=""
FLEET_GIVEN=()

fleet_usage() {
	cat <<EOF
  --slurm            submit to Slurm instead of running here (one job per
                     --kernel image, or per node with --each-node)
  --slurm-opt ARG    pass ARG to sbatch (e.g. --slurm-opt --partition=lab); repeatable
  --each-node        with --slurm: one exclusive native run per node, named NAME-NODE
  --wait             with --slurm: follow the jobs until they end
  --slurm-wait ID    follow the jobs of an earlier submission (ID: its first job)
EOF
}

# fleet_option OPTION [VALUE], for run.sh's parser.  --kernel is collected
# here (several images make several jobs) and handed on to vm_option.
fleet_option() {
	FLEET_GIVEN+=("$1")
	case $1 in
	--slurm) FLEET=1 ;;
	--each-node) FLEET_EACH_NODE=1 ;;
	--wait) FLEET_WAIT=1 ;;
	--slurm-opt) FLEET_OPTS+=("$2") ;;
	--slurm-wait) [[ $2 =~ ^[0-9]+$ ]] || die "--slurm-wait $2: give the first job id of a submission"; FLEET_FOLLOW=$2 ;;
	--kernel) FLEET_KERNELS+=("$2"); vm_option --kernel "$2" ;;
	esac
}

# fleet_options_done RESULTS, after option parsing: the fleet options must
# make sense together.  Runs before run.sh names the run, so NAME is still
# only what -n gave.
fleet_options_done() {
	local results=$1 opt k
	if [ -n "$FLEET_FOLLOW" ]; then
		rundir_check_root "$results"
		fleet_wait_submission "$(realpath -m "$results")" "$FLEET_FOLLOW"
		exit $?
	fi
	if [ "$FLEET" = 0 ]; then
		for opt in "${FLEET_GIVEN[@]}"; do
			[ "$opt" = --kernel ] || die "$opt needs --slurm"
		done
		# Several images here: one run each, vm/many.sh.
		# shellcheck disable=SC2034  # VM_MANY: read by run.sh
		[ ${#FLEET_KERNELS[@]} -le 1 ] || VM_MANY=1
		return 0
	fi
	FLEET_NAME_GIVEN=${NAME:-}
	[ -z "$VM_JOBS" ] || die "--jobs is for several --kernel images here; with --slurm the cluster places the jobs"
	if [ "$FLEET_EACH_NODE" = 1 ] && [ ${#FLEET_KERNELS[@]} -gt 0 ]; then
		die "--each-node is for native runs; --kernel runs go to any node (icount figures do not depend on it)"
	fi
	[ "$FLEET_EACH_NODE" = 1 ] || [ ${#FLEET_KERNELS[@]} -gt 0 ] ||
		die "--slurm needs --kernel IMAGE (one job per image) or --each-node (one job per node)"
	for k in "${FLEET_KERNELS[@]}"; do vm_image_check "$k"; done
}

# The run names of the jobs, one per line, in submission order.
fleet_names() {
	local k rel node
	if [ "$FLEET_EACH_NODE" = 1 ]; then
		# Without -n the node's own release is the prefix, known only there.
		for node in "${FLEET_NODES[@]}"; do echo "${FLEET_PREFIX:-%r}-$node"; done
		return
	fi
	# One image: -n names the run, as it does without --slurm.
	if [ ${#FLEET_KERNELS[@]} = 1 ] && [ -n "$FLEET_PREFIX" ]; then
		echo "$FLEET_PREFIX"
		return
	fi
	for k in "${FLEET_KERNELS[@]}"; do
		rel=$(vm_image_release "$k")
		[ -n "$rel" ] || die "--kernel $k: no release in its header; name the runs with -n"
		echo "${FLEET_PREFIX:+$FLEET_PREFIX-}$rel"
	done
}

# Ask the cluster something; when it cannot answer, say so in one line with
# sinfo's own first error.  A missing slurm.conf makes sinfo retry for a
# minute, hence the bound.
fleet_sinfo() {
	local out err
	command -v sinfo >/dev/null || die "sinfo not found: --slurm needs the Slurm client (apt-get install slurm-client)"
	err=$(mktemp)
	if ! out=$(timeout 20 sinfo "$@" 2>"$err"); then
		out=$(grep -m1 . "$err" || echo "no answer within 20 s")
		rm -f "$err"
		die "no Slurm cluster reachable: $out"
	fi
	rm -f "$err"
	printf '%s\n' "$out"
}

# The partition the jobs go to: the one --slurm-opt names, else the default.
fleet_partition() {
	local o next=0
	for o in "${FLEET_OPTS[@]}"; do
		if [ "$next" = 1 ]; then echo "$o"; return; fi
		case $o in
		-p|--partition) next=1 ;;
		-p?*) echo "${o#-p}"; return ;;
		--partition=*) echo "${o#--partition=}"; return ;;
		esac
	done
	fleet_sinfo -h -o '%P' | sed -n 's/\*$//p' | head -n 1
}

# The nodes of the partition that can take a job; the others are named.
fleet_nodes() {
	local part=$1 node state
	FLEET_NODES=()
	while IFS='|' read -r node state; do
		[ -n "$node" ] || continue
		case $state in
		idle*|mix*|alloc*|comp*) FLEET_NODES+=("$node") ;;
		*) say "skipping node $node of partition $part: $state" ;;
		esac
	done < <(fleet_sinfo -h -N -p "$part" -o '%N|%t' | sort -u)
	[ ${#FLEET_NODES[@]} -gt 0 ] || die "partition '$part' has no node that can take a job: --each-node needs at least one"
}

# The run.sh arguments every job gets: the command line without the fleet
# options, the images, -n and -o (each job gets its own), configs as
# absolute paths, so that the job runs the same from any directory.
fleet_job_args() {
	local -a out=()
	while [ $# -gt 0 ]; do
		case $1 in
		--slurm|--each-node|--wait) ;;
		--slurm-opt|--kernel|-n|-o) shift ;;
		-c) out+=(-c "$(realpath "$(config_path "$2")")"); shift ;;
		-i|--set|--monitors|--vm-*) out+=("$1" "$2"); shift ;;
		-*) out+=("$1") ;;
		*) out+=(-c "$(realpath "$(config_path "$1")")") ;;
		esac
		shift
	done
	printf '%s\0' "${out[@]}"
}

# fleet_submit RESULTS FORCE DRY_RUN RUN.SH-ARGS...: run.sh's main, once
# the configs resolved.
fleet_submit() {
	local -a names jobargs opts
	local root part i n id ids=() what log manifest="" force=$2 dry_run=$3
	root=$(realpath -m "$1")
	shift 3
	FLEET_PREFIX=$FLEET_NAME_GIVEN
	part=$(fleet_partition)
	[ -n "$part" ] || die "the cluster has no default partition; name one with --slurm-opt --partition=NAME"
	if [ "$FLEET_EACH_NODE" = 1 ]; then fleet_nodes "$part"; fi
	mapfile -t names < <(fleet_names)
	for n in "${names[@]}"; do
		[[ $n == *%r* ]] && continue
		rundir_check_name "$n"
		rundir_check "$root" "$n" "$force"
	done
	mapfile -d '' -t jobargs < <(fleet_job_args "$@")
	command -v sbatch >/dev/null || die "sbatch not found: --slurm needs the Slurm client (apt-get install slurm-client)"
	if [ "$dry_run" = 0 ]; then
		mkdir -p "$root/.fleet" || die "cannot create $root/.fleet"
		manifest=$(mktemp "$root/.fleet/.jobs.XXXXXX")
	fi
	for i in "${!names[@]}"; do
		n=${names[i]}
		opts=(--parsable --requeue --job-name "mmdelta-${n#%r-}" --output "$root/.fleet/%j.log"
			--partition "$part" --export "ALL,MMDELTA_ROOT=$MMDELTA_ROOT")
		if [ "$FLEET_EACH_NODE" = 1 ]; then
			what=${FLEET_NODES[i]}
			opts+=(--exclusive --nodelist "$what")
			set -- "$root" "$n" run "${jobargs[@]}"
		else
			what=${FLEET_KERNELS[i]}
			set -- "$root" "$n" vm --kernel "$(realpath "$what")" "${jobargs[@]}"
		fi
		if [ "$dry_run" = 1 ]; then
			printf '%q ' sbatch "${opts[@]}" "${FLEET_OPTS[@]}" "$MMDELTA_ROOT/libexec/fleet-job.sh" "$@"
			echo
			continue
		fi
		id=$(sbatch "${opts[@]}" "${FLEET_OPTS[@]}" "$MMDELTA_ROOT/libexec/fleet-job.sh" "$@" 2>&1) ||
			fleet_submit_failed "$manifest" "$id" "${ids[@]}"
		id=${id%%;*}
		ids+=("$id")
		log=$root/.fleet/$id.log
		printf '%s\t%s\t%s\t%s\n' "$id" "$n" "$what" "$log" >>"$manifest"
	done
	[ "$dry_run" = 0 ] || return 0
	mv "$manifest" "$root/.fleet/${ids[0]}.jobs"
	fleet_history_job "$root" "${ids[@]}"
	fleet_submitted "$root" "${ids[0]}"
	[ "$FLEET_WAIT" = 0 ] || fleet_wait_submission "$root" "${ids[0]}"
}

# sbatch refused a job: cancel the ones already queued, so a submission is
# all or nothing, and say sbatch's reason.
fleet_submit_failed() {
	local manifest=$1 why=$2; shift 2
	[ $# -eq 0 ] || scancel "$@" 2>/dev/null || true
	rm -f "$manifest"
	die "sbatch refused the job: $(grep -m1 . <<<"$why")"
}

# Without --wait stdout gets JOB<TAB>RUN<TAB>IMAGE|NODE per job, and stderr
# the command that follows them; with --wait stdout is kept for the runs.
fleet_submitted() {
	local root=$1 first=$2 id n what log ids=()
	while IFS=$'\t' read -r id n what log; do
		ids+=("$id")
		[ "$FLEET_WAIT" = 1 ] || printf '%s\t%s\t%s\n' "$id" "${n//%r/RELEASE}" "$what"
	done <"$root/.fleet/$first.jobs"
	if [ "$FLEET_WAIT" = 1 ]; then
		say "submitted ${#ids[@]} jobs: ${ids[*]}"
	else
		say "submitted; follow the jobs with: $MMDELTA_ROOT/run.sh -o $root --slurm-wait $first"
	fi
}

# The history database is SQLite, which must not be written over a network
# filesystem by many hosts at once: the jobs leave it alone, and one job
# after them all records their runs.  singleton (one job of that name at a
# time) keeps two submissions' ingests from overlapping.
fleet_history_job() {
	local root=$1; shift
	[ -x "$MMDELTA_ROOT/history.sh" ] || return 0
	[ "$FLEET_WAIT" = 0 ] || return 0  # --wait records them on this host
	local deps id
	deps=$(IFS=:; echo "$*")
	if id=$(sbatch --parsable --job-name mmdelta-history --dependency "afterany:$deps,singleton" \
		--output "$root/.fleet/history-%j.log" --export "ALL,MMDELTA_ROOT=$MMDELTA_ROOT" \
		"${FLEET_OPTS[@]}" --wrap "$(printf '%q ' "$MMDELTA_ROOT/history.sh" -o "$root" ingest)"); then
		# --slurm-wait then leaves the database to that job: one writer.
		echo "${id%%;*}" >"$root/.fleet/$1.history"
	else
		say "could not queue the history job; record the runs later with history.sh ingest"
	fi
}
