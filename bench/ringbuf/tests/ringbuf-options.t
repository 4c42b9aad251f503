#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ringbuf and bench/ringbuf/run refuse bad input with one clear line and status 2, and
# write nothing to data/.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-ringbuf

bad "unknown method 'nope'" --method nope
bad "--threads \(each count\) must be a number" --threads 0
bad "--threads needs at least one count" --threads ,
bad "--subbuf must be a power of two" --subbuf 1000
bad "--subbufs must be a power of two" --subbufs 3
bad "unknown disturbance 'wobble'" --disturb wobble
bad "bad option '--frobnicate'" --frobnicate
bad "unexpected argument 'extra'" extra

run_refuses "$LAB/bench/ringbuf/run" host --reps zero
like "$("$bin" --list)" "^ringbuf-rseq " "--list names the strategies"
done_testing
