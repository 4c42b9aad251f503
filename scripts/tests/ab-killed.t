#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-ab killed half-way (SIGKILL after part of its table, as the OOM killer would): the
# callers that keep its output fail instead of keeping a cut table. ab-csv (what the benches'
# runs call) exits 1 with one line naming the signal; compare-ab (make compare) exits non-zero
# and writes no ab.tsv.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '#!/bin/sh\ncat > /dev/null\necho "variant n mean (cut off"\nkill -KILL $$\n' > "$t/lab-ab"
chmod +x "$t/lab-ab"

printf 'variant,value\na,1\na,2\nb,3\nb,4\n' > "$t/x.csv"
"$LAB/scripts/ab-csv" "$t/lab-ab" --csv "$t/x.csv" > "$t/out" 2> "$t/err"; rc=$?
is "$rc" 1 "ab-csv: lab-ab killed: exit 1"
is "$(wc -l < "$t/err")/$(cat "$t/err")" "1/error: ab-csv: lab-ab was killed by signal 9; its output is incomplete" \
	"in one line naming the signal"

{
	echo "bench,figure,side,accel,unit,boot,rep,value"
	for b in 1 2 3; do
		echo "ctxsw,switch,cmp-base,icount,insn,$b,,$((100 + b))"
		echo "ctxsw,switch,cmp-test,icount,insn,$b,,$((110 + b))"
	done
} > "$t/figures.csv"
mkdir "$t/out.d"
"$LAB/scripts/compare-ab" "$t/lab-ab" "$t/figures.csv" "$t/out.d" > /dev/null 2> "$t/err"; rc=$?
ok $((rc == 0)) "compare-ab: lab-ab killed: exits non-zero ($rc)"
ok $([ ! -e "$t/out.d/ab.tsv" ]; echo $?) "and writes no ab.tsv"
like "$(cat "$t/err")" '^error: lab-ab could not compare' "saying so in one line"
# the same figures with the real lab-ab: compared (the fixture is good input)
"$LAB/scripts/compare-ab" "$BUILD/host/bin/lab-ab" "$t/figures.csv" "$t/out.d" > /dev/null 2>&1
ok $? "the same figures with lab-ab itself: compared"
done_testing
