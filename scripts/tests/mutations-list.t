#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The mutation runner's list stays usable as the code moves: every block's text is in its file
# exactly once and the tests it names exist (scripts/mutate --check-list), and a block whose
# text is gone is reported as stale, by name, with status 1.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
out=$("$LAB/scripts/mutate" --check-list 2>&1); rc=$?
is "$rc" 0 "every mutation of scripts/mutations applies to today's code"
[ "$rc" -eq 0 ] || diag "$out"
n=$(sed -n 's/^\([0-9]*\) mutations, .*/\1/p' <<<"$out")
ok $([ "${n:-0}" -ge 80 ]; echo $?) "at least 80 of them (${n:-none})"
{ cat "$LAB/scripts/mutations"; printf '\nid: gone\narea: lib\nfile: lib/stats.c\nfrom: no such text anywhere\nto: x\ntests: scripts/tests/mutations-list.t\n'; } > "$t/list"
out=$(MUTATIONS=$t/list "$LAB/scripts/mutate" --check-list 2>&1); rc=$?
is "$rc" 1 "a block whose text is gone: status 1"
like "$out" "^stale: gone: its text is 0 times in lib/stats.c$" "... naming it"
done_testing
