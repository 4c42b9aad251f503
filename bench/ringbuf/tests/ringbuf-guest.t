#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ringbuf in guests: on rseq-y every strategy is exact under 6 x NCPU disturbed threads; on
# rseq-n the rseq row is skipped with ENOSYS, the others still run, and a short bench run
# through bench/ringbuf/run writes a run directory whose rseq row says ENOSYS.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
guest_tier "kernel images (rseq-y, rseq-n)"
n=$("$BUILD/guest/bin/lab-ringbuf" --list | wc -l)

if require_image --part rseq-y; then
	guest_check rseq-y "$n" "all $n strategies exact under yield,migrate,signal" \
		lab-ringbuf --check --check-ops 4000
else
	skip "no rseq-y image" "rseq-y check"; skip "no rseq-y image" "rseq-y exact"
fi
if require_image --part rseq-n; then
	guest_check rseq-n "$n" "the other rows run and pass, the rseq one skips" \
		lab-ringbuf --check --check-ops 5000
	is "$(grep -c '# SKIP ENOSYS' <<<"$out")" 1 "rseq-n: the rseq row skips with ENOSYS"
	guest_run_enosys ringbuf ringbuf-rseq ringbuf-getcpu-atomic --reps 1 --duration 5 --threads 1
else
	for i in 1 2 3 4 5 6; do skip "no rseq-n image" "rseq-n $i"; done
fi
done_testing
