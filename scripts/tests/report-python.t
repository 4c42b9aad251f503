#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report for the fixture data/ is the reviewed one in fixtures/report-expected/, byte
# for byte: the report is a function of data/ (no time of making in it), so a second run
# over the same runs writes the same bytes, plots included. `make report` prints where it
# wrote and a short summary, not the report.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make $BUILD/host/bin/lab-ab)"; exit 1; }
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed"; exit 0; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures

DATA=$fx/report-data PLOTS=$t/plots "$LAB/scripts/report" >"$t/out" 2>"$t/err"
is "$?" 0 "the report runs on the fixture data"
for f in report.txt report.md; do
	d=$(diff -u "$fx/report-expected/$f" "$t/plots/$f" 2>&1); r=$?
	ok $r "$f is the reviewed one"
	[ $r -eq 0 ] || printf '%s\n' "$d" | head -n 30 | sed 's/^/#   /'
done
# Later: the same runs again, into another folder, at another time.
sleep 1
DATA=$fx/report-data PLOTS=$t/again "$LAB/scripts/report" >/dev/null 2>&1
d=$(cd "$t/plots" && for f in *; do cmp -s "$f" "$t/again/$f" || echo "$f"; done)
is "$d" "" "the same runs give the same bytes (report.txt, report.md, every PNG and SVG)"
is "$(ls "$t/again" | wc -l)" "$(ls "$t/plots" | wc -l)" "and the same files"
like "$(head -n 1 "$t/out")" "^report: $t/plots/report.txt \([0-9]+ lines\), report.md, 3 plots" \
	"stdout says where it wrote"
ok $([ "$(wc -l < "$t/out")" -le 5 ]; echo $?) "in a few lines, not the report ($(wc -l < "$t/out") lines)"
done_testing
