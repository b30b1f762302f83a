# Run directories as run.sh writes them, made up for the history tests: a
# series of nightly runs whose timedmunlock elapsed has a planted level
# (seeded noise), without spending minutes measuring.  One awk writes them
# all: a process per file would make these tests slow.
# shellcheck shell=bash

FAKE_T0=1798000000	# the first night
FAKE_DT=86400		# one run a night; negative: runs named later started earlier

# fake_runs ROOT FIRST LAST STEP_AT BEFORE AFTER [IMAGE_PREFIX]: complete runs
# night-FIRST .. night-LAST, 5 samples each of elapsed (CoeffVar ~1.4% and a
# run-to-run offset of up to 0.5%) and pages; elapsed is BEFORE until run
# STEP_AT, AFTER from it on.  With IMAGE_PREFIX, --kernel runs under icount
# (no noise: the clock counts instructions) from images IMAGE_PREFIX-N.
fake_runs() {
	local root=$1 first=$2 last=$3 at=$4 before=$5 after=$6 images=${7:-} i
	for ((i = first; i <= last; i++)); do
		printf '%s/night-%02d/timedmunlock\n' "$root" "$i"
	done | xargs mkdir -p
	for ((i = first; i <= last; i++)); do
		printf '@%d\n@%d\n' $((FAKE_T0 + i * FAKE_DT)) $((FAKE_T0 + i * FAKE_DT + 60))
	done | date -u -f - -Is | awk -v root="$root" -v first="$first" -v at="$at" -v before="$before" \
		-v after="$after" -v images="$images" '
		NR % 2 == 1 { start = $0; next }
		{
			i = first + (NR / 2) - 1; name = sprintf("night-%02d", i); d = root "/" name
			m = i < at ? before : after
			meta = d "/meta"
			print "name: " name > meta
			print "status: complete" > meta
			print "start_time: " start > meta
			print "command: ./run.sh -n " name " timedmunlock" > meta
			print "configs: timedmunlock " > meta
			print "kernel_release: 6.1.0-" i > meta
			print "kernel_version: #1 SMP Debian 6.1." i "-1" > meta
			print "hostname: labhost" > meta
			if (images != "") {
				print "vm: qemu" > meta
				print "vm_image: " images "-" i > meta
				print "vm_qemu_version: 7.2.0" > meta
				print "vm_clock: icount" > meta
				print "vm_host: builder" > meta
			}
			print "suite_version: test" > meta
			print "end_time: " $0 > meta
			close(meta)
			f = d "/timedmunlock/metrics.tsv"
			printf "elapsed\tElapsed\ts\tlower\npages\tPages\tcount\tlower\n" > f; close(f)
			f = d "/timedmunlock/config"
			printf "BENCH=timedmunlock\nITERATIONS=5\nSIZE=1G\nTHP=never\ncommand: bench/timedmunlock --size 1073741824\n" > f
			close(f)
			f = d "/timedmunlock/samples.tsv"
			srand(i); print "metric\tparam\titeration\tvalue" > f
			run = images != "" ? 0 : (rand() - 0.5) * 0.01 * m
			for (j = 1; j <= 5; j++) {
				# a sum of 4 uniforms: near-normal noise
				e = images != "" ? 0 : (rand() + rand() + rand() + rand() - 2) * 0.017 * m
				printf "elapsed\t-\t%d\t%.9g\npages\t-\t%d\t262144\n", j, m + run + e, j > f
			}
			close(f)
		}'
}

# fake_series ROOT N STEP_AT BEFORE AFTER [IMAGE_PREFIX]: runs night-01 .. night-N.
fake_series() { fake_runs "$1" 1 "$2" "${@:3}"; }
