#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ringbuf --check on the host: under 6 x NCPU threads with yields, migrations (also between
# reserve and commit) and timer signals, every strategy's reader sees every event once, intact,
# in the buffer its writer chose, and the counts reconcile; the rseq writer's sections abort
# under signals and its migrated commits take the atomic fallback.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-ringbuf
n=$("$bin" --list | wc -l)
ncpu=$(nproc)

# 10000 events a thread (the default 50000 is for a guest of its own): each migration waits
# for a CPU, and make check keeps both busy; migrated writers still commit remotely by the
# thousand.
ops=10000
host_check "$n" "all $n strategies: every event once, intact, right buffer" --check-ops $ops
records=$(sed -n 's/^#   ringbuf-rseq: \([0-9]*\) records read.*/\1/p' <<<"$out")
is "$records" "$((6 * ncpu * ops))" "rseq: the reader took 6 x NCPU x $ops records"
remote=$(sed -n 's/^#   ringbuf-rseq: .*, \([0-9]*\) remote commits.*/\1/p' <<<"$out")
if [ "$ncpu" -gt 1 ]; then
	ok $([ "${remote:-0}" -gt 0 ]; echo $?) "rseq: migrated writers committed remotely (${remote:-none})"
else
	skip "one CPU" "rseq remote commits"
fi
waits=$(sed -n 's/^#   ringbuf-getcpu-atomic: .*, \([0-9]*\) full waits.*/\1/p' <<<"$out")
diag "getcpu+atomic: ${waits:-?} waits for the reader"

out=$("$bin" --check --disturb signal --signal-us 50 --check-ops 300000 --method ringbuf-rseq 2>&1)
ok $? "rseq writer under 50 us timer signals stays exact"
aborts=$(sed -n 's/^#   ringbuf-rseq: .*, \([0-9]*\) aborts,.*/\1/p' <<<"$out")
ok $([ "${aborts:-0}" -gt 0 ]; echo $?) "signals aborted rseq sections (${aborts:-none}) and the writes were retried"
done_testing
