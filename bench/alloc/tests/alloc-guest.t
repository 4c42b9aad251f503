#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-alloc in guests: on rseq-y every strategy and workload is exact under 6 x NCPU disturbed threads; on
# rseq-n the rseq row is skipped with ENOSYS, the others still run, and a short bench run
# through bench/alloc/run writes a run directory whose rseq row says ENOSYS.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
guest_tier "kernel images (rseq-y, rseq-n)"
n=$("$BUILD/guest/bin/lab-alloc" --list | wc -l)

if require_image --part rseq-y; then
	guest_check rseq-y "$((2 * n))" "all $n strategies x 2 workloads exact under yield,migrate,signal" \
		lab-alloc --check --check-ops 2000
else
	skip "no rseq-y image" "rseq-y check"; skip "no rseq-y image" "rseq-y exact"
fi
if require_image --part rseq-n; then
	guest_check rseq-n "$((2 * n))" "the other rows run and pass, the rseq ones skip" \
		lab-alloc --check --check-ops 1000
	is "$(grep -c "# SKIP ENOSYS" <<<"$out")" 2 "rseq-n: the rseq rows (pair, request) skip with ENOSYS"
	guest_run_enosys alloc alloc-rseq alloc-getcpu-cas --reps 1 --duration 5 --threads 1 --req-threads 1
else
	for i in 1 2 3 4 5 6; do skip "no rseq-n image" "rseq-n $i"; done
fi
done_testing
