# An option's value is the word after it, unless that word is missing or is
# itself an option: `--gate --junit x.xml` must not take --junit as the
# percentage and x.xml as a run.  docs/errors.md lists the lines.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CORE_OPTVALUE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CORE_OPTVALUE=1

source "${BASH_SOURCE[0]%/*}/log.sh"  # die

# opt_value OPT WHAT [NEXT]: NEXT, the word after OPT ("${@:2:1}" at the
# caller), is there and is not an option.  A lone "-" is a value, and so is
# a negative number, which the option's own check then judges.
opt_value() {
	(($# >= 3)) || die "$1 needs $2"
	[[ $3 != -?* || $3 =~ ^-[0-9.]+$ ]] || die "$1 $3: expected $2"
}

# opt_number OPT WHAT REGEX VALUE: a value of OPT that must be a number; a
# run or bench name where the number should be gets the same line.
opt_number() {
	[[ $4 =~ $3 ]] || die "$1 $4: expected $2"
}
