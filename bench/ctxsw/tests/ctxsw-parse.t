#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ctxsw parse step (bench/ctxsw/parse-output) on captured lab-ctxsw output from an icount guest,
# and on broken output: no rseq_state, a foreign line, two runs in one file, no figures.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
p=$LAB/bench/ctxsw/parse-output fx=$LAB/bench/ctxsw/tests/fixtures
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

rows=$("$p" "$fx/ctxsw.out"); ok $? "the captured guest output parses"
n=$(grep -c '^[a-z_]* [0-9]' "$fx/ctxsw.out")
is "$(printf '%s\n' "$rows" | wc -l)" "$n" "one row per figure ($n)"
is "$(csv_rows rseq_state,metric,batch,value rseq_state <<< "$rows" | sort -u)" on "every row carries the run's rseq state"
want=$(awk '$1 == "signal" && $2 == 2 { print $3 }' "$fx/ctxsw.out")
is "$(csv_rows rseq_state,metric,batch,value value --where metric=signal --where batch=2 <<< "$rows")" "$want" \
	"signal, batch 2 taken from the file ($want)"

{ echo "seed: 7"; cat "$fx/ctxsw.out"; } > "$t/seeded"
is "$("$p" "$t/seeded" | wc -l)" "$n" "a seed line is read and gives no row"
grep -v '^rseq_state' "$fx/ctxsw.out" > "$t/nostate"
{ cat "$fx/ctxsw.out"; echo "Segmentation fault"; } > "$t/foreign"
cat "$fx/ctxsw.out" "$fx/ctxsw.out" > "$t/twice"
head -n 2 "$fx/ctxsw.out" > "$t/cut"
: > "$t/empty"
for f in nostate foreign twice cut empty; do
	err=$("$p" "$t/$f" 2>&1 >/dev/null); rc=$?
	ok $([ $rc -ne 0 ]; echo $?) "$f: a failure, not a figure (exit $rc)"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$f: one-line error ($err)"
done
"$p" "$t/missing" >/dev/null 2>&1; ok $([ $? -ne 0 ]; echo $?) "a missing file is a failure"
done_testing
