#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report for the fixture data/ is the reviewed one in fixtures/report-expected/ (but for
# the time on the "Generated" line). Those files were first what the bash/awk report wrote,
# which proved the Python port (commit db44104); since then they change only on purpose,
# each change reviewed in the commit that makes it.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make ab-tests)"; exit 1; }
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 not installed"; exit 0; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures
# The one line that may differ: when the report was made.
untimed() { sed 's/^Generated [0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]Z from /Generated (time) from /' "$1"; }

DATA=$fx/report-data PLOTS=$t/plots "$LAB/scripts/report" >"$t/out" 2>"$t/err"; rc=$?
if command -v gnuplot >/dev/null; then
	is "$rc" 0 "the report runs on the fixture data"
else
	skip "gnuplot not installed" "the report runs on the fixture data"  # it stops at the plots
fi
for f in report.txt report.md; do
	d=$(diff -u "$fx/report-expected/$f" <(untimed "$t/plots/$f") 2>&1); r=$?
	ok $r "$f is the reviewed one"
	[ $r -eq 0 ] || printf '%s\n' "$d" | head -n 30 | sed 's/^/#   /'
done
like "$(head -n 3 "$t/plots/report.txt")" '^Generated [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}Z from report-data/' \
	"the Generated line has the time in UTC"
[ "$rc" -ne 0 ] || is "$(cat "$t/out")" "$(cat "$t/plots/report.txt")" "stdout is report.txt"
done_testing
