#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/procs-merge: a host bench's CSV from its processes' CSVs: per key the median
# process's whole row (the lower of an even count), ns_min/ns_max the fastest and slowest
# process, ns_reps one figure per process in order; a row failed in any process keeps that
# status and no figure of another; other columns or an empty file: one error line.
. "$(dirname "$0")/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
h=variant,accel,method,threads,status,reps,ns_per_op,ns_min,ns_max,ns_reps,tsc_per_op
proc() { printf '%s\n' "$h" "host,none,vdso,1,ok,3,$2,$(($2 - 1)),$(($2 + 1)),x;y;z,$3" \
	"host,none,rdpid,1,$4,3,$5,,,," > "$t/$1.csv"; }
proc p1 30 300 ok 7
proc p2 10 100 ok 8
proc p3 20 200 "unsupported: no RDPID" ""
"$LAB/scripts/procs-merge" "$t/out.csv" "$t/p1.csv" "$t/p2.csv" "$t/p3.csv"; ok $? "three processes merge"
is "$(csv_cols "$t/out.csv" method ns_per_op tsc_per_op ns_min ns_max ns_reps reps --where method=vdso | tr '\t' ' ')" \
	"vdso 20 200 10 30 30;10;20 3" "the median process's row whole, the range and the figures over processes"
is "$(csv_cols "$t/out.csv" method status ns_per_op --where method=rdpid | tr '\t' ' ')" \
	"rdpid unsupported: no RDPID " "a row failed in one process keeps its reason, no figure"
"$LAB/scripts/procs-merge" "$t/even.csv" "$t/p1.csv" "$t/p2.csv"
is "$(csv_cols "$t/even.csv" ns_per_op --where method=vdso)" 10 "an even count: the lower median"
printf '%s\n' "variant,method" "host,vdso" > "$t/other.csv"
: > "$t/empty.csv"
printf '%s\n' "$h" > "$t/header.csv"
for f in other empty header missing; do
	"$LAB/scripts/procs-merge" "$t/x.csv" "$t/p1.csv" "$t/$f.csv" > /dev/null 2> "$t/err"; rc=$?
	ok $([ $rc = 1 ] && [ "$(wc -l < "$t/err")" = 1 ] && [ ! -e "$t/x.csv" ]; echo $?) "$f: one error line, no file (exit $rc)"
done
done_testing
