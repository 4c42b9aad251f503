#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The mutation runner's list stays usable as the code moves: every block's text is in its file
# exactly once and the tests it names exist (scripts/mutate --check-list), and a block whose
# text is gone is reported as stale, by name, with status 1. An id asked for that the list
# does not have is one line and status 1, before any clone or build.
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
out=$(BUILD=$t/build "$LAB/scripts/mutate" ab-holm-factor no-such-mutation 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:1" "an id the list does not have: status 1, one line"
like "$out" "^error: no mutation 'no-such-mutation' in " "... naming it"
ok $([ ! -e "$t/build/mutants" ]; echo $?) "... and nothing cloned"
done_testing
