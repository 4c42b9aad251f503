#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Paired and per-unit designs of lab-ab: the C unit test (hand-computed Wilcoxon, Fieller,
# random effects), and the command: a blocked data set that only pairing resolves, unpaired
# rows refused, --unit summarising rows to per-unit means, the boots a +-1 % interval needs.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
unit=$BUILD/host/tests/lab-ab-paired-test ab=$BUILD/host/bin/lab-ab
[ -x "$unit" ] && [ -x "$ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab and its test are built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

bounded 60 "$unit" > "$t/unit" 2>&1; rc=$?
is "$rc" 0 "unit test (ab-paired-test) exits 0"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$t/unit" | head -n 1)
like "$plan" '^[1-9][0-9]*$' "unit test prints its plan (1..N)"
is "$(grep -c '^ok' "$t/unit")" "${plan:-none}" "unit test: every planned check ran and passed"
grep '^not ok' "$t/unit" | sed 's/^/#   /'

# col TSV-FILE VARIANT COLUMN: one cell of lab-ab's TSV, read by name through labdata.
col() { python3 - "$LAB/scripts" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import labdata
rows = labdata.parse_table(open(sys.argv[2]).read(), delimiter="\t")
print("".join(r[sys.argv[4]] for r in rows if r["variant"] == sys.argv[3]))
PY
}

# Batches 10 apart, b 1 above a in every batch (differences 1.1 0.9 1.0 1.2 0.8).
{ echo "variant,batch,value"
  for x in 1:100 2:110 3:120 4:130 5:140; do echo "a,${x%%:*},${x#*:}"; done
  for x in 1:101.1 2:110.9 3:121.0 4:131.2 5:140.8; do echo "b,${x%%:*},${x#*:}"; done; } > "$t/blk.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/blk.csv" --format tsv > "$t/u.tsv"; ok $? "blocked data, unpaired"
is "$(col "$t/u.tsv" b verdict)" "not significant" "unpaired: Welch does not see the shift"
is "$(col "$t/u.tsv" b design)" "unpaired, 5 units" "design column: unpaired, 5 units"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/blk.csv" --pair batch --format tsv > "$t/p.tsv"; ok $? "blocked data, --pair batch"
is "$(col "$t/p.tsv" b verdict)" significant "paired: the shift is significant"
like "$(col "$t/p.tsv" b t)" '^14\.14' "paired t 14.14 (by hand: 1 / (0.1581 / sqrt 5))"
is "$(col "$t/p.tsv" b design)" "paired by batch, 5 units" "design column: paired by batch, 5 units"
is "$(col "$t/p.tsv" b mw_p)" 0.0625 "rank test: Wilcoxon signed-rank, exact p 2/32"
like "$("$LAB/scripts/ab-csv" "$ab" --csv "$t/blk.csv" --pair batch)" 'paired t on the differences at 95 %.*' "text: the head says the test"
like "$("$LAB/scripts/ab-csv" "$ab" --csv "$t/blk.csv" --pair batch)" 'design: paired by batch, 5 units' "text: the design"

is "$(col "$t/p.tsv" a design)" "paired by batch, 5 units" "the base row carries the design too"

# Holm-consistent intervals: k1 alone has Welch p 0.037, Holm p 0.074 over two tests; its
# Fieller interval [+1.47 %, +44.74 %] excludes 0, the adjusted one (level 5 % x p / p_holm =
# 2.5 %) must not, as Holm's verdict is not significant.
{ echo "key,variant,value"
  for x in 10 11 12 13 14; do echo "k1,a,$x"; done
  for x in 12.5 13.5 14.5 15.5 16.5; do echo "k1,b,$x"; done
  for x in 10 11 12 13 14; do echo "k2,a,$x"; echo "k2,b,$x"; done; } > "$t/holm.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/holm.csv" --key key --format tsv > "$t/h.tsv"; ok $? "two keys"
python3 - "$LAB/scripts" "$t/h.tsv" > "$t/h.out" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import labdata
for r in labdata.parse_table(open(sys.argv[2]).read(), delimiter="\t"):
    if r["key"] == "k1" and r["variant"] == "b":
        print(r["verdict"], float(r["rel_lo"]) > 0, float(r["adj_lo"]) <= 0 <= float(r["adj_hi"]),
              "%.2f" % float(r["adj_lo"]))
PY
is "$(cat "$t/h.out")" "not significant True True -1.88" \
	"raw interval excludes 0, the Holm-adjusted one [-1.88 %, ...] holds it, as the verdict says"

# A row without a partner: bad input, one line naming it; nothing printed on stdout.
{ cat "$t/blk.csv"; echo "b,6,150"; } > "$t/odd.csv"
out=$("$LAB/scripts/ab-csv" "$ab" --csv "$t/odd.csv" --pair batch 2>"$t/err"); rc=$?
is "$rc" 1 "an unpaired row: exit 1"
is "$(wc -l < "$t/err")" 1 "with one line"
like "$(cat "$t/err")" 'unpaired rows: batch 6 of b' "naming the row"
is "$out" "" "and no table"
{ cat "$t/blk.csv"; echo "b,5,150"; } > "$t/dup.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/dup.csv" --pair batch 2>"$t/err"; is $? 1 "a pair value twice a side without --unit: exit 1"
like "$(cat "$t/err")" 'b has batch 5 twice' "naming it"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/blk.csv" --pair nosuch 2>/dev/null; is $? 1 "--pair naming no column: exit 1"

# --unit: rows summarised per unit by their mean. a's units 1: 1 3, 2: 5 7, 3: 9 (means 2 6
# 9, mean 17/3; the rows' mean would be 5); b's 1: 2 4, 2: 6 8, 3: 10 12.
{ echo "variant,round,value"
  printf 'a,1,1\na,1,3\na,2,5\na,2,7\na,3,9\nb,1,2\nb,1,4\nb,2,6\nb,2,8\nb,3,10\nb,3,12\n'; } > "$t/unit.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/unit.csv" --unit round --format tsv > "$t/n.tsv"; ok $? "--unit round"
like "$(col "$t/n.tsv" a mean)" '^5\.66666' "a's mean is the mean of its unit means (17/3)"
is "$(col "$t/n.tsv" a n)/$(col "$t/n.tsv" b n)" "3/3" "n counts units, not rows"
like "$(col "$t/n.tsv" b diff)" '^1\.33333' "diff over unit means: (3 + 7 + 11) / 3 - 17 / 3 (rows: 2)"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/unit.csv" --unit round --pair round --format tsv > "$t/np.tsv"; ok $? "--unit round --pair round"
is "$(col "$t/np.tsv" b design)" "paired by round, 3 units" "design: paired by round, 3 units"
like "$(col "$t/np.tsv" b boots_1pct)" '^[0-9]+$' "boots for +-1 % given"
like "$(col "$t/np.tsv" b reps_best)" '^[0-9]+$' "with the cheapest reps a boot"

# Boots needed, by hand: 3 units of 4 reps a side; within-unit values -1 0 0 1 about the unit
# mean (within var 2/3); unit means 100 102 104 a side (var 4): between = 4 - (2/3)/4 = 3.8333.
# Unpaired, +-1.02 (1 % of 102): the least n with t(2n - 2) sd sqrt(2 / n) <= 1.02, sd^2 =
# 3.8333 + (2/3) / 4 = 4: n >= 8 t^2 / 1.0404; 30 fails (t(58) 2.0017: 30.81), 31 passes
# (t(60) 2.0003: 30.77).
{ echo "variant,round,value"
  for v in a b; do for r in 1 2 3; do m=$((98 + 2 * r)); for e in -1 0 0 1; do echo "$v,$r,$((m + e))"; done; done; done; } > "$t/vc.csv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/vc.csv" --unit round --unit-cost 2 --format tsv > "$t/vc.tsv"; ok $? "variance components"
like "$(col "$t/vc.tsv" b sd_within)" '^0\.8164' "within sd sqrt(2/3) = 0.8165"
like "$(col "$t/vc.tsv" b sd_between)" '^1\.9578' "between sd sqrt(4 - 1/6) = 1.9579"
is "$(col "$t/vc.tsv" b reps)" 4 "4 reps a unit"
is "$(col "$t/vc.tsv" b boots_1pct)" 31 "boots a side for +-1 % at 4 reps: 31"
is "$(col "$t/vc.tsv" b runs_ci_1pct)" 31 "runs_ci_1pct with --unit: the same boots, from the model"
# Paired by round, every difference of unit means is 0 by chance; the model still counts the
# within spread: a difference's sd^2 = 2 (0 + (2/3) / 4) = 1/3, pairs for the paired t (df
# n - 1): n = 4 (t(3) 3.182 x 0.577 / 2 = 0.918 <= 1.02; n = 3: 4.303 x 0.577 / 1.732 = 1.43),
# not the 1 that the zero differences alone would give.
"$LAB/scripts/ab-csv" "$ab" --csv "$t/vc.csv" --unit round --pair round --format tsv > "$t/vcp.tsv"
is "$(col "$t/vcp.tsv" b runs_ci_1pct)/$(col "$t/vcp.tsv" b boots_1pct)" 4/4 \
	"paired, equal unit means: 4 pairs of boots from the within spread, not 1"
is "$(col "$t/vc.tsv" b reps_best)" 1 "a boot costing 2 reps, within var small: 1 rep a boot is cheapest"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/vc.csv" --unit round --unit-cost x 2>/dev/null; is $? 1 "--unit-cost not a number: exit 1"
"$ab" "$t/vc.csv" "$t/vc.csv" --unit round 2>/dev/null; is $? 1 "--unit without --samples: exit 1"
like "$("$LAB/scripts/ab-csv" "$ab" --csv "$t/vc.csv" --unit round)" 'boots: between-round sd 1\.958, within sd 0\.8165 \(4 reps a round\): 31 rounds x 4 reps a side' \
	"text: the boots line"
done_testing
