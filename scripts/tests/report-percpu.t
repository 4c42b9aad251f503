#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The per-CPU table and what the plots show, from a made-up per-CPU run with known figures:
# each row's spread is half its min-max range over the median (min and max each in their
# place), the speedup's interval comes from the base's and the row's extremes, and the data
# file gnuplot draws percpu-1thread from carries the same median, min and max as error bars.
. "$(dirname "$0")/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make $BUILD/host/bin/lab-ab)"; exit 1; }
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed"; exit 0; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data/20260101T000000Z-t-host
mkdir -p "$d"
printf '%s\n' "variant: host" "host: t" "lab_commit: 0123456789ab" > "$d/percpu.meta"
{ echo "variant,accel,method,label,threads,status,ns_per_op,ns_min,ns_max"
  # base: median 10, range 8..11 (spread 1.5/10 = 15 %); rseq: 2, 1.9..2.3 (10 %);
  # speedup 5.0x, interval 8/2.3 .. 11/1.9 = 3.478 .. 5.789: +-23 % of 5.0
  echo "host,none,counter-getcpu-atomic,getcpu + lock add,1,ok,10,8,11"
  echo "host,none,counter-rseq,rseq critical section,1,ok,2,1.9,2.3"
  echo "host,none,counter-rseq,rseq critical section,2,ok,2.5,2.4,2.6"
  echo "host,none,list-cas,getcpu + CAS push/pop,1,ENOSYS: no rseq,,,"; } > "$d/percpu.csv"
LAB_PLOT_WORK=$t/work DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" >/dev/null 2>"$t/err"
ok $? "the report runs on a per-CPU run" || diag "$(cat "$t/err")"
txt=$(cat "$t/plots/report.txt")
like "$txt" '^- getcpu \+ lock add: +10\.00 ns +±15%$' "the base row: median and +-half its range (min 8 below, max 11 above)"
like "$txt" '^- rseq critical section: +2\.00 ns +±10% +5\.0x +±23%$' "a row: its spread, its speedup and the speedup's interval from both rows' extremes"
like "$txt" '^- getcpu \+ CAS push/pop: +ENOSYS$' "a strategy that could not run says why"
is "$(grep -c 'rseq critical section' <<< "$txt")" 1 "one thread only in the table"
dat=$t/work/percpu-1thread.dat
is "$(grep '^counter-getcpu-atomic' "$dat")" "$(printf 'counter-getcpu-atomic\t10\t8\t11')" \
	"percpu-1thread.dat: the base's median, min, max as the table has them"
is "$(grep '^counter-rseq' "$dat")" "$(printf 'counter-rseq\t2\t1.9\t2.3')" "percpu-1thread.dat: the rseq row's"
like "$(cat "$t/work/percpu-1thread.png.gp")" "percpu-1thread\.dat' using \(column\(3\*i-1\)\):\(column\(3\*i\)\):" \
	"the plot draws the median with the min and max columns as error bars"
is "$(cat "$t/work/percpu-scaling-host.dat")" "$(printf 'counter-getcpu-atomic\t1\t10\ncounter-rseq\t1\t2\ncounter-rseq\t2\t2.5')" \
	"the scaling plot's data: each method's figure per thread count"
done_testing
