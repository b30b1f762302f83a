#!/bin/bash
# A stand-in for run.sh --kernel in the bisect.sh tests (MMDELTA_BISECT_RUNNER):
# no VM; the run directory it writes holds the figures FAKE_FIGURES gives
# the image, one line "RELEASE<TAB>SPEC" (the release in the fake image's
# version string, which survives a copy), where SPEC is
#   MEAN[:SPREAD]   values alternate MEAN+SPREAD, MEAN-SPREAD (timedmunlock's elapsed)
#   noboot          the run fails as a kernel that panics does (phase vm boot)
#   qemu=VERSION    a run under another qemu, MEAN 10
#   sleep           never finishes (for the interrupt tests); its pid goes to FAKE_CALLS.pid
# With FAKE_METRIC=NAME the figures are those of NAME, a counter the
# mmaplock monitor records, and elapsed is 10 for every image.
# Each call appends "LABEL RELEASE ITERATIONS" to FAKE_CALLS (and
# " --monitors X" when given), and "LABEL N" to FAKE_CALLS.overlap, N the
# runs in progress when it started (itself included); with
# FAKE_WAIT_FOR=LABEL it finishes only once that run has started (failing
# after 60 s), which two runs at once do and two in a row never do.  With
# --monitors naming insns, or MMDELTA_INSNS=1, it writes the insns
# monitor's tables: MEAN in ns as instructions, 1000 of them in fake_step
# for each whole unit of MEAN.  Given --slurm
# (bisect.sh --slurm), it stands in for run.sh --slurm --wait: it insists on
# --wait, takes FAKE_SECONDS to finish, and appends "LABEL START END" (epoch
# seconds) and the --slurm-opt values to FAKE_CALLS.slurm.
set -euo pipefail
: "${FAKE_CALLS:?the test sets FAKE_CALLS}" "${FAKE_FIGURES:?the test sets FAKE_FIGURES}"

image="" out="" name="" iter=2 slurm="" wait=0 opts="" monitors=""
while [ $# -gt 0 ]; do
	case $1 in
	--slurm) slurm=1 ;;
	--wait) wait=1 ;;
	--slurm-opt) opts+=" $2"; shift ;;
	--kernel) image=$2; shift ;;
	-o) out=$2; shift ;;
	-n) name=$2; shift ;;
	-i) iter=$2; shift ;;
	--monitors) monitors=$2; shift ;;
	--set | --vm-*) shift ;;
	esac
	shift
done
release=$(dd if="$image" bs=1 skip=768 count=64 2>/dev/null | tr '\0' '\n' | awk 'NR == 1 { print $1 }')
echo "$name $release $iter${monitors:+ --monitors $monitors}" >>"$FAKE_CALLS"
mkdir -p "$FAKE_CALLS.running" "$FAKE_CALLS.started"
mkdir -p "$FAKE_CALLS.running/$name" "$FAKE_CALLS.started/$name"
trap 'rmdir "$FAKE_CALLS.running/$name"' EXIT
echo "$name $(find "$FAKE_CALLS.running" -mindepth 1 -maxdepth 1 | wc -l)" >>"$FAKE_CALLS.overlap"
if [ -n "${FAKE_WAIT_FOR:-}" ] && [ "$FAKE_WAIT_FOR" != "$name" ]; then
	for _ in $(seq 600); do [ ! -d "$FAKE_CALLS.started/$FAKE_WAIT_FOR" ] || break; sleep 0.1; done
	[ -d "$FAKE_CALLS.started/$FAKE_WAIT_FOR" ] || { echo "mmdelta: $FAKE_WAIT_FOR never ran beside $name"; exit 1; }
fi
if [ -n "$slurm" ]; then
	[ "$wait" = 1 ] || { echo "mmdelta: --slurm without --wait"; exit 1; }
	start=$(date +%s.%N)
	sleep "${FAKE_SECONDS:-0}"
	echo "$name $start $(date +%s.%N)$opts" >>"$FAKE_CALLS.slurm"
fi
spec=$(awk -F'\t' -v r="$release" '$1 == r { print $2 }' "$FAKE_FIGURES")
qemu=7.2.22
case $spec in
noboot)
	mkdir -p "$out/.$name.partial"
	printf 'status: failed\nphase: vm boot\n' >"$out/.$name.partial/meta"
	echo "mmdelta: the guest kernel panicked: Kernel panic - not syncing: fake"
	exit 1 ;;
sleep) echo $$ >"$FAKE_CALLS.pid"; exec sleep 600 ;;
qemu=*) qemu=${spec#qemu=} spec=10 ;;
esac
mean=${spec%%:*} spread=0
[[ $spec != *:* ]] || spread=${spec#*:}
rm -rf "${out:?}/$name"
mkdir -p "$out/$name/timedmunlock"
printf 'status: complete\nvm: qemu\nvm_clock: icount\nvm_qemu_version: %s\nvm_cpu_model: qemu64\nkernel_release: %s\n' \
	"$qemu" "$release" >"$out/$name/meta"
printf 'elapsed\tElapsed\ts\tlower\n' >"$out/$name/timedmunlock/metrics.tsv"
[ -z "${FAKE_METRIC:-}" ] || printf '%s\t%s\tcount\tnone\tmmaplock\n' "$FAKE_METRIC" "$FAKE_METRIC" >>"$out/$name/timedmunlock/metrics.tsv"
awk -v n="$iter" -v m="$mean" -v s="$spread" -v fm="${FAKE_METRIC:-}" 'BEGIN { print "metric\tparam\titeration\tvalue"
	for (i = 1; i <= n; i++) {
		v = m + (i % 2 ? s : -s)
		if (fm == "") printf "elapsed\t-\t%d\t%.17g\n", i, v
		else printf "elapsed\t-\t%d\t10\n%s\t-\t%d\t%.17g\n", i, fm, i, v
	} }' >"$out/$name/timedmunlock/samples.tsv"
if [[ ,$monitors, == *,insns,* || ${MMDELTA_INSNS:-0} == 1 ]]; then
	mkdir -p "$out/$name/timedmunlock/monitors"
	for ((i = 1; i <= iter; i++)); do
		awk -v m="$mean" 'BEGIN { s = int(m) * 1000; printf "fake_base\t%.0f\nfake_step\t%.0f\n[user]\t9\n", m * 1e9 - s - 9, s }' \
			>"$out/$name/timedmunlock/monitors/insns.$i.tsv"
	done
fi
