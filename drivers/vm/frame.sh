# Results framing on the guest's second serial port (ttyS1), both ends.
# The guest sends its results directory as a gzipped tar in base64 between
# two marker lines, then a completion marker with run.sh's exit status:
#
#   MMDELTA-RESULTS-BEGIN
#   <base64 lines>
#   MMDELTA-RESULTS-END <bytes> <sha256>
#   MMDELTA-DONE <status>
#
# The markers contain '-', which base64 never does, and the size and
# checksum catch anything that got into or out of the stream.  The DONE
# line is the only proof that the guest finished: qemu exits 0 on a panic.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_FRAME:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_FRAME=1

source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say

# Guest side: frame_send DEVICE STATUS DIR ENTRY...
frame_send() {
	local dev=$1 status=$2 dir=$3 tgz sum size; shift 3
	tgz=$(mktemp)
	tar -czf "$tgz" -C "$dir" "$@"
	sum=$(sha256sum <"$tgz")
	size=$(wc -c <"$tgz")
	# raw: no CR added to the newlines; -echo: nothing comes back.
	stty -F "$dev" raw -echo 2>/dev/null || true
	{
		echo
		echo MMDELTA-RESULTS-BEGIN
		base64 "$tgz"
		echo "MMDELTA-RESULTS-END $size ${sum%% *}"
		echo "MMDELTA-DONE $status"
	} >"$dev"
	rm -f "$tgz"
}

# Host side: the guest run.sh's status from the DONE line, or nothing.
frame_status() {
	tr -d '\r' <"$1" | awk '$1 == "MMDELTA-DONE" { s = $2 } END { if (s != "") print s }'
}

# Host side: frame_receive SERIAL_FILE DEST unpacks the frame into DEST, or
# says what is wrong with it and returns 1.
frame_receive() {
	local file=$1 dest=$2 tgz end size sum
	tgz=$(mktemp)
	tr -d '\r' <"$file" | awk '/^MMDELTA-RESULTS-BEGIN$/ { on = 1; next }
		/^MMDELTA-RESULTS-END / { exit } on' | base64 -d >"$tgz" 2>/dev/null || true
	end=$(tr -d '\r' <"$file" | awk '$1 == "MMDELTA-RESULTS-END" { print $2, $3; exit }')
	read -r size sum <<<"$end"
	if [ -z "$end" ] || [ "$(wc -c <"$tgz")" != "$size" ] ||
		[ "$(sha256sum <"$tgz" | cut -d' ' -f1)" != "$sum" ]; then
		rm -f "$tgz"
		say "the results frame on ttyS1 is incomplete or corrupt"
		return 1
	fi
	mkdir -p "$dest"
	tar -xzf "$tgz" -C "$dest" || { rm -f "$tgz"; say "the results archive from the guest does not unpack"; return 1; }
	rm -f "$tgz"
}
