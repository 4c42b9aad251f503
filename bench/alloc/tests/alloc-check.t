#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-alloc --check on the host: under 6 x NCPU threads with yields, migrations and timer
# signals, both workloads of every strategy hand no object out twice, lose none (the arenas and
# every cache audited afterwards) and read back every byte each owner wrote; the small check-mode
# caches make refills and flushes happen; signals abort rseq sections, which retry.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-alloc
n=$("$bin" --list | wc -l)

# 2500 operations a thread (the program's default 5000 is a guest's): each migration waits
# for a CPU, and make check keeps both busy; refills and flushes still happen by the hundred.
host_check "$((2 * n))" "all $n strategies x 2 workloads exact" --check-ops 2500
is "$(grep -c 'none lost, every byte intact' <<<"$out")" "$((2 * (n - 1)))" \
	"our arenas audited for every strategy but glibc"
fl=$(sed -n 's/^#   alloc-rseq request: .*, \([0-9]*\) flushes,.*/\1/p' <<<"$out")
ok $([ "${fl:-0}" -gt 0 ]; echo $?) "rseq request workload flushed to the arena (${fl:-none} flushes)"

out=$("$bin" --check --disturb signal --signal-us 50 --check-ops 20000 --workload request \
	--method alloc-rseq 2>&1)
ok $? "rseq caches under 50 us timer signals stay exact"
aborts=$(sed -n 's/^#   alloc-rseq request: \([0-9]*\) aborts.*/\1/p' <<<"$out")
ok $([ "${aborts:-0}" -gt 0 ]; echo $?) "signals aborted rseq sections (${aborts:-none})"
done_testing
