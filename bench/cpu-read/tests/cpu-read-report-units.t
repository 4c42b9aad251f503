#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CPU-read section of a host run of several processes: "rseq read - empty loop" is
# lab-ab's paired comparison over the processes (each process measures both), with its
# interval and verdict, never the min-max "resolved" rule; the unit line says 3 processes; a
# speedup over the getcpu system call is lab-ab's over the processes (the means' ratio, with
# its interval), not the ratio of the median process's figures.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data/20260101T000000Z-fixture-host
h=variant,accel,method,label,threads,status,ns_per_op,ns_min,ns_max
# per process: empty, rseq-own, syscall ns; rseq-own - empty: 0.01, 0.02, 0.02
k=0
for p in "0.29 0.30 900" "0.29 0.31 950" "0.30 0.32 1300"; do
	k=$((k + 1)); set -- $p
	mkdir -p "$d/procs/0$k"
	printf '%s\n' "$h" "host,none,empty,Baseline (empty loop),1,ok,$1,$1,$1" \
		"host,none,rseq-own,Read CPU from rseq cpu_id,1,ok,$2,$2,$2" \
		"host,none,syscall,getcpu system call,1,ok,$3,$3,$3" > "$d/procs/0$k/cpu-read.csv"
done
"$LAB/scripts/procs-merge" "$d/cpu-read.csv" "$d"/procs/*/cpu-read.csv
printf 'cpu_model: AMD EPYC\nhost_units: 3 processes, started in turn\n' > "$d/cpu-read.meta"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
ok $? "the report runs on a host run of three processes" || diag "$(tail -n 3 "$t/err")"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
like "$txt" "^  unit: 3 processes" "the unit line names the processes"
# Paired: differences 0.01, 0.02, 0.02, sd 0.0058, t 5.0 on 2 df: [+0.0023, +0.031],
# significant. Unpaired (Welch on the two columns) the same data are not significant.
like "$txt" "^  rseq read - empty loop: \\+0\\.017 \\[\\+0\\.0023, \\+0\\.031\\] ns,$" \
	"rseq read - empty: the mean paired difference (0.01, 0.02, 0.02) with its paired interval"
like "$txt" "^    significant, paired over 3 processes \\(lab-ab\\)$" "  significant, as only the paired test finds"
ok $(! grep -q "resolved" <<< "$txt"; echo $?) "no min-max 'resolved' verdict"
# rseq-own: syscall 900, 950, 1300 (mean 1050, median 950) over 0.30, 0.31, 0.32 (0.31):
# lab-ab's speedup 1050 / 0.31 = 3387.1x; the medians' would be 3064.5x.
like "$txt" "^- Read CPU from rseq cpu_id: +0\.31 ns +±3% +3387\.1x +±[0-9]+%$" \
	"the speedup is lab-ab's over the processes, with its interval's half-width"
done_testing
