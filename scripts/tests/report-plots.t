#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The plots show what the tables show: the data files gnuplot reads (kept with
# LAB_PLOT_WORK) carry the fixture's figures and error bars. hackbench.png's error bars are
# lab-ab's 95 % CI half-widths, checked against t(0.975, n-1) * sd / sqrt(n) computed here
# from the CSV; its means are the A/B table's. cpu-read's bars are the CSV's median, min and
# max; each kind of figure is a plot of its own, titled with kernel, architecture and host.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make $BUILD/host/bin/lab-ab)"; exit 1; }
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed"; exit 0; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fx=$LAB/scripts/tests/fixtures/report-data
LAB_PLOT_WORK=$t/work DATA=$fx PLOTS=$t/plots "$LAB/scripts/report" >/dev/null 2>"$t/err"
ok $? "the report runs on the fixture data" || diag "$(cat "$t/err")"

# Every (mean, CI half-width) of hb-means.dat against the CSV's groups: each group's mean,
# and t(0.975, n-1) sd / sqrt(n) (the fixture's groups have n = 4: t(0.975, 3) = 3.182446).
check=$(cd "$LAB/scripts" && python3 -B - "$fx/20260101T000100Z-fixture-hackbench/hackbench.csv" "$t/work/hb-means.dat" <<'PY'
import math, statistics, sys
import labdata
T975 = {3: 3.182446305284263}
groups = {}
for r in labdata.read_csv(sys.argv[1]):
    groups.setdefault((r["variant"], r["mode"], r["ipc"]), []).append(float(r["value"]))
want = sorted((round(statistics.mean(v), 6),
               round(T975[len(v) - 1] * statistics.stdev(v) / math.sqrt(len(v)), 6))
              for v in groups.values())
got = sorted((round(float(line.split("\t")[1]), 6), round(float(line.split("\t")[2]), 6))
             for line in open(sys.argv[2]).read().splitlines())
print("same" if got == want else "got %s want %s" % (got, want))
PY
)
is "$check" "same" "hb-means.dat: each column's mean and its 95 % CI half-width (t with n-1 df)"
means=$(cd "$LAB/scripts" && python3 -B -c "
import sys
print(' '.join(sorted('%.4f' % float(l.split('\\t')[1]) for l in open(sys.argv[1]))))" "$t/work/hb-means.dat")
# The A/B table's mean column: the first figure with 4 decimals on each row.
table=$(sed -n '/^mode\/ipc  *variant/,/^$/p' "$t/plots/report.txt" | sed '1d;/^$/d' |
	while read -r line; do grep -oE ' [0-9]+\.[0-9]{4} ' <<< " $line " | head -n 1; done | sort | tr -d ' ' | tr '\n' ' ')
is "$means " "$table" "hb-means.dat: the means the A/B table prints"
is "$(wc -l < "$t/work/hb-points.dat")" "$(($(wc -l < "$fx/20260101T000100Z-fixture-hackbench/hackbench.csv") - 1))" \
	"hb-points.dat: one point per run of the CSV"
like "$(cat "$t/work/hackbench.png.gp")" 'kernels rseq-n 6\.1\.192, rseq-y 6\.1\.192' "hackbench's title names its kernels"
like "$(cat "$t/work/hackbench.png.gp")" 'x86_64 guests under QEMU icount on Fixture CPU' "  its architecture, accelerator and host"

is "$(grep '^rdpid' "$t/work/cpuread-host.dat")" "$(printf 'rdpid\t0.7431\t0.6127\t0.7612')" \
	"cpuread-host.dat: RDPID's median, min and max, as the CSV has them"
like "$(cat "$t/plots/report.txt")" '^- RDPID: +0\.74 ns +±10% ' "  the table's RDPID: that median, +-(0.7612 - 0.6127) / 2 / 0.7431"
ok $([ ! -e "$t/work/cpuread-icount.dat" ] && [ ! -e "$t/work/cpuread-tcg.dat" ]; echo $?) \
	"no icount or TCG cpu-read plot without such runs (host ns only)"
like "$(cat "$t/work/cpu-read.png.gp")" 'kernel 6\.18\.44-fc-v1098; x86_64; host AMD EPYC, kernel 6\.18\.44-fc-v1098' "cpu-read's title: kernel, architecture and host"
is "$(cut -f1 "$t/work/size.dat" | tr '\n' ' ')" "$(sed -n '/^variant  *text/,/^$/p' "$t/plots/report.txt" | sed '1d;/^$/d' | cut -d' ' -f1 | tr '\n' ' ')" \
	"size.dat: every variant of the size table, in its order"
is "$(grep '^rseq-y' "$t/work/size.dat" | head -n 1 | cut -f2)" \
	"$(cd "$LAB/scripts" && python3 -B -c "
import labdata
r = {x['variant']: x for x in labdata.read_csv('$fx/2026-01-01T000200Z-fixture-size/sizes.csv')}
print('%g' % (float(r['rseq-y']['text']) - float(r['rseq-n']['text'])))")" "size.dat: rseq-y's text bytes over rseq-n's"
done_testing
