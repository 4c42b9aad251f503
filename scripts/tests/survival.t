#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/survival on ctxsw runs of known values: each comparison's interval in a run and in
# its rerun, overlap and containment per figure and as fractions; a rerun that moved a figure
# far shows NO; runs of two benches, or a directory without a run, are one error line.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# run DIR SHIFT: a ctxsw run, rseq-n and rseq-y/reg, 5 boots x 2 batches; the switch of
# rseq-y/reg is 100 + SHIFT above rseq-n's, boot by boot +-1 around it; signal exactly +80.
run() {
	mkdir -p "$1"
	{
		echo "variant,kernel,rseq_state,accel,metric,round,batch,value,unit"
		for r in 1 2 3 4 5; do for b in 1 2; do
			j=$(( (r * 7 + b) % 3 - 1 ))
			echo "rseq-n,rseq-n,none,icount,switch,$r,$b,$((2200 + r)),insn"
			echo "rseq-y/reg,rseq-y,on,icount,switch,$r,$b,$((2300 + r + $2 + j)),insn"
			echo "rseq-n,rseq-n,none,icount,signal,$r,$b,$((2910 + j)),insn"
			echo "rseq-y/reg,rseq-y,on,icount,signal,$r,$b,$((2990 + j)),insn"
		done; done
	} > "$1/ctxsw.csv"
}
run "$t/a" 0; run "$t/b" 0; run "$t/far" 50
out=$("$LAB/scripts/survival" "$t/a" "$t/b"); ok $? "survival of a run against an identical rerun"
like "$out" "^switch rseq-y/reg +\\+99\\.900 \\[" "the switch's difference over boots: +100 and the jitter's mean, -0.1"
like "$out" "figures 2: intervals overlap 2 \\(100 %\\); an estimate inside the other's interval 4 of 4 \\(100 %\\)" \
	"the same values: every interval overlaps and holds the other's estimate"
out=$("$LAB/scripts/survival" "$t/a" "$t/far")
like "$out" "^switch rseq-y/reg .* \\+149\\.900 \\[.*\\] NO +no +no$" "a figure moved by 50: no overlap, NO"
like "$out" "^signal rseq-y/reg .* yes +yes +yes$" "  the unmoved one survives"
like "$out" "overlap 1 \\(50 %\\); an estimate inside the other's interval 2 of 4 \\(50 %\\)" "  the fractions"
# make survival (scripts/survival-rerun): the rerun against the newest earlier ctxsw run, a
# second run of one second (-2) included, another bench's or a hidden one not; the rerun is
# the run the bench printed. A stand-in bench writes a run like the newest one.
mkdir -p "$t/data"
run "$t/data/20261101T000000Z-vm-ctxsw" 0
run "$t/data/20261201T000000Z-vm-ctxsw" 0
run "$t/data/20261201T000000Z-vm-ctxsw-2" 50
run "$t/data/.run.x-ctxsw" 0
mkdir -p "$t/data/20261205T000000Z-vm-hackbench"
{ echo '#!/bin/bash'; declare -f run; echo 'd=$DATA/20261207T000000Z-vm-ctxsw; run "$d" 50; echo "seed0 $CTXSW_SEED0 variants $*" > "$d/how"; echo ">> results in $d"'; } > "$t/bench"
chmod +x "$t/bench"
out=$(DATA=$t/data SURVIVAL_BENCH=$t/bench SEED0=77 "$LAB/scripts/survival-rerun" rseq-n rseq-y 2>&1); rc=$?
is "$rc" 0 "survival-rerun runs"
like "$out" "figures 2: intervals overlap 2 \\(100 %\\)" "the rerun against the newest earlier run (the -2 one of its second): every figure survives"
is "$(cat "$t/data/20261207T000000Z-vm-ctxsw/how" 2>/dev/null)" "seed0 77 variants rseq-n rseq-y" "the bench reran with SEED0 and the variants"
out=$(DATA=$t/empty SURVIVAL_BENCH=$t/bench "$LAB/scripts/survival-rerun" rseq-n 2>&1); rc=$?
is "$rc:$(grep -c . <<<"$out")" "2:1" "no earlier ctxsw run: one line, status 2"
ok $([ ! -e "$t/empty" ]; echo $?) "... and nothing written"
# host runs merged over processes: the median process's figure and the range between them.
host() {
	mkdir -p "$1"
	printf '%s\n' "variant,accel,method,threads,status,ns_per_op,ns_min,ns_max" \
		"host,none,vdso,1,ok,$2" "host,none,syscall,1,ok,$3" > "$1/cpu-read.csv"
	echo "host_units: 5 processes" > "$1/cpu-read.meta"
}
host "$t/h1" 20,18,22 1000,990,1010; host "$t/h2" 21,19,23 1100,1090,1110
out=$("$LAB/scripts/survival" "$t/h1" "$t/h2")
like "$out" "^vdso t1 .* yes +yes +yes$" "host runs: a figure whose ranges hold each other's survives"
like "$out" "^syscall t1 .* NO +no +no$" "  one that moved past its range does not"
echo "host: no units line" > "$t/h2/cpu-read.meta"
"$LAB/scripts/survival" "$t/h1" "$t/h2" > /dev/null 2>&1
is $? 1 "a host run of one process (no units) has no interval to compare: an error"
mkdir -p "$t/empty"
"$LAB/scripts/survival" "$t/a" "$t/empty" > /dev/null 2> "$t/err"
ok $([ $? = 1 ] && [ "$(wc -l < "$t/err")" = 1 ]; echo $?) "a directory without a run: one line, exit 1"
done_testing
