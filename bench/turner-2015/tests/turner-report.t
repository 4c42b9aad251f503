#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's 2015-interface section (bench/turner-2015/report.py) from a turner-2015 run:
# the three ABIs side by side per table and accelerator, counts whole under icount, a row
# that could not run says why.
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
like "$txt" "^icount: instructions of one boot, not checked$" "counts from a run that did not check them are not called exact"
done_testing
