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
"$ab" --csv "$t/mixed.csv" >/dev/null 2>&1; is $? 2 "a CSV mixing accelerators between variants: refused"
{ echo "variant,accel,value"; sed 's/^/a,icount,/' "$t/n"; sed 's/^/b,icount,/' "$t/y"; } > "$t/same.csv"
tsv=$("$ab" --csv "$t/same.csv" --format tsv); ok $? "CSV input, TSV output"
is "$(printf '%s\n' "$tsv" | awk -F'\t' '$2 == "b" { print $17 }')" significant "TSV verdict column"

printf '1\nfoo\n' > "$t/bad"
err=$("$ab" "$t/n" "$t/bad" 2>&1); is $? 1 "a non-number is bad input (exit 1)"
like "$err" 'bad:2: not a number' "naming file and line"
done_testing
