#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's context-switch section (bench/ctxsw/report.py) from a ctxsw run: per column
# the median over boots of each boot's mean over its batches (a boot a periodic kernel job
# landed in does not move it), and each column's difference from the first over boots.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data/20260101T000000Z-fixture-ctxsw
mkdir -p "$d"
{
	echo "variant,kernel,rseq_state,accel,metric,round,batch,value,unit"
	# boot 2 of rseq-n: batches 2290 and 2310, mean 2300; the batches of a boot are averaged
	for r in 1 2 3; do for b in 1 2; do
		echo "rseq-n,rseq-n,none,icount,switch,$r,$b,$([ $r = 2 ] && echo $((2270 + 20 * b)) || echo 2266),insn"
		echo "rseq-y/reg,rseq-y,on,icount,switch,$r,$b,2370,insn"
		echo "rseq-n,rseq-n,none,icount,signal,$r,$b,2910,insn"
		echo "rseq-y/reg,rseq-y,on,icount,signal,$r,$b,2990,insn"
	done; done
} > "$d/ctxsw.csv"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>"$t/err"
ok $? "the report runs on a ctxsw run alone"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" "^What CONFIG_RSEQ costs the scheduler" "it has the ctxsw section"
like "$txt" "median of 3 boots' means" "the figure is over boots"
like "$txt" "^switch +2266\\.0 +2370\\.0 \\+104\\.0$" "switch: medians (the odd boot left out) and the difference"
like "$txt" "^signal +2910\\.0 +2990\\.0 \\+80\\.0$" "signal: the same"
# Boot k of one column pairs with boot k of the other (the meta's pair: round), each boot's
# batches averaged first: the differences 104, 70, 104 give a mean of +92.67 with the paired
# interval over 3 boots (over the 6 batches it would have 5 degrees of freedom).
like "$txt" "^vs rseq-n, paired by round, 3 boots:" "the comparison is over boots, paired by round"
like "$txt" "^  switch +rseq-y/reg +\\+92\\.67 \\[[-+][0-9.]+, \\+[0-9.]+\\] " "switch: the mean difference and its interval"
like "$txt" "^  signal +rseq-y/reg +\\+80\\.00 \\[\\+80\\.00, \\+80\\.00\\] " "signal: an exact shift, a zero-width interval"
done_testing
