#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ringbuf and bench/ringbuf/run refuse bad input with one clear line and status 2, and
# write nothing to data/.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-ringbuf
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

bad() { # bad REGEX ARGS...: exit 2, one line on stderr matching REGEX
	local err rc
	err=$("$bin" "${@:2}" 2>&1 >/dev/null); rc=$?
	is "$rc:$(wc -l <<<"$err")" "2:1" "lab-ringbuf ${*:2} fails with one line"
	like "$err" "$1" "... saying why ($1)"
}
bad "unknown method 'nope'" --method nope
bad "--threads \(each count\) must be a number" --threads 0
bad "--subbuf must be a power of two" --subbuf 1000
bad "--subbufs must be a power of two" --subbufs 3
bad "unknown disturbance 'wobble'" --disturb wobble
bad "bad option '--frobnicate'" --frobnicate
bad "unexpected argument 'extra'" extra

err=$(DATA=$t/data "$LAB/bench/ringbuf/run" host --reps zero 2>&1); rc=$?
is "$rc:$(wc -l <<<"$err")" "2:1" "run host --reps zero: status 2, one line"
is "$(ls -A "$t/data" 2>/dev/null | wc -l)" 0 "... and nothing in data/"
like "$("$bin" --list)" "^ringbuf-rseq " "--list names the strategies"
done_testing
