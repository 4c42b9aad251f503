#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-alloc and bench/alloc/run refuse bad input with one clear line and status 2, and
# write nothing to data/.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-alloc

bad "unknown method 'nope'" --method nope
bad "--threads \(each count\) must be a number" --threads 0
bad "unknown workload 'batch'" --workload batch
bad "--burst must be a number from 1" --burst 0
bad "--req-threads \\(each count\\) must be a number" --req-threads x
bad "unknown disturbance 'wobble'" --disturb wobble
bad "bad option '--frobnicate'" --frobnicate
bad "unexpected argument 'extra'" extra

run_refuses "$LAB/bench/alloc/run" host --reps zero
like "$("$bin" --list)" "^alloc-rseq " "--list names the strategies"
done_testing
