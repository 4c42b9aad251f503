#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The long figures format: every bench's parse, run on committed data/ runs that hold its CSV,
# prints the figures.csv header and only figure names its meta declares; every CSV's header has the columns its bench's
# meta result: lines name (scripts/figures-check, newest run per file). A meta that drops a
# declared figure, or names a column the data lacks, fails the check.
. "$(dirname "$0")/tap.sh"
. "$LAB/scripts/bench-lib.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# Per bench, its oldest and newest committed runs (the formats' two ends), parsed into a copy
# that scripts/figures-check then reads.
n=0
for m in "$LAB"/bench/*/meta; do
	b=${m%/meta} b=${b##*/}
	[ -x "$LAB/bench/$b/parse" ] && grep -q '^figure:' "$m" || continue
	csv=$(bench_csv "$b") bad=
	runs=$(for d in "$LAB"/data/*/; do [ -f "$d$csv" ] && echo "$d"; done | sed -n '1p;$p' | sort -u)
	for d in $runs; do
		p=$t/p/$b-$(basename "$d")
		mkdir -p "$p"
		cp "$d"*.meta "$p/" 2>/dev/null   # a make strategy run names its own rows there
		"$LAB/bench/$b/parse" "$d" > "$p/figures.csv" 2>"$p.err" || { bad="$d: $(cat "$p.err")"; break; }
		[ "$(head -n 1 "$p/figures.csv")" = "$FIGURES_HEADER" ] || { bad="$d: header"; break; }
		[ "$(wc -l < "$p/figures.csv")" -gt 1 ] || { bad="$d: no figures"; break; }
	done
	n=$((n + 1))
	ok $([ -z "$bad" ]; echo $?) "$b: parse of its oldest and newest run: the header and figures${bad:+ ($bad)}"
done
out=$("$LAB/scripts/figures-check" "$t/p" 2>&1 >/dev/null); ok $? "only figure names the metas declare${out:+ ($out)}"
ok $((n < 5)) "five benches or more have figures ($n)"
for b in mm-cid turner-2015 rseq-stats; do
	ok $([ -x "$LAB/bench/$b/parse" ] && grep -q '^figure:' "$LAB/bench/$b/meta"; echo $?) "$b has a parse and declares its figures"
done
out=$("$LAB/scripts/figures-check" "$LAB/data" 2>&1 >/dev/null); ok $? "the committed data/ matches every meta${out:+ ($out)}"

# The check fails on a meta that names a missing column, and on an undeclared figure.
mkdir -p "$t/bench/x" "$t/data/20260101T000000Z-h-x"
printf 'a,b\n1,2\n' > "$t/data/20260101T000000Z-h-x/x.csv"
printf 'result: x.csv a - the a column\nfigure: one - a figure\n' > "$t/bench/x/meta"
printf '%s\nx,one,s,none,-,1,,1\n' "$FIGURES_HEADER" > "$t/data/20260101T000000Z-h-x/figures.csv"
"$LAB/scripts/figures-check" --bench "$t/bench" "$t/data" >/dev/null 2>&1; ok $? "a run that matches its meta passes"
printf 'result: x.csv a - the a column\nresult: x.csv c - no such column\nfigure: one - a figure\n' > "$t/bench/x/meta"
out=$("$LAB/scripts/figures-check" --bench "$t/bench" "$t/data" 2>&1); r=$?
ok $((r == 0)) "a meta naming a column the CSV lacks fails"
like "$out" "^error: .*x.csv has no column c" "  saying which"
printf 'result: x.csv a - the a column\nfigure: two - another\n' > "$t/bench/x/meta"
out=$("$LAB/scripts/figures-check" --bench "$t/bench" "$t/data" 2>&1); r=$?
ok $((r == 0)) "a figure its meta does not declare fails"
like "$out" "^error: .*figure one of x is not declared" "  saying which"

# Under icount a row's figure is its counted instructions (insn) where the program counted
# them, else its timed virtual ns (vns): never a timed figure called a count.
mkdir -p "$t/ic"
printf 'variant,accel,method,threads,status,ns_per_op,instructions_per_op\nv,icount,a,1,ok,24.5,\nv,icount,b,1,ok,9.1,3\nv,icount,c,1,ENOSYS,,\n' > "$t/ic/percpu.csv"
is "$("$LAB/bench/percpu/parse" "$t/ic" | tail -n +2)" "percpu,a.t1,v,icount,vns,1,,24.5
percpu,b.t1,v,icount,insn,1,,3" "icount rows: counted ones in insn, timed ones in vns; a row not ok gives none"

# A bad RUNDIR is one line, and figures-backfill fills only runs without figures.csv.
out=$("$LAB/bench/cpu-read/parse" "$t/data/20260101T000000Z-h-x" 2>&1); r=$?
ok $([ $r -ne 0 ] && [ "$(wc -l <<< "$out")" -eq 1 ]; echo $?) "parse of a run without its CSV: one line ($out)"
src=$(ls -d "$LAB"/data/*/ | while read -r d; do [ -f "$d/cpu-read.csv" ] && echo "$d"; done | tail -n 1)
mkdir -p "$t/bf"; cp -r "$src" "$t/bf/run"; rm -f "$t/bf/run/figures.csv"
DATA=$t/bf "$LAB/scripts/figures-backfill" >/dev/null
is "$(cat "$t/bf/run/figures.csv")" "$(cd "$t/bf/run" && for b in cpu-read percpu; do [ -f $b.csv ] && "$LAB/bench/$b/parse" .; done | awk 'NR == 1 || !/^bench,/')" \
	"figures-backfill writes the parses' rows under one header"
echo keep > "$t/bf/run/figures.csv"
DATA=$t/bf "$LAB/scripts/figures-backfill" >/dev/null
is "$(cat "$t/bf/run/figures.csv")" keep "and leaves an existing figures.csv alone"
# figures-backfill DATA BENCH: only that bench's runs.
mc=$(ls -d "$LAB"/data/*-mm-cid-host/ | tail -n 1)
mkdir -p "$t/bo"; cp -r "$src" "$t/bo/a"; cp -r "$mc" "$t/bo/b"; rm -f "$t"/bo/*/figures.csv
"$LAB/scripts/figures-backfill" "$t/bo" mm-cid >/dev/null
ok $([ ! -e "$t/bo/a/figures.csv" ] && cmp -s "$t/bo/b/figures.csv" <("$LAB/bench/mm-cid/parse" "$t/bo/b"); echo $?) \
	"figures-backfill DATA mm-cid fills the mm-cid run only"
done_testing
