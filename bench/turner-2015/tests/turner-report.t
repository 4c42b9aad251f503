#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's 2015-interface section (bench/turner-2015/report.py) from a turner-2015 run:
# the three ABIs side by side per table and accelerator, counts whole under icount, a row
# that could not run says why; a run of several boots: the median boot's with the range
# between boots, exact only where the run checked its counts.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data/20260101T000000Z-fixture-turner-2015
mkdir -p "$d"
{
	echo "table,method,abi,iters,reps,per_op_median,per_op_min,status,accel,unit"
	echo "cpu-read,empty loop (baseline),none,1000,1,3.00,3.00,ok,icount,insn"
	echo "cpu-read,read CPU from the 2015 cpu pointer,turner-2015,1000,1,4.00,4.00,ok,icount,insn"
	echo "cpu-read,read CPU from rseq cpu_id,rseq,1000,1,4.00,4.00,ok,icount,insn"
	echo "cpu-read,vDSO getcpu,getcpu,1000,1,36.00,36.00,ok,icount,insn"
	echo "counter,2015 sequence (incq commit),turner-2015,1000,1,9.00,9.00,ok,icount,insn"
	echo "counter,rseq critical section (incq commit),rseq,1000,1,12.00,12.00,ok,icount,insn"
	echo "counter,getcpu + lock add,getcpu,1000,1,39.00,39.00,ok,icount,insn"
	echo "list,2015 sequences push+pop,turner-2015,1000,1,,,ENOSYS,tcg,ns"
	echo "list,rseq critical sections push+pop,rseq,1000,7,31.90,30.00,ok,tcg,ns"
} > "$d/turner-2015.csv"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>"$t/err"
ok $? "the report runs on a turner-2015 run alone"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" "^Turner's 2015 interface, one region, vs mainline rseq" "it has the 2015 section, named for what it is"
like "$txt" "2015 itself:\$" "and says how the 2015 design differed"
like "$txt" "^icount +cpu-read +4 insn +4 insn +36 insn$" "CPU read: 2015, mainline, getcpu side by side, whole counts"
like "$txt" "^icount +counter +9 insn +12 insn +39 insn$" "the counter row"
like "$txt" "^tcg +list +ENOSYS +31\.9 ns +-$" "a row that could not run says why; a missing one is -"
is "$(awk 'length > 72' "$t/plots/report.txt" | wc -l)" 0 "within 72 columns"
like "$txt" "^icount: instructions, not checked \(a long loop sees timer ticks\)$" \
	"counts from a run that did not check them are not called exact"
like "$txt" "^per op: one boot \(no range: no rerun\)$" "a run of one boot says so"

# Three boots per accelerator, the counts checked linear: the median boot's figure with the
# range between boots where they differ.
d2=$t/data/20260102T000000Z-fixture-turner-2015
mkdir -p "$d2"
{
	echo "table,method,abi,iters,reps,per_op_median,per_op_min,status,check,accel,unit,boot"
	for b in 1 2 3; do
		echo "cpu-read,read CPU from the 2015 cpu pointer,turner-2015,1000,7,4.00,4.00,ok,linear,icount,insn,$b"
		echo "cpu-read,vDSO getcpu,getcpu,1000,7,$((35 + b)).00,$((35 + b)).00,ok,linear,icount,insn,$b"
	done
	echo "list,rseq critical sections push+pop,rseq,1000,7,35.00,30.00,ok,,tcg,ns,1"
	echo "list,rseq critical sections push+pop,rseq,1000,7,30.00,29.00,ok,,tcg,ns,2"
	echo "list,rseq critical sections push+pop,rseq,1000,7,31.90,30.00,ok,,tcg,ns,3"
} > "$d2/turner-2015.csv"
echo "icount_check: linear" > "$d2/turner-2015.meta"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>"$t/err"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" "^per op: the median boot's, \(range\) over 3 boots, each$" "the newest run: its boots named"
like "$txt" "^icount +cpu-read +4 insn +- +37 \(36-38\)$" \
	"icount: one count where the boots agree, the median and range where they differ"
like "$txt" "^tcg +list +- +31\.9 \(30\.0-35\.0\) +-$" "tcg: the median boot's ns, the range between boots"
like "$txt" "^icount: instructions, exact \(loops of n/2, n, 2n checked linear\)$" \
	"checked counts are called exact"
is "$(awk 'length > 72' "$t/plots/report.txt" | wc -l)" 0 "within 72 columns"
done_testing
