#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The A/B statistics: the C unit test (known answers: the seed's hackbench result, t table
# points), and the lab-ab command: identical samples, too few runs, accelerators mixed, and
# its verdicts cross-checked against Debian's ministat.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
unit=$BUILD/host/tests/lab-ab-test ab=$BUILD/host/bin/lab-ab
[ -x "$unit" ] && [ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab and its test are built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# The unit test passes when it exits 0, printed its plan, ran as many checks as the plan says
# and none failed: a crash half-way (no plan, or fewer checks) fails here. Bounded: a livelock
# fails instead of hanging.
bounded 60 "$unit" > "$t/unit" 2>&1; rc=$?
is "$rc" 0 "unit test (ab-test) exits 0"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$t/unit" | head -n 1)
nok=$(grep -c '^ok' "$t/unit")
like "$plan" '^[1-9][0-9]*$' "unit test prints its plan (1..N)"
is "$nok" "${plan:-none}" "unit test: all $nok planned checks ran and passed"
grep '^not ok' "$t/unit" | sed 's/^/#   /'

# gen MEAN SD N SEED: N values with about that mean and sd (deterministic).
gen() { awk -v m="$1" -v s="$2" -v n="$3" -v seed="$4" 'BEGIN { srand(seed)
	for (i = 0; i < n; i++) { u = 0; for (j = 0; j < 12; j++) u += rand(); printf "%.4f\n", m + s * (u - 6) } }'; }

gen 41.37 0.36 10 1 > "$t/n"; gen 40.46 0.33 10 2 > "$t/y"
out=$("$ab" --labels rseq-n,rseq-y "$t/n" "$t/y"); ok $? "lab-ab compares two files"
like "$out" 'rseq-y vs rseq-n: .* \*-2\.[0-9]+%\* significant' "seed-like samples: significant, mmtests marker"
like "$(ministat "$t/n" "$t/y")" 'Difference at 95.0% confidence' "ministat agrees: a difference at 95 %"

awk '{ printf "%.4f\n", $1 + 0.01 }' "$t/n" | tac > "$t/n2"
out=$("$ab" "$t/n" "$t/n2"); like "$out" 'not significant' "two samples of one distribution: not significant"
like "$(ministat "$t/n" "$t/n2")" 'No difference proven' "ministat agrees: no difference"

out=$("$ab" "$t/n" "$t/n"); like "$out" '\(\+0\.00%\) not significant' "identical samples: no difference (+0.00 %)"

head -n 2 "$t/n" > "$t/two"
out=$("$ab" "$t/n" "$t/two"); like "$out" 'too few runs' "2 runs on a side: too few runs, no verdict"
like "$out" '\(too few\)' "and its marker says so"

err=$("$ab" --accel icount,tcg "$t/n" "$t/y" 2>&1 >/dev/null); rc=$?
is "$rc" 2 "icount vs tcg figures: refused (exit 2)"
is "$(printf '%s\n' "$err" | wc -l)" 1 "with one line"
like "$err" 'refusing to compare .*different accelerators' "that says why"
{ echo "variant,accel,value"; sed 's/^/a,icount,/' "$t/n"; sed 's/^/b,tcg,/' "$t/y"; } > "$t/mixed.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/mixed.csv" >/dev/null 2>&1; is $? 2 "a CSV mixing accelerators between variants: refused"
{ echo "variant,accel,value"; sed 's/^/a,icount,/' "$t/n"; sed 's/^/b,icount,/' "$t/y"; } > "$t/same.csv"
tsv=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/same.csv" --format tsv); ok $? "CSV input, TSV output"
is "$(printf '%s\n' "$tsv" | awk -F'\t' '$2 == "b" { print $17 }')" significant "TSV verdict column"

printf '1\nfoo\n' > "$t/bad"
err=$("$ab" "$t/n" "$t/bad" 2>&1); is $? 1 "a non-number is bad input (exit 1)"
like "$err" 'bad:2: not a number' "naming file and line"

# Many comparisons: Holm over every comparison of one lab-ab call, each difference
# with its interval, the rank view and the runs a 1 % change needs. k1's difference has
# Welch p 0.037 alone (t 2.5, df 8); with k2's second test Holm makes it 0.074.
{ echo "key,variant,value"
  for x in 10 11 12 13 14; do echo "k1,a,$x"; done
  for x in 12.5 13.5 14.5 15.5 16.5; do echo "k1,b,$x"; done
  for x in 10 11 12 13 14; do echo "k2,a,$x"; echo "k2,b,$x"; done; } > "$t/holm.csv"
tsv=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/holm.csv" --key key --format tsv); ok $? "two keys, TSV"
col() { printf '%s\n' "$tsv" | awk -F'\t' -v k="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next }
	$1 == k && $2 == "b" { print $n[c] }'; }
like "$(col k1 p)" '^0\.03[67]' "k1: Welch p 0.037 before correction"
like "$(col k1 p_holm)" '^0\.07[34]' "k1: Holm p 0.074 (two tests)"
is "$(col k1 verdict_raw)/$(col k1 verdict)" "significant/not significant" "significant alone, not after Holm"
like "$(col k1 diff_lo),$(col k1 diff_hi)" '^0\.19[0-9]*,4\.80' "k1: 95 % CI of the difference [0.19, 4.81]"
is "$(col k1 hl)" 2.5 "k1: Hodges-Lehmann shift 2.5"
like "$(col k1 runs_1pct)" '^[0-9]+$' "k1: runs needed for 1 %"
out=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/holm.csv" --key key)
like "$out" 'Holm over 2 comparisons' "text: says how many comparisons Holm covers"
like "$out" 'CI \[\+0\.19[0-9]*, \+4\.8[0-9]*\] = \[\+1\.6[0-9]%, \+40\.0[0-9]%\]' "text: the interval, absolute and in %"
like "$out" 'ranks: Hodges-Lehmann shift \+2\.5 .* Mann-Whitney U' "text: the rank view"
like "$out" 'runs per side for a 1 % change at this spread: [0-9]+ to detect it' "text: the runs line"
like "$out" 'modes \(median x runs\)' "text: a modes column"
like "$out" '  12\.5x1;13\.5x1;14\.5x1;15\.5x1;16\.5x1' "  one mode per value 1 apart (gap 3 % of the median)"

# Precision at the lab's +-1 %: k1's interval is 38 % wide: no +-1 % precision, not within
# +-1 %; constant samples 100 and 100.5 (an exact difference): both.
like "$out" 'change by Fieller, 95 % CI \[\+1\.47%, \+44\.74%\]: \+-1 % precision no .*within \+-1 % no' \
	"text: k1 without +-1 % precision, not within +-1 %"
is "$(col k1 resolution)" unresolved "TSV: resolution unresolved"
{ echo "variant,value"; for i in 1 2 3; do echo "a,100"; echo "b,100.5"; done; } > "$t/exact.csv"
out=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/exact.csv")
like "$out" 'CI \[\+0\.5, \+0\.5\] = \[\+0\.50%, \+0\.50%\] of the base mean' \
	"an exact difference: its interval the difference itself"
like "$out" 'precision yes \(half-width 0\.00 %\), within \+-1 % yes' "and it has +-1 % precision, within +-1 %"

# lab-ab reads no CSV: scripts/ab-csv hands it the samples stream, one value a line, key,
# variant, accel, unit, pair, value tab-separated; lab-ab refuses any other line.
is "$("$LAB/scripts/ab-csv" - --csv "$t/holm.csv" --key key | sed -n '6p;11p' | tr '\t' '|')" \
	"k1|b||||12.5
k2|a||||10" "the stream of a CSV: the key column, variant, empty accel, unit and pair, the value"
err=$(printf 'k1\ta\t\t\t10\n' | "$ab" --samples - 2>&1); is $? 1 "a line of five fields: bad input (exit 1)"
like "$err" '^lab-ab: -:1: not a samples line' "naming the line"
err=$(printf 'k1\ta\t\t\t\tx\n' | "$ab" --samples - 2>&1); is $? 1 "a value that is not a number: exit 1"
{ echo "variant,value"; echo "a,1"; echo "a,one"; } > "$t/word.csv"
err=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/word.csv" 2>&1); is $? 1 "ab-csv: a CSV value that is not a number: exit 1"
like "$err" "^error: .*word.csv:3: value is not a number: 'one'$" "in one line naming the CSV line"
err=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/word.csv" --key nosuch 2>&1); is $? 1 "ab-csv: a key naming no column: exit 1"
like "$err" "^error: .*no key column 'nosuch'" "saying which"

# What the fuzzers found (fuzz/): values strtod or float() take and the formats do not, a
# carriage return read as 0, an empty number file compared as nan, a refusal over two lines.
for v in 0x10 inf 1_0 $'\xd9\xa1' $'\r'; do
	printf 'k\ta\t\t\t\t1\nk\ta\t\t\t\t%s\n' "$v" > "$t/v"
	"$ab" --samples "$t/v" > /dev/null 2>&1; is $? 1 "lab-ab: the value $(printf %q "$v") is bad input (exit 1)"
	printf 'variant,value\na,1\nb,"%s"\n' "$v" > "$t/v.csv"
	err=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/v.csv" 2>&1); is $? 1 "ab-csv: the value $(printf %q "$v") is bad input (exit 1)"
	is "$(wc -l <<< "$err")" 1 "in one line"
done
printf 'variant,value\na,1\nb,"1\n2"\n' > "$t/v.csv"
err=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/v.csv" 2>&1); is $? 1 "ab-csv: a value over two lines is bad input (exit 1)"
is "$(wc -l <<< "$err")" 1 "in one line, the line break shown as \\n"
printf '1e-400\n2\n' > "$t/tiny"
"$ab" "$t/n" "$t/tiny" > /dev/null 2>&1; is $? 0 "an underflow is read as its nearest double, as Python reads it (exit 0)"
printf '# only a comment\n' > "$t/none"
err=$("$ab" "$t/n" "$t/none" 2>&1); is $? 1 "a number file with no values is bad input (exit 1)"
like "$err" '^lab-ab: .*none: no values$' "saying so"
printf 'k\ta\t\t\t\t1\0x\n' > "$t/nul"
err=$("$ab" --samples "$t/nul" 2>&1); is $? 1 "a NUL byte in a stream is bad input (exit 1)"
done_testing
