#!/bin/bash
# A throwaway Slurm cluster on this one machine, for the fleet tests and for
# trying run.sh --slurm by hand: one slurmctld, N slurmd (Debian's slurmd is
# built with multiple-slurmd support: NodeName=node[1-N] on this host, one
# port each) and a munged of its own, all under DIR, nothing in /etc.
#
#   cluster.sh start DIR [--nodes N] [--owner PID] [--lacking NODE:PACKAGE]...
#       prints "export SLURM_CONF=DIR/slurm.conf"; with --owner the cluster
#       stops by itself when PID exits (a test runner that was killed).
#       Partitions: debug (default; the nodes that lack nothing), all, empty
#   cluster.sh stop DIR          stops every daemon it started, by pid
#   cluster.sh kill-node DIR NODE    the node "loses power": its slurmd and
#                                    every job process it started, SIGKILL
#   cluster.sh start-node DIR NODE   starts that node's slurmd again
#
# No systemd and no cgroup delegation is needed: processes are tracked by
# parentage (proctrack/linuxproc), tasks are not confined (task/none), and
# there is no accounting database.  --lacking runs that node's slurmd in a
# mount namespace whose dpkg status file lacks PACKAGE, so jobs there see
# the package as not installed while nothing on the machine changes.
set -euo pipefail

say() { printf 'cluster.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# N+1 consecutive TCP ports nobody listens on.
free_ports() {
	local n=$1 base p used tries
	used=$(ss -Hltn 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
	for tries in $(seq 1 50); do
		base=$((20000 + RANDOM % 30000))
		for ((p = base; p <= base + n; p++)); do
			grep -qx "$p" <<<"$used" && continue 2
		done
		echo "$base"
		return 0
	done
	die "no $((n + 1)) free consecutive ports found after $tries tries"
}

# Partitions: debug (the default) holds the nodes that lack nothing, all
# holds every node, empty none.
write_conf() {
	local dir=$1 nodes=$2 port=$3 cpus mem n healthy=""
	for n in $(seq 1 "$nodes"); do
		[ -f "$dir/lacking/node$n.status" ] || healthy+=${healthy:+,}node$n
	done
	cpus=$(nproc)
	mem=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
	cat <<EOF
# Written by tests/fleet/cluster.sh for a test cluster on one host.
ClusterName=mmdelta-test
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$port
AuthType=auth/munge
CredType=cred/munge
# cred_expire is also how long a requeued job waits before it may start again
# (default 120 s); the fault test should not wait that long.
AuthInfo=socket=$(cat "$dir/run/munge-dir")/munge.sock,cred_expire=10
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.%n.log
PlugStackConfig=$dir/plugstack.conf
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=8
SchedulerParameters=sched_interval=2
MinJobAge=3600
NodeName=node[1-$nodes] NodeHostname=$(hostname) NodeAddr=127.0.0.1 Port=$((port + 1))-$((port + nodes)) CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$healthy Default=YES MaxTime=INFINITE State=UP
PartitionName=all Nodes=node[1-$nodes] MaxTime=INFINITE State=UP
PartitionName=empty MaxTime=INFINITE State=UP
EOF
}

# munged insists that everyone may reach its socket, through every
# directory above it: the socket gets a directory of its own in /tmp.
start_munge() {
	local dir=$1 sock
	mkdir -p "$dir/munge" "$dir/run"
	chmod 700 "$dir/munge"
	sock=$(mktemp -d /tmp/mmdelta-munge.XXXXXX)
	chmod 755 "$sock"
	echo "$sock" >"$dir/run/munge-dir"
	ln -sfn "$sock/munge.sock" "$dir/run/munge.sock"
	dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
	chmod 400 "$dir/munge/munge.key"
	munged --socket="$sock/munge.sock" --key-file="$dir/munge/munge.key" \
		--pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
		--seed-file="$dir/munge/seed" || die "munged did not start: $(tail -n 1 "$dir/log/munged.log")"
}

# A dpkg status file without PACKAGE, for a node that lacks it.
lacking_status() {
	awk -v p="$2" 'BEGIN { RS = ""; ORS = "\n\n" } $0 !~ "^Package: " p "\n"' \
		/var/lib/dpkg/status >"$1"
}

start_slurmd() {
	local dir=$1 node=$2 status
	mkdir -p "$dir/spool/$node"
	rm -f "$dir/run/slurmd.$node.pid"
	status=$dir/lacking/$node.status
	if [ -f "$status" ]; then
		# shellcheck disable=SC2016  # expanded by the inner sh
		unshare --mount --propagation private sh -c \
			'mount --bind "$1" /var/lib/dpkg/status && exec slurmd -f "$2" -N "$3"' \
			sh "$status" "$dir/slurm.conf" "$node"
	else
		slurmd -f "$dir/slurm.conf" -N "$node"
	fi || die "slurmd for $node did not start: $(tail -n 1 "$dir/log/slurmd.$node.log" 2>/dev/null)"
	wait_pidfile "$dir/run/slurmd.$node.pid"
}

wait_pidfile() {
	for _ in $(seq 1 100); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	die "no pid in $1 after 10 s"
}

# A zombie counts as gone: PID 1 here may be slow to reap it.
alive() {
	local stat
	stat=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $stat != Z* ]]
}

# Kill a daemon whose pid file is here, only if that pid is still ours:
# its command line names this cluster's directory.
stop_pidfile() {
	local dir=$1 file=$2 sig=${3:-TERM} pid
	pid=$(cat "$file" 2>/dev/null) || return 0
	[[ $pid =~ ^[0-9]+$ ]] || return 0
	if alive "$pid" && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/"; then
		kill "-$sig" "$pid" 2>/dev/null || true
		echo "$pid"
	fi
}

