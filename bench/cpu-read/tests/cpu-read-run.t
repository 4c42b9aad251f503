#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A short cpu-read run on the host (bench/cpu-read/run; both benches together: percpu-run.t)
# makes one complete run directory: a CSV whose header has the required
# columns and one row per method (figures or a reason), a figure per process (HOST_PROCS) in
# ns_reps and each process's own CSV with its per-rep values, metadata.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
reps=2 procs=3

DATA=$t/data HOST_PROCS=$procs "$LAB/bench/cpu-read/run" host --reps $reps --duration 10 >"$t/log" 2>&1
ok $? "bench/cpu-read/run host runs"
dirs=$(ls -A "$t/data" 2>/dev/null)
is "$(printf '%s\n' "$dirs" | grep -c -- '-cpu-read-host$')" 1 "one run directory, named <date>-<host>-cpu-read-host"
d=$t/data/$(printf '%s\n' "$dirs" | head -n 1)
csv=$d/cpu-read.csv meta=$d/cpu-read.meta
head=$(head -n 1 "$csv" 2>/dev/null)
for col in variant accel method threads ns_per_op tsc_per_op reps ns_median ns_min ns_max \
	ns_spread ns_reps tsc_min tsc_max tsc_reps pmu_cycles_per_op; do
	like ",$head," ",$col," "CSV has column $col"
done
# TSC ticks are not cycles: no column may call them so (PMU cycles are pmu_cycles_per_op).
is "$(csv_cols "$csv" --columns | grep -E '^cycles' | tr '\n' ' ')" "" \
	"no column named cycles* (the TSC ones are tsc_*)"
methods=$("$BUILD/guest/bin/lab-cpuread" --list | awk '{print $1}' | sort | tr '\n' ' ')
is "$(csv_cols "$csv" method | sort | tr '\n' ' ')" "$methods" \
	"one row per method"

# Each row: status ok with a positive ns/op and one figure per process, or a reason and no
# figure; each process's own rows: one figure per rep.
rows_ok() {
	csv_cols "$1" variant accel threads status ns_per_op ns_reps method |
	awk -F'\t' -v reps="$2" '{ k = $6 == "" ? 0 : split($6, v, ";") }
	$1 != "host" || $2 != "none" || $3 != "1" { print "labels: " $7; next }
	$4 == "ok" && !($5 > 0 && k == reps) { print "figures: " $7; next }
	$4 != "ok" && ($5 != "" || $6 != "") { print "made-up figure: " $7 }'
}
is "$(rows_ok "$csv" $procs)" "" "every row has its figures (one per process) or a reason, never both"
is "$(ls "$d/procs" 2>/dev/null | tr '\n' ' ')" "01 02 03 " "a directory per process"
is "$(rows_ok "$d/procs/02/cpu-read.csv" $reps)" "" "  each with its own rows, one figure per rep"
# The row is the median process's: its ns_per_op is the middle of the three.
is "$(csv_cols "$csv" ns_per_op ns_reps --where method=vdso | awk -F'\t' '{ split($2, v, ";");
	n = asort(v); print ($1 == v[2]) ? "median" : $1 " of " $2 }')" median "the row's figure is the median process's"
# Every measured row carries its spread: ns_min <= ns_per_op (the median) <= ns_max.
bad=$(csv_cols "$csv" method status ns_per_op ns_min ns_max | awk -F'\t' '$2 == "ok" &&
	!($4 != "" && $5 != "" && $4 + 0 <= $3 + 0 && $3 + 0 <= $5 + 0) { printf "%s ", $1 }')
is "$bad" "" "every measured row has ns_min <= ns_per_op <= ns_max"
# Each dependent row has its throughput twin (empty-dep: empty) in the same run.
deps=$(csv_cols "$csv" method | grep -- '-dep$')
like "$(printf '%s\n' "$deps" | wc -l)" '^[5-9]$' "the dependent rows are in the CSV"
is "$(for m in $deps; do csv_cols "$csv" method | grep -qx -- "${m%-dep}" || echo "$m"; done)" "" \
	"every dependent row has its throughput twin"
like "$(grep '^empty,' <(csv_cols "$csv" method status | tr '\t' ,))" '^empty,ok$' "the empty loop has a row"
like "$(grep -cE '^[a-z_-]+,ok$' <(csv_cols "$csv" method status | tr '\t' ,))" '^([89]|[12][0-9])$' \
	"at least 8 methods measured here"
for key in cpu_model cpuinfo_flags kernel_release glibc compiler cflags date lab_commit \
	tsc_invariant glibc_rseq; do
	like "$(cat "$meta")" "^$key: ." "metadata has $key"
done
like "$(cat "$t/log")" "getcpu system call: +[0-9.]+ ns +[0-9.]+x +[0-9.]+-[0-9.]+ " \
	"prints the seed-format table, min-max next to the median"
like "$(cat "$t/log")" "gs-relative load of the kernel-updated rseq cpu_id \(dependent\): +[0-9.]+ ns" \
	"the longest label is printed whole"
like "$(cat "$meta")" "^tsc_source: " "metadata names the TSC source (tsc_source)"
done_testing
