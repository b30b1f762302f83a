# profile: `perf record -g` of the bench process over the timed region only,
# with `perf report --stdio` beside it: what the munlock thread got by
# attaching operf before releasing the benchmark.  Files only, no samples
# rows; opt-in, because sampling with call graphs costs time in the region.
# Each function's self share of the iteration's samples goes to
# NAME.TAG.self.tsv, which compare.sh --profile tests across runs.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_PROFILE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_PROFILE=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/perf.sh"  # perf_find, perf_hw_counters, perf_session_start, perf_session_stop, perf_user_only

# A profile of user space alone would miss the syscall it is for.
profile_available() {
	perf_find || { echo "no working perf (install linux-perf, or set MMDELTA_PERF)"; return 1; }
	! perf_user_only || return 1
}

profile_metrics() { :; }  # files only

# Without a PMU perf falls back to the cpu-clock timer; say so up front so
# the event is the same in every iteration.
profile_event() {
	if [ "$(perf_hw_counters)" = available ]; then echo cycles; else echo cpu-clock; fi
}

# 20 kHz rather than perf's 4 kHz: a munlock of a few milliseconds should
# still leave enough samples to show its path.  The price: on this VM a 4 GiB
# munlock takes 3.6 times as long profiled (docs/monitors.md).
profile_start() {
	perf_session_start profile "$MONITOR_FIFO" "$1.log" \
		record -g -F 20000 -e "$(profile_event)" -p "$2" -o "$1.data"
}

# perf record writes its data 0600; the run's files take the umask's modes.
profile_stop() {
	perf_session_stop profile
	[ ! -e "$1.data" ] || chmod "$RUN_FILE_MODE" "$1.data"
}

# Top symbols, kernel and user, flat: the table to read first.  The call
# graphs stay in NAME.TAG.data for `perf report -i`.
profile_parse() {
	[ -s "$1.data" ] || return 1
	"$PERF" report --stdio -i "$1.data" --no-children --sort dso,symbol \
		--percent-limit 0.5 -g none >"$1.txt" 2>>"$1.log" || return 1
	profile_self "$1"
}

# function<TAB>percent of the samples, self, every function, clones folded
# into the function they were cloned from as the insns monitor does
# (reports/profile/reduce.c); the event and the sample count in # lines.
profile_self() {
	"$PERF" report --stdio -i "$1.data" --no-children --sort symbol --percent-limit 0 -g none 2>>"$1.log" |
		awk -v ev="$(profile_event)" '
			/^# Samples: / { n = $3 }
			/^ *[0-9.]+%/ { p = $1; sub(/%$/, "", p); f = $3; if (f !~ /^\[/) sub(/\..*/, "", f); s[f] += p }
			END { printf "# event: %s\n# samples: %s\n", ev, n
				for (f in s) printf "%s\t%.4f\n", f, s[f] | "sort -t \"\t\" -k2,2gr -k1,1"
				close("sort -t \"\t\" -k2,2gr -k1,1") }' >"$1.self.tsv"
}

profile_describe() { :; }
