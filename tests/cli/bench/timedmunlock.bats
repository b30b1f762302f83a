#!/usr/bin/env bats
# bench/timedmunlock run directly: what it reports besides elapsed.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

B=$ROOT/build/bin/timedmunlock

metric() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' <<<"$output"; }

# FIELD of /proc/PID/status, in kB.
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }

@test "munlock_cpu and elapsed are the timed region's, as the scheduler counted it, from both sides" {
	[ -r /proc/self/schedstat ] || skip "no /proc/PID/schedstat in this kernel"
	trigger_start "$B" --size 64M
	pid=$TRIG_PID
	# the thread's ns on a CPU and waiting for one, asleep at ready and at done
	wait_asleep "$pid"
	read -r cpu0 wait0 _ <"/proc/$pid/task/$pid/schedstat"
	trigger_region
	wait_asleep "$pid"
	read -r cpu1 wait1 _ <"/proc/$pid/task/$pid/schedstat"
	trigger_finish
	output=$TRIG_OUT
	[ "$(metric pages)" -eq 16384 ]
	echo "munlock_cpu $(metric munlock_cpu) elapsed $(metric elapsed); region: cpu $((cpu1 - cpu0)) ns, waiting $((wait1 - wait0)) ns"
	awk -v c="$(metric munlock_cpu)" -v e="$(metric elapsed)" -v cpu=$((cpu1 - cpu0)) -v wait=$((wait1 - wait0)) '
		BEGIN { c *= 1e9; e *= 1e9
			# the CPU clock reads are inside the region, and all of its
			# CPU but the trigger and clock calls (~50 us) is between them
			cpu_ok = c > 0 && c <= cpu + 1000 && cpu - c < 1e6
			# on a CPU or waiting for one all through the munlock:
			# nothing in the timed region sleeps
			wall_ok = c <= e * 1.01 && e <= cpu + wait + 1e6
			exit !(cpu_ok && wall_ok) }'
}

@test "the teardown stays outside the timed region: at done the area is unlocked and still mapped" {
	trigger_start "$B" --size 64M
	pid=$TRIG_PID
	wait_asleep "$pid"
	locked0=$(status_kb "$pid" VmLck) size0=$(status_kb "$pid" VmSize)
	trigger_region
	[[ $TRIG_STATE == "done $pid" ]]
	wait_asleep "$pid"
	locked1=$(status_kb "$pid" VmLck) size1=$(status_kb "$pid" VmSize)
	trigger_finish
	echo "VmLck $locked0 -> $locked1 kB, VmSize $size0 -> $size1 kB"
	[ "$locked0" -ge 65536 ] && [ "$locked1" -eq 0 ]
	[ "$size1" -eq "$size0" ]
	output=$TRIG_OUT
	[ -n "$(metric munmap_elapsed)" ]
}
