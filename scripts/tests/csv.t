#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/csv, the shell's way to read a lab CSV (through labdata, the one CSV reader):
# a quoted field with a comma stays whole, --where selects rows, an unknown column or an
# unreadable file is a one-line error, not an empty field.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
c=$LAB/scripts/csv
printf 'method,label,ns_per_op\nempty,"Baseline (empty loop, 1 op)",0.50\nsyscall,getcpu system call,192.84\n' > "$t/a.csv"
is "$("$c" "$t/a.csv" label ns_per_op --where method=empty)" "$(printf 'Baseline (empty loop, 1 op)\t0.50')" \
	"a quoted label with a comma is one field"
is "$("$c" "$t/a.csv" method --header)" "$(printf 'method\nempty\nsyscall')" "--header, then every row"
is "$("$c" "$t/a.csv" method --where method=none)" "" "no row matches: nothing"
err=$("$c" "$t/a.csv" nope 2>&1); r=$?
is "$r" 2 "an unknown column exits 2"
is "$(printf '%s\n' "$err" | wc -l)" 1 "  with one line"
like "$err" "has no column 'nope'" "  naming the column"
err=$("$c" "$t/missing.csv" method 2>&1); r=$?
is "$r" 1 "a missing file exits 1"
like "$err" "missing.csv" "  naming it"
# lab-ab's TSV has no quoting: a label that begins with '"' is an ordinary cell, and the
# cells after it stay where they are.
is "$(cd "$LAB/scripts" && python3 -c 'import labdata
r = labdata.parse_table("key\tvariant\tn\n\"quoted\tv\t5\n", delimiter="\t")[0]
print(r["key"], r["variant"], r["n"])')" '"quoted v 5' "a TSV cell beginning with a quote is read as written"
done_testing
