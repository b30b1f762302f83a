# Headless Chromium as the HTML report tests drive it: a fresh profile per
# call, no GPU, no background traffic, and every host name unresolvable, so
# that a page which needed the network would show broken images.
# shellcheck shell=bash

chromium_headless() {
	local profile rc=0
	profile=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-chromium.XXXXXX")
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars "$@" 2>"$profile.log" || rc=$?
	[ "$rc" -eq 0 ] || cat "$profile.log" >&2
	rm -rf "$profile" "$profile.log"
	return "$rc"
}

# The page's DOM after its load handler ran (the virtual time budget lets
# images load and the handler mark them before the dump).
dump_dom() {
	chromium_headless --virtual-time-budget=10000 --dump-dom "file://$1"
}

screenshot() {
	chromium_headless --window-size=1400,2000 --screenshot="$2" "file://$1" >/dev/null
}

# A real PNG: the signature, then an IHDR chunk.
is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(head -c 16 "$1" | tail -c 4)" = IHDR ]
}
