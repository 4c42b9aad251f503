#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-percpu and the bench scripts refuse bad input with one clear line and status 2.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-percpu
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built (make bench-tests)"; exit 1; }

bad() { # bad REGEX ARGS...: exit 2, one line on stderr matching REGEX
	local err rc
	err=$("$bin" "${@:2}" 2>&1 >/dev/null); rc=$?
	is "$rc:$(wc -l <<<"$err")" "2:1" "lab-percpu $* fails with one line"
	like "$err" "$1" "... saying why ($1)"
}
bad "unknown method 'nope'" --method nope
bad "--threads \(each count\) must be a number from 1" --threads 0
bad "--threads \(each count\) must be a number" --threads 1,x
bad "unknown disturbance 'wobble'" --disturb wobble
bad "--reps must be a number" --reps many
bad "--signal-us must be a number from 10" --signal-us 1
bad "bad option '--frobnicate'" --frobnicate
bad "unexpected argument 'extra'" extra
bad "--cpu must be a number from 0" --cpu 4000

err=$("$LAB/scripts/bench-host" --only nothing 2>&1); rc=$?
ok $([ $rc -ne 0 ] && [ "$(wc -l <<<"$err")" -eq 1 ]; echo $?) "bench-host --only nothing: one-line error"
like "$err" "--only takes cpu-read or percpu" "... saying what --only takes"
like "$("$bin" --list)" "^counter-rseq +counter" "--list names the strategies"
done_testing
