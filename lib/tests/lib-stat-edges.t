#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The statistics' edges (lib/tests/edges-test.c): the t interval's n - 1 degrees of freedom,
# the latency mean's interval with sd over n - 1, and a Welch p exactly at alpha, in the C
# functions and in lab-ab's TSV (its ci column is what the report's error bars plot; its
# verdict columns what the report calls significant). The unit test is compiled here, from
# the sources it tests, so that it needs no rule of lib/lab.mk.
. "$(dirname "$0")/../../scripts/tests/tap.sh"
ab=$BUILD/host/bin/lab-ab
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cd "$LAB" || exit 1
${CC:-cc} -O2 -Wall -Wextra -Ilib/include -o "$t/edges-test" lib/tests/edges-test.c lib/ab.c \
	lib/stats.c lib/percentile.c -lm 2> "$t/cc"
ok $? "edges-test compiles"
sed 's/^/#   /' "$t/cc"

# The unit test passes when it exits 0 and ran every check its plan names, none failing.
bounded 60 "$t/edges-test" > "$t/unit" 2>&1; rc=$?
is "$rc" 0 "unit test (edges-test) exits 0"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$t/unit")
is "$(grep -c '^ok' "$t/unit")" "${plan:-none}" "unit test: all ${plan:-?} planned checks ran and passed"
grep '^not ok' "$t/unit" | sed 's/^/#   /'

[ -x "$ab" ] || { ok 1 "$ab is built (make lib-tests)"; done_testing; exit; }
# col FILE VARIANT COLUMN: a cell of lab-ab's TSV, by column name (labdata).
col() { PYTHONPATH=$LAB/scripts python3 -c 'import sys, labdata
rows = labdata.parse_table(open(sys.argv[1]).read(), "\t")
print(next((r[sys.argv[3]] for r in rows if r["variant"] == sys.argv[2]), "no row"))' "$@"; }

# The sample pair whose Welch p is alpha itself, at a --confidence lab-ab reads exactly.
"$t/edges-test" emit "$t" > "$t/emit"; ok $? "a sample pair with p exactly at alpha ($(cat "$t/emit"))"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/edge.csv" --confidence "$(cat "$t/pct-at")" --format tsv > "$t/at.tsv"
"$LAB/scripts/ab-csv" "$ab" --csv "$t/edge.csv" --confidence "$(cat "$t/pct-loose")" --format tsv > "$t/loose.tsv"
is "$(col "$t/at.tsv" b verdict_raw)/$(col "$t/at.tsv" b verdict)" "not significant/not significant" \
	"lab-ab: p == alpha is not significant, before and after Holm"
is "$(col "$t/loose.tsv" b verdict_raw)/$(col "$t/loose.tsv" b verdict)" "significant/significant" \
	"lab-ab: alpha a hair above p: significant (the pair sits on the bound)"

# ci: 10..14 has sd 1.5811, n 5: t(0.975, 4) 2.7764 x 0.7071 = 1.9632 (with 5 df: 1.8177).
"$LAB/scripts/ab-csv" "$ab" --csv "$t/edge.csv" --format tsv > "$t/95.tsv"
like "$(col "$t/95.tsv" a ci)" '^1\.963[12]' "lab-ab ci of 10..14 at 95 %: 1.9632 (t with n - 1 df)"
done_testing
