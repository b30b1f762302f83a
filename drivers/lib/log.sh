# Messages.  Everything for the user goes to stderr; stdout stays free for
# machine-readable output (--dry-run).
# shellcheck shell=bash

say() { printf 'mmdelta: %s\n' "$*" >&2; }
die() { printf 'mmdelta: %s\n' "$*" >&2; exit "${DIE_STATUS:-1}"; }
