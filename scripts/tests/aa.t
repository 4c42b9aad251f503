#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The lab's live A/A (scripts/aa): ctxsw under icount with one kernel on both sides (boots,
# paired by round) and lab-cpuread twice on the host (processes, three methods: one process
# slowed by the other tests moves all its methods at once, so few): no more figures flagged
# than a 5 % rate allows (AA_CHECK); the same check on a real difference (rseq-n beside
# rseq-y) fails with exit 3, the run still written; bad knobs are one line and no run.
. "$(dirname "$0")/tap.sh"
require_image rseq-y rseq-n "$BUILD/initramfs/lab.cpio"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
small_ctxsw="CTXSW_ROUNDS=5 CTXSW_ITERS=2000 CTXSW_BATCHES=1"
mkdir -p "$t/aa"
DATA=$t/aa AA_REPEATS=1 AA_CHECK=1 AA_CTXSW=$small_ctxsw \
	AA_HOST="--procs 5 -- --reps 1 --duration 20 --method vdso,syscall,rseq-glibc" \
	"$LAB/scripts/aa" > "$t/out" 2> "$t/err"
ok $? "a live A/A flags no more figures than a 5 % rate allows"
printf '%s\n' "$(cat "$t/out")" | sed 's/^/# /'
run=$(ls -d "$t"/aa/*-aa 2>/dev/null | head -n 1)
ok $([ -f "$run/aa.csv" ] && [ -f "$run/aa.txt" ] && [ -f "$run/aa.meta" ]; echo $?) "its run has aa.csv, aa.txt, aa.meta"
is "$(csv_cols "$run/aa.csv" design 2>/dev/null | sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')" \
	"cpu-read-host=4 ctxsw-icount=4 " "every ctxsw metric and the three cpu-read methods (and the empty loop lab-cpuread always times) compared"
like "$(cat "$run/aa.txt" 2>/dev/null)" "^ctxsw-icount +4 " "aa.txt: a line per design"
like "$(cat "$run/aa.txt" 2>/dev/null)" "^cpu-read-host +[0-9]+ " "  (the host's too)"

mkdir -p "$t/ab"
DATA=$t/ab AA_REPEATS=1 AA_CHECK=1 AA_CTXSW=$small_ctxsw AA_KERNEL_B=rseq-n \
	"$LAB/scripts/aa" ctxsw-icount > "$t/out2" 2> "$t/err2"
is $? 3 "rseq-y beside rseq-n: the check fails (exit 3)"
like "$(cat "$t/err2")" "figures flagged: the design calls its own noise a change" "  saying why"
ok $([ -f "$(ls -d "$t"/ab/*-aa 2>/dev/null | head -n 1)/aa.csv" ]; echo $?) "  and the run is written"

mkdir -p "$t/bad"
for knob in AA_REPEATS=x AA_CHECK=2; do
	env "$knob" DATA="$t/bad" "$LAB/scripts/aa" > /dev/null 2> "$t/err3"; rc=$?
	ok $([ $rc = 1 ] && [ "$(wc -l < "$t/err3")" = 1 ]; echo $?) "$knob: one error line (exit $rc)"
done
DATA=$t/bad "$LAB/scripts/aa" frob > /dev/null 2> "$t/err3"
like "$(cat "$t/err3")" "no A/A design 'frob'" "an unknown design is named"
is "$(ls -A "$t/bad")" "" "bad input leaves nothing in DATA"
done_testing
