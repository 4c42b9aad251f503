#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make report` (scripts/report) from a small fixture data/ directory: the text report stays
# within 72 columns and has every variant and all three hackbench columns; the markdown
# version exists; gnuplot makes non-empty PNGs (and SVGs); an empty data/ is refused.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make ab-tests)"; exit 1; }
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed"; exit 0; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/report-data

out=$(DATA=$fx PLOTS=$t/plots "$LAB/scripts/report" 2>"$t/err"); ok $? "report from the fixture data"
txt=$t/plots/report.txt
ok $([ -s "$txt" ] && [ -s "$t/plots/report.md" ]; echo $?) "report.txt and report.md written"
is "$(awk 'length > 72' "$txt" | wc -l)" 0 "no line of report.txt is over 72 columns"
for v in rseq-n rseq-y/unreg rseq-y/reg; do
	like "$(cat "$txt")" "process/pipe +$v|^ +$v " "hackbench column $v is in the A/B table"
done
like "$(tr "\n" " " < "$txt")" 'rseq-y \(RSEQ=y\) with glibc registration: \+2\.9 % +\[[-+0-9.]+, +[-+0-9.]+\] +Holm \[[-+0-9.]+, +[-+0-9.]+\] +instructions vs RSEQ=n \(significant, n=4' \
	"one sentence per comparison, with its interval and verdict"
like "$(tr "\n" " " < "$txt")" 'without glibc registration: \+0\.[0-9] % +\[[-+0-9.]+, +[-+0-9.]+\] +Holm \[[-+0-9.]+, +[-+0-9.]+\] +instructions vs RSEQ=n \(not significant' \
	"the unregistered column is not significant"
like "$(cat "$txt")" 'NOTE: under icount one guest ns is one instruction' "says icount figures are instructions"
for v in rseq-n rseq-y rseq-stats rseq-stats-off; do
	like "$(cat "$txt")" "^$v +[0-9]+ " "size table has $v"
done
like "$(cat "$txt")" '^- getcpu system call: +[0-9.]+ ns +±[0-9]+%$' "seed-format CPU-read table; the base row has no speedup"
like "$(cat "$txt")" '^- RDPID: +[0-9.]+ ns +±[0-9]+% +[0-9.]+x +±[0-9]+%$' "a row: median, spread, speedup and its interval"
like "$(cat "$txt")" '^lab commit: 35052918d138 \(old: -dirty\) fixture$' "the machine block names the runs' lab commits"
like "$(cat "$t/plots/report.md")" '^### hackbench A/B' "markdown has the hackbench section"
for p in cpu-read hackbench kernel-size; do
	ok $([ -s "$t/plots/$p.png" ] && [ -s "$t/plots/$p.svg" ]; echo $?) "plot $p: non-empty PNG and SVG"
	like "$(file -b "$t/plots/$p.png")" '^PNG image data' "$p.png is a PNG"
done
ok $([ ! -e "$t/plots/percpu-1thread.png" ]; echo $?) "no per-CPU plot without per-CPU data"

mkdir -p "$t/empty" "$t/empty/.run.XYZ"
err=$(DATA=$t/empty PLOTS=$t/p2 "$LAB/scripts/report" 2>&1); rc=$?
ok $([ $rc -ne 0 ]; echo $?) "an empty data/ is refused (exit $rc)"
is "$(printf '%s\n' "$err" | wc -l)" 1 "with one line"
like "$err" '^nothing to report' "that says there is nothing to report"
ok $([ ! -e "$t/p2/report.txt" ]; echo $?) "and writes no report"
done_testing
