#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A bench folder's own report section (bench/<name>/report.py: tables(runs)) lands in
# report.txt and report.md without the report naming it, imports labreport without touching
# sys.path, sees the data/ runs, and is held to 72 columns.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/report-data
mkdir -p "$t/bench/probe"
cat > "$t/bench/probe/report.py" <<'PY'
from labreport.model import Table
def tables(runs):
    names = [r.name for r in runs if r.has("hackbench.csv")]
    return [Table("probe: %d runs, hackbench in %s" % (len(runs), names[0]), rows=["a row"])]
PY
LAB_BENCH_DIR=$t/bench DATA=$fx PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>"$t/err"
ok $? "the report runs with a bench folder's section"
like "$(cat "$t/plots/report.txt")" '^probe: 3 runs, hackbench in 20260101T000100Z-fixture-hackbench$' \
	"its text section is in report.txt, with the runs it was given"
like "$(cat "$t/plots/report.md")" '^### probe: 3 runs' "and its markdown in report.md"
printf 'from labreport.model import Table\ndef tables(runs):\n    return [Table("t", rows=["x" * 73])]\n' > "$t/bench/probe/report.py"
LAB_BENCH_DIR=$t/bench DATA=$fx PLOTS=$t/p2 "$LAB/scripts/report" > /dev/null 2>"$t/err2"
ok $([ $? -ne 0 ]; echo $?) "a section line over 72 columns is refused"
ok $([ ! -e "$t/p2/report.txt" ]; echo $?) "and no report is written"
done_testing
