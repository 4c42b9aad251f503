#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The report's A/B design: where a bench's meta declares `unit:` and `pair:`, lab-ab is asked
# with --unit/--pair (it is this tree's lab-ab: nothing probes its options); where lab-ab's TSV has the design columns, the
# hackbench section prints the design, Fieller's interval (rel_lo/rel_hi), the Holm-adjusted
# one, and "+-1 % precision" (half-width <= 1 %) apart from "within +-1 %" (the whole
# interval inside). A stand-in lab-ab answers with fixtures/report-c4/hackbench.tsv.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures
mkdir -p "$t/data" "$t/bench/hackbench"
cp -r "$fx/report-data/20260101T000100Z-fixture-hackbench" "$t/data/"
cp "$LAB/bench/hackbench/report.py" "$t/bench/hackbench/"
# ab HELP: a stand-in lab-ab whose --help prints HELP; it logs its arguments.
ab() {
	printf '#!/usr/bin/env bash\n[ "$1" != --help ] || { echo "%s"; exit 0; }\n' "$1" > "$t/lab-ab"
	printf 'echo "$*" >> "%s/args"\ncat "%s/report-c4/hackbench.tsv"\n' "$t" "$fx" >> "$t/lab-ab"
	chmod +x "$t/lab-ab"; : > "$t/args"
}
meta() { printf '%s\n' "name: hackbench" "$@" > "$t/bench/hackbench/meta"; }
report() { : > "$t/args"; AB=$t/lab-ab LAB_BENCH_DIR=$t/bench DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" >/dev/null 2>"$t/err" || cat "$t/err"; }

ab "  --unit COL  --pair COL"
meta "unit: round one boot per variant per round" "pair: round the same seed on both sides"
report
like "$(cat "$t/args")" '--unit round --pair round' "the meta's unit and pair go to lab-ab"
txt=$(cat "$t/plots/report.txt"); one=$(tr '\n' ' ' < "$t/plots/report.txt")
like "$txt" '^design: 4 boots x 1 rep per variant, paired by round;$' "the design is printed"
like "$one" 'process, pipe: rseq-y \(RSEQ=y\) without glibc registration: \+0\.3 % \[-0\.6, \+0\.8\] Holm \[-1\.1, \+1\.3\] instructions vs RSEQ=n \([^)]*; \+-1 % precision; within \+-1 %' \
	"Fieller's and Holm's intervals; both precision and within +-1 %"
like "$one" 'process, pipe: rseq-y \(RSEQ=y\) with glibc registration: \+2\.9 % \[\+2\.0, \+3\.9\] Holm \[\+1\.5, \+4\.4\] instructions vs RSEQ=n \([^)]*; \+-1 % precision[;)]' \
	"+-1 % precision alone"
# One sentence a line: each ends in ").".
sentence() { sed 's/)\. /).\n/g' <<< "$one" | grep "^$1"; }
like "$(sentence 'process, pipe: rseq-y (RSEQ=y) with glibc')" 'precision' "the registered one's sentence"
ok $(sentence 'process, pipe: rseq-y (RSEQ=y) with glibc' | grep -q within; [ $? -ne 0 ]; echo $?) \
	"  is not within +-1 % (its interval leaves it)"
like "$one" 'thread, socket: rseq-y \(RSEQ=y\) without glibc registration: [^)]*not \+-1 % precision[;)]' "neither: not +-1 % precision"
meta "unit: round one boot per variant per round" "pair: none"
report
args=$(cat "$t/args")
like "$args" '--unit round' "pair: none: the unit alone"
ok $(grep -q -- '--pair' <<< "$args"; [ $? -ne 0 ]; echo $?) "  and no --pair"
done_testing
