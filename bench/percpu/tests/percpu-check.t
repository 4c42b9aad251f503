#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-percpu --check on the host: under 6 x NCPU threads every strategy's sum is exact and every
# list node is found once, with and without disturbances (yield, self-migration, timer
# signals); with signals landing in critical sections the rseq rows abort and retry.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-percpu
ncases=$("$bin" --list | wc -l)

for d in all none; do
	host_check "$ncases" "--disturb $d: all $ncases strategies exact" --disturb $d
done

# The check goes through what the timed runs use: the getcpu rows call the vDSO's getcpu there
# (resolved by the rows' reset, which both kinds of run make), not glibc's sched_getcpu.
out=$("$bin" --check --disturb none --check-ops 1000 \
	--method counter-getcpu-atomic,list-cas,list-spinlock,lock-cmpxchg 2>&1)
is "$(grep -c '^ok .*, via vDSO __vdso_getcpu$' <<<"$out")" 4 \
	"the four getcpu rows are checked through the vDSO's getcpu"
[ "$(grep -c '^ok .*, via vDSO' <<<"$out")" = 4 ] || diag "$out"

# Signals every 50 us of wall time, many ops: the rseq sections get interrupted.
out=$("$bin" --check --disturb signal --signal-us 50 --check-ops 300000 \
	--method counter-rseq,list-rseq,lock-rseq 2>&1)
ok $? "rseq rows under timer signals stay exact"
aborts=$(sed -n 's/^#   [a-z-]*: \([0-9]*\) aborts, \([0-9]*\) signals.*/\1/p' <<<"$out" |
	paste -sd+ | bc)
signals=$(sed -n 's/^#   [a-z-]*: [0-9]* aborts, \([0-9]*\) signals.*/\1/p' <<<"$out" |
	paste -sd+ | bc)
diag "rseq rows: ${aborts:-?} aborts for ${signals:-?} signals"
ok $([ "${signals:-0}" -gt 0 ] && [ "${aborts:-0}" -gt 0 ]; echo $?) \
	"signals arrived and rseq critical sections aborted and restarted"
done_testing
