#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad options to lab-cpuread (and through scripts/bench-host) give a one-line usage error,
# exit status 2, and write nothing.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built"; exit 1; }

# bad WHAT REGEX ARGS...: the error is one line on stderr naming the problem, status 2.
bad() {
	local what=$1 re=$2 rc; shift 2
	"$bin" --out "$t" "$@" >"$t/.out" 2>"$t/.err"; rc=$?
	is "$rc" 2 "$what: exit status 2"
	is "$(wc -l < "$t/.err")" 1 "$what: one line on stderr"
	like "$(cat "$t/.err")" "$re.*usage: lab-cpuread" "$what: says why, then the usage"
	rm -f "$t/.out" "$t/.err"
}
bad "unknown method" "unknown method 'nosuch'" --method empty,nosuch
bad "zero reps" "--reps must be a number from 1" --reps 0
bad "negative duration" "--duration \(ms\) must be a number from 1.*not '-5'" --duration -5
bad "non-numeric reps" "--reps must be a number" --reps five
bad "unknown option" "bad option '--frobnicate'" --frobnicate
bad "stray argument" "unexpected argument 'extra'" extra
is "$(ls -A "$t")" "" "nothing written for a bad option"

out=$(DATA=$t/data "$LAB/scripts/bench-host" --reps 0 2>&1); rc=$?
is "$rc" 2 "bench-host passes the usage error's status through"
is "$(printf '%s\n' "$out" | wc -l)" 1 "bench-host: one line"
is "$(ls -A "$t/data" 2>/dev/null)" "" "bench-host leaves no run directory"
done_testing
