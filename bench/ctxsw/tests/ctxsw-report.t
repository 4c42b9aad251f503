#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's context-switch section (bench/ctxsw/report.py) from a ctxsw run: the median
# per column over batches (a batch a periodic kernel job landed in does not move it), and
# each column's difference from the first.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data/20260101T000000Z-fixture-ctxsw
mkdir -p "$d"
{
	echo "variant,kernel,rseq_state,accel,metric,batch,value,unit"
	for b in 1 2 3; do
		echo "rseq-n,rseq-n,none,icount,switch,$b,$([ $b = 2 ] && echo 2300 || echo 2266),insn"
		echo "rseq-y/reg,rseq-y,on,icount,switch,$b,2370,insn"
		echo "rseq-n,rseq-n,none,icount,signal,$b,2910,insn"
		echo "rseq-y/reg,rseq-y,on,icount,signal,$b,2990,insn"
	done
} > "$d/ctxsw.csv"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>"$t/err"
ok $? "the report runs on a ctxsw run alone"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" "^What CONFIG_RSEQ costs the scheduler" "it has the ctxsw section"
like "$txt" "^switch +2266\\.0 +2370\\.0 \\+104\\.0$" "switch: medians (the odd batch left out) and the difference"
like "$txt" "^signal +2910\\.0 +2990\\.0 \\+80\\.0$" "signal: the same"
# Batch k of one column pairs with batch k of the other (the meta's pair: batch): the
# differences 104, 70, 104 give a mean of +92.67 with the paired interval.
like "$txt" "^vs rseq-n, paired by batch, 3 units:" "the comparison is paired by batch"
like "$txt" "^  switch +rseq-y/reg +\\+92\\.67 \\[[-+][0-9.]+, \\+[0-9.]+\\] " "switch: the mean difference and its interval"
like "$txt" "^  signal +rseq-y/reg +\\+80\\.00 \\[\\+80\\.00, \\+80\\.00\\] " "signal: an exact shift, a zero-width interval"
done_testing
