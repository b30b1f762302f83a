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

# Where element ID of PAGE ends, in CSS pixels from the top, laid out in a
# 1280 x 900 window: a copy of the page beside it (so that its plots load)
# gets a script that writes the element's bottom edge into the body once
# the page has loaded.  Empty when there is no such element.
element_bottom() {	# element_bottom PAGE ID
	local copy
	copy=$(mktemp "${1%/*}/.measure.XXXXXX.html")
	sed "s|</body>|<script>window.addEventListener('load', function () { var e = document.getElementById('$2'); if (e) document.body.setAttribute('data-bottom', Math.ceil(e.getBoundingClientRect().bottom + window.scrollY)); });</script></body>|" "$1" >"$copy"
	chromium_headless --window-size=1280,900 --virtual-time-budget=10000 --dump-dom "file://$copy" |
		sed -n 's/.*data-bottom="\([0-9]*\)".*/\1/p'
	rm -f "$copy"
}
