#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-percpu and the bench scripts refuse bad input with one clear line and status 2.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu

bad "unknown method 'nope'" --method nope
bad "--threads \(each count\) must be a number from 1" --threads 0
bad "--threads \(each count\) must be a number" --threads 1,x
bad "unknown disturbance 'wobble'" --disturb wobble
bad "--reps must be a number" --reps many
bad "--signal-us must be a number from 10" --signal-us 1
bad "bad option '--frobnicate'" --frobnicate
bad "unexpected argument 'extra'" extra
bad "--cpu must be a number from 0" --cpu 4000

err=$("$LAB/scripts/bench-run" host nothing 2>&1); rc=$?
ok $([ $rc -ne 0 ] && [ "$(wc -l <<<"$err")" -eq 1 ]; echo $?) "bench-run host nothing: one-line error"
like "$err" "no bench .nothing. with a guest: command" "... saying what a bench is"
like "$("$bin" --list)" "^counter-rseq +counter" "--list names the strategies"
done_testing
