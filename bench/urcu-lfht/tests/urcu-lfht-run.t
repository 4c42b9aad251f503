#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real liburcu on the host (rseq_sides_host: one run, every row measured with glibc's rseq
# on and off as named, figures, the report's off - on with its interval, bad options refused),
# and liburcu 0.13 asks sched_getcpu() twice an add+del with its split count, never without.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-urcu-lfht
rseq_sides_host urcu-lfht lfht-acct lfht-plain
trap 'rm -rf "$t"' EXIT
like "$(cat "$d/urcu-lfht.meta")" "^getcpu_calls_per_op: lfht-acct 2\.000, lfht-plain 0\.000 " \
	"sched_getcpu counted: 2 an add+del with the split count, none without"
done_testing
