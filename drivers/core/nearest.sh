# "did you mean": the names nearest a mistyped one, by edit distance
# (Levenshtein: one insertion, deletion or substitution each), for the
# lines that refuse an unknown bench, config or run.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CORE_NEAREST:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CORE_NEAREST=1

# nearest_names WORD NAME...: the NAMEs nearest WORD, blank-separated, at
# most three: those at the least distance, if it is small for WORD's length
# (at most a third of it, and 2 for any word), else those holding WORD
# (four letters or more) as a part, as "munlock" is of timedmunlock.  Case
# is ignored.  Nothing when none is near.
nearest_names() {
	local word=$1
	shift
	printf '%s\n' "$@" | awk -v w="$word" '
		function dist(a, b,    i, j, la, lb, c, d, prev, cur) {
			la = length(a); lb = length(b)
			for (j = 0; j <= lb; j++) prev[j] = j
			for (i = 1; i <= la; i++) {
				cur[0] = i
				for (j = 1; j <= lb; j++) {
					c = prev[j - 1] + (substr(a, i, 1) != substr(b, j, 1))
					d = prev[j] + 1; if (d < c) c = d
					d = cur[j - 1] + 1; if (d < c) c = d
					cur[j] = c
				}
				for (j = 0; j <= lb; j++) prev[j] = cur[j]
			}
			return prev[lb]
		}
		BEGIN { w = tolower(w); limit = int(length(w) / 3); if (limit < 2) limit = 2; best = limit + 1 }
		NF {
			d = dist(w, tolower($0))
			if (d < best) { best = d; n = 0 }
			if (d == best) near[++n] = $0
			if (length(w) >= 4 && index(tolower($0), w)) part[++p] = $0
		}
		END {
			if (best <= limit) for (i = 1; i <= n && i <= 3; i++) out = out (i > 1 ? " " : "") near[i]
			else for (i = 1; i <= p && i <= 3; i++) out = out (i > 1 ? " " : "") part[i]
			if (out != "") print out
		}'
}

# did_you_mean WORD NAME...: "did you mean A or B? " for a message, or
# nothing.
did_you_mean() {
	local near
	near=$(nearest_names "$@")
	[ -z "$near" ] || printf 'did you mean %s? ' "${near// / or }"
}