# The sessions of the job steps a node's slurmd started: each slurmstepd
# leads one, and its script lives in that node's spool directory.
node_job_sessions() {
	local dir=$1 node=$2 pid
	for pid in $(pgrep -f "$dir/spool/$node/" || true); do
		ps -o sid= -p "$pid" 2>/dev/null
	done | sort -u
}

cmd_start() {
	local dir=$1 nodes=4 owner="" n port; shift
	local -a lacking=()
	while [ $# -gt 0 ]; do
		case $1 in
		--nodes) nodes=$2; shift ;;
		--owner) owner=$2; shift ;;
		--lacking) lacking+=("$2"); shift ;;
		*) die "unknown option $1" ;;
		esac
		shift
	done
	[[ $nodes =~ ^[1-9]$ ]] || die "--nodes $nodes: 1 to 9"
	for n in slurmctld slurmd munged sinfo; do
		command -v "$n" >/dev/null || die "$n not found (apt-get install slurm-wlm munge)"
	done
	dir=$(realpath -m "$dir")
	mkdir -p "$dir/state" "$dir/log" "$dir/lacking"
	port=$(free_ports "$nodes")
	for n in "${lacking[@]}"; do lacking_status "$dir/lacking/${n%%:*}.status" "${n#*:}"; done
	export SLURM_CONF=$dir/slurm.conf
	# A cluster that does not come up whole is stopped again.
	STARTING=$dir
	trap 'cmd_stop "$STARTING"' EXIT
	start_munge "$dir"
	write_conf "$dir" "$nodes" "$port" >"$dir/slurm.conf"
	: >"$dir/plugstack.conf"
	slurmctld -f "$dir/slurm.conf" -i || die "slurmctld did not start: $(tail -n 1 "$dir/log/slurmctld.log")"
	wait_pidfile "$dir/run/slurmctld.pid"
	for n in $(seq 1 "$nodes"); do start_slurmd "$dir" "node$n"; done
	wait_idle "$dir" "$nodes"
	[ -z "$owner" ] || start_watchdog "$dir" "$owner"
	trap - EXIT
	echo "export SLURM_CONF=$dir/slurm.conf"
}

# Every node registered and idle, or give up after 30 s.
wait_idle() {
	local dir=$1 nodes=$2 idle=0
	for _ in $(seq 1 60); do
		alive "$(cat "$dir/run/slurmctld.pid")" || die "slurmctld stopped: $(tail -n 1 "$dir/log/slurmctld.log")"
		idle=$(SLURM_CONF=$dir/slurm.conf timeout 5 sinfo -h -p all -t idle -o '%D' 2>/dev/null || true)
		[ "${idle:-0}" = "$nodes" ] && return 0
		sleep 0.5
	done
	die "only ${idle:-0} of $nodes nodes became idle in 30 s (logs in $dir/log)"
}

start_watchdog() {
	local dir=$1 owner=$2 self
	self=$(realpath "${BASH_SOURCE[0]}")
	# shellcheck disable=SC2016  # expanded by the inner bash
	setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; exec "$2" stop "$3"' \
		watchdog "$owner" "$self" "$dir" </dev/null >/dev/null 2>&1 &
	echo $! >"$dir/run/watchdog.pid"
}

cmd_stop() {
	local dir f pid pids=()
	dir=$(realpath -m "$1")
	[ -d "$dir/run" ] || return 0
	for f in "$dir"/run/slurmd.*.pid; do
		[ -e "$f" ] || continue
		kill_node_jobs "$dir" "$(basename "$f" .pid | sed 's/^slurmd\.//')"
		pids+=("$(stop_pidfile "$dir" "$f")")
	done
	pids+=("$(stop_pidfile "$dir" "$dir/run/slurmctld.pid")")
	pids+=("$(stop_pidfile "$dir" "$dir/run/munged.pid")")
	f=$dir/run/munge-dir
	if [ -s "$f" ] && [[ $(cat "$f") == /tmp/mmdelta-munge.* ]]; then rm -rf "$(cat "$f")"; fi
	# What did not stop in 5 s is killed.
	for pid in "${pids[@]}"; do
		[ -n "$pid" ] || continue
		for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	done
	# The watchdog last: it may be the caller.
	f=$dir/run/watchdog.pid
	if [ -s "$f" ] && [ "$(cat "$f")" != "$PPID" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
	rm -f "$f"
}

kill_node_jobs() {
	local dir=$1 node=$2 sid
	for sid in $(node_job_sessions "$dir" "$node"); do
		pkill -KILL -s "$sid" 2>/dev/null || true
	done
}

cmd_kill_node() {
	local dir node=$2
	dir=$(realpath -m "$1")
	stop_pidfile "$dir" "$dir/run/slurmd.$node.pid" KILL >/dev/null
	kill_node_jobs "$dir" "$node"
}

cmd_start_node() {
	local dir
	dir=$(realpath -m "$1")
	start_slurmd "$dir" "$2"
}

case ${1:-} in
start) [ $# -ge 2 ] || die "start needs a directory"; shift; cmd_start "$@" ;;
stop) [ $# -eq 2 ] || die "stop needs a directory"; cmd_stop "$2" ;;
kill-node) [ $# -eq 3 ] || die "kill-node needs DIR NODE"; cmd_kill_node "$2" "$3" ;;
start-node) [ $# -eq 3 ] || die "start-node needs DIR NODE"; cmd_start_node "$2" "$3" ;;
*) die "usage: cluster.sh start|stop|kill-node|start-node DIR ..." ;;
esac
