#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The allocator's latency table from a host run of three processes (merged by procs-merge as
# bench-host does): a quantile is the median process's, its interval the range over the
# processes, never below zero; "p99 vs CAS" is computed per process (paired) and printed with
# the range of those; a run of one process says it has one unit; the clock pair inside every
# latency is shown (the range over the rows), or said to be missing.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
[ -x "$BUILD/host/bin/lab-ab" ] || { echo "1..1"; echo "not ok 1 - lab-ab is built (make lib-tests)"; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
d=$t/data/20260101T000000Z-fixture-alloc-host
h=variant,accel,method,threads,status,strategy,ns_per_op,ns_min,ns_max,req_p50_ns,req_p50_lo,req_p50_hi,req_p99_ns,req_p99_lo,req_p99_hi,req_mean_ns,req_mean_lo,req_mean_hi
# proc N CAS_P99 RSEQ_P99: one process's request rows (p50 a tenth of p99, mean a fifth).
proc() {
	local dir=$d/procs/0$1 m p99
	mkdir -p "$dir"
	{
		echo "$h"
		for m in "getcpu-cas $2" "rseq $3"; do
			p99=${m#* }
			echo "host,none,alloc-${m% *},1,ok,alloc-request,50,49,51,$((p99 / 10)),0,0,$p99,0,0,$((p99 / 5)),0,0"
		done
	} > "$dir/alloc.csv"
}
proc 1 1000 900; proc 2 2000 1600; proc 3 1000 950
"$LAB/scripts/procs-merge" "$d/alloc.csv" "$d"/procs/*/alloc.csv; ok $? "the processes merge"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2> "$t/err"
ok $? "the report runs on an alloc run alone" || diag "$(tail -n 3 "$t/err")"
txt=$(cat "$t/plots/report.txt" 2>/dev/null)
# p99 per process 1000, 2000, 1000 (CAS): the median process's 1000, the range [1000, 2000].
like "$txt" "^host +1 getcpu\\+CAS +100 \\[100,200\\] +1000 \\[1000,2000\\]$" "a quantile: the median process's, the range over processes"
# rseq over CAS per process: -10 %, -20 %, -5 %: median -10, range [-20, -5].
like "$txt" "^host +1 rseq +190 \\[180,320\\] +-10\\.0% \\[-20,-5\\]$" "p99 vs CAS: per process, paired, the median and range (mean: 190 [180, 320])"
like "$txt" "of 1001 empty requests\): not recorded$" "a run without the clock pair's cost says so"
rm -rf "$d/procs"
# One boot's Student t interval over few skewed reps can reach below 0: the table cuts it at 0.
sed -i 's/^\(host,none,alloc-rseq,.*\),180\.0000,320\.0000$/\1,-50.0000,320.0000/' "$d/alloc.csv"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>&1
like "$(cat "$t/plots/report.txt")" "^host +1 rseq +190 \\[0,320\\] +-5\\.0% \\(1 unit\\)$" \
	"without the processes' files: the merged rows' ratio (950 / 1000), marked one unit; a mean's interval cut at 0"
# The clock pair's cost in the rows (30 and 32 ns): its range.
sed -i '1s/$/,req_clock_ns/; 2s/$/,30/; 3s/$/,32/' "$d/alloc.csv"
DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>&1
like "$(cat "$t/plots/report.txt")" "of 1001 empty requests\): host 30-32 ns$" "the clock pair's cost, the range over the rows"
done_testing
