#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/aa-summary on A/A rows of known counts: the flagged fraction with its exact
# (Clopper-Pearson) interval, repeats flagged after Holm, untested rows counted apart, and
# --check failing (exit 3) exactly when the count is implausible for a 5 % rate.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# rows DESIGN REPEATS FIGS FLAGGED [HOLM_REPEAT]: FIGS rows per repeat, the first FLAGGED
# of all with p 0.01, the rest 0.5; HOLM_REPEAT's first row with a Holm p of 0.02.
rows() {
	awk -v d="$1" -v r="$2" -v f="$3" -v k="$4" -v h="${5:-0}" 'BEGIN {
		n = 0
		for (i = 1; i <= r; i++) for (j = 1; j <= f; j++) {
			n++; p = n <= k ? 0.01 : 0.5; ph = (i == h && j == 1) ? 0.02 : 1
			printf "%s,%d,fig%d,0,-1,1,%s,%s,%d\n", d, i, j, p, ph, n <= k
		}
	}'
}
{
	echo "design,repeat,figure,diff,diff_lo,diff_hi,p,p_holm,flagged"
	rows quiet 4 5 0
	rows fair 5 20 5 2
	echo "fair,5,flat,0,0,0,nan,nan,0"
} > "$t/aa.csv"
out=$("$LAB/scripts/aa-summary" --check "$t/aa.csv"); ok $? "aa-summary --check passes a 5 % rate"
# 0 of 20: [0, 16.8] %; 5 of 100: [1.6, 11.3] % (Clopper-Pearson, as in any table of it).
like "$out" "^quiet +20 +0 +0\\.0 % +\\[ 0\\.0, 16\\.8\\] % +0 of 4$" "0 of 20: the exact upper bound 16.8 %"
like "$out" "^fair +100 +5 +5\\.0 % +\\[ 1\\.6, 11\\.3\\] % +1 of 5 +\\(1 untested: no spread\\)$" \
	"5 of 100: [1.6, 11.3] %, one repeat flagged after Holm, the untested row apart"
like "$out" "^all +120 +5 " "all designs together"
{ echo "design,repeat,figure,diff,diff_lo,diff_hi,p,p_holm,flagged"; rows loud 1 20 6; } > "$t/loud.csv"
"$LAB/scripts/aa-summary" --check "$t/loud.csv" > "$t/out" 2> "$t/err"
is $? 3 "6 of 20 flagged: --check fails (P < 0.001)"
like "$(cat "$t/err")" "6 of 20 figures flagged" "  saying how many"
{ echo "design,repeat,figure,diff,diff_lo,diff_hi,p,p_holm,flagged"; rows edge 1 20 4; } > "$t/edge.csv"
"$LAB/scripts/aa-summary" --check "$t/edge.csv" > /dev/null 2>&1
is $? 0 "4 of 20 flagged: within what a 5 % rate gives once in 1000 runs (P = 0.016)"
# 5 of 20: P(X >= 5) = 0.00257, not under 0.001: passes (P(X >= 6) would not).
{ echo "design,repeat,figure,diff,diff_lo,diff_hi,p,p_holm,flagged"; rows five 1 20 5; } > "$t/five.csv"
out=$("$LAB/scripts/aa-summary" --check "$t/five.csv" 2>/dev/null)
is $? 0 "5 of 20 flagged: P = 0.00257, passes"
like "$out" "P\\(as many flagged or more \\| 5 % rate, 20 figures\\) = 0\\.00257" "  and prints that tail (1 - P(X <= 4), Binomial(20, 0.05))"
"$LAB/scripts/aa-summary" "$t/loud.csv" > /dev/null 2>&1
is $? 0 "without --check the table is all"
"$LAB/scripts/aa-summary" "$t/missing.csv" > /dev/null 2> "$t/err"
ok $([ $? = 1 ] && [ "$(wc -l < "$t/err")" = 1 ]; echo $?) "a missing file: one line, exit 1"
done_testing
