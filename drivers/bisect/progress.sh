# A kernel build's progress while it runs.  A build is silent for minutes
# (make -s says nothing; a full one takes a quarter of an hour on two
# cores), so while it runs bisect.sh and series.sh say how long it has
# taken, how many objects it has compiled so far (the .o files newer than
# its start, in the tree or make's O= directory: make -s or not) and the
# last line make wrote.  To a terminal that is one line rewritten in place
# every 2 s; to a log, a line every 30 s
# (MMDELTA_BUILD_PROGRESS_SECONDS sets either).  The build's whole output
# is its log, WORK/build-LABEL.log.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_PROGRESS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_PROGRESS=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/../run/dryrun.sh"  # dry_duration

# The objects compiled since STAMP under DIR (.git left out: it is large
# and holds none).
progress_objects() {
	find "$1" -path "$1/.git" -prune -o -name '*.o' -newer "$2" -print 2>/dev/null | wc -l
}

# progress_line LABEL LOG DIR STAMP T0: what the build of LABEL has done.
progress_line() {
	local last
	last=$(tail -n 1 "$2" 2>/dev/null | tr -s ' \t' '  ' | sed 's/^ //')
	printf '%s: building %s: %s, %d .o files%s' "$BISECT_SAY" "$1" \
		"$(dry_duration $((SECONDS - $5)))" "$(progress_objects "$3" "$4")" "${last:+; make: $last}"
}

# progress_start LABEL LOG DIR STAMP: report the build's progress in the
# background (BISECT_WATCH) until progress_stop.
progress_start() {
	local every=${MMDELTA_BUILD_PROGRESS_SECONDS:-30} tty=0 cols=80 t0=$SECONDS
	if [ -t 2 ]; then
		tty=1 every=${MMDELTA_BUILD_PROGRESS_SECONDS:-2}
		cols=$(stty size <&2 2>/dev/null | cut -d' ' -f2) || true
		[[ $cols =~ ^[1-9][0-9]*$ ]] || cols=80
	fi
	(
		nap=""
		trap 'kill "$nap" 2>/dev/null; exit 0' TERM
		while :; do
			# its output closed: a sleep left behind holds no caller's pipe
			sleep "$every" >/dev/null 2>&1 &
			nap=$!
			wait "$nap"
			line="mmdelta: $(progress_line "$@" "$t0")"
			# one line rewritten in place: cut to the terminal's width, or it wraps
			if [ "$tty" = 1 ]; then printf '\r\033[K%s' "${line:0:cols-1}" >&2; else echo "$line" >&2; fi
		done
	) &
	BISECT_WATCH=$!
	BISECT_WATCH_TTY=$tty
}

# Stop the progress reports; on a terminal, clear the line they rewrote.
progress_stop() {
	[ -n "$BISECT_WATCH" ] || return 0
	kill "$BISECT_WATCH" 2>/dev/null || true
	wait "$BISECT_WATCH" 2>/dev/null || true
	BISECT_WATCH=""
	[ "$BISECT_WATCH_TTY" = 0 ] || printf '\r\033[K' >&2
}
