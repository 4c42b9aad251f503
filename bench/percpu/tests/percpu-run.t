#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A short bench-host run of lab-percpu: one run directory with percpu.csv (the CPU-read columns
# plus strategy, ops_total, aborts_per_mop), a row per strategy and thread count, figures or a
# reason, aborts only on rseq rows, metadata, the seed-format table, the report's thread-scaling
# table from the CSV; and plain bench-host runs both benches.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

DATA=$t/data HOST_PROCS=2 "$LAB/bench/percpu/run" host --reps 2 --duration 5 --threads 1,2 \
	>"$t/log" 2>&1
ok $? "bench/percpu/run host runs"
d=$(ls -d "$t"/data/*-host 2>/dev/null | head -n 1)
csv=$d/percpu.csv
head=$(head -n 1 "$csv" 2>/dev/null)
for col in variant method threads status ns_per_op ns_reps strategy ops_total aborts_per_mop \
	mops_per_s k_fixup_per_mop k_ids_per_mop k_slowp_per_mop; do
	like ",$head," ",$col," "percpu.csv has column $col"
done
is "$(tail -n +2 "$csv" | wc -l)" "$(( $("$BUILD/guest/bin/lab-percpu" --list | wc -l) * 2 ))" \
	"one row per strategy and thread count"
bad=$(csv_cols "$csv" method status ns_per_op ops_total aborts_per_mop threads | awk -F'\t' '
	{ rseq = $1 ~ /rseq/ }
	$2 == "ok" { if (!($3 > 0 && $4 > 0)) print "figures: " $0; if (rseq != ($5 != "")) print "aborts: " $0; next }
	$2 != "ENOSYS" || !rseq { print "status: " $0; next }
	$3 != "" { print "made-up figure: " $0 }')
is "$bad" "" "every row: figures (aborts counted on rseq rows only) or ENOSYS on an rseq row"
bad=$(csv_cols "$csv" method threads status ns_per_op ns_min ns_max | awk -F'\t' '$3 == "ok" &&
	!($5 != "" && $6 != "" && $5 + 0 <= $4 + 0 && $4 + 0 <= $6 + 0) { printf "%s/%s ", $1, $2 }')
is "$bad" "" "every measured row has its spread: ns_min <= ns_per_op <= ns_max"
is "$(csv_cols "$csv" --columns | grep -E '^cycles' | tr '\n' ' ')" "" "no column named cycles* (tsc_*)"
like "$(grep '^host,none,counter-tls,' "$csv" | head -n 1)" ',thread-local counter: a plain add to memory per op,' \
	"the thread-local row says what it does (no \"lower bound\")"
like "$(cat "$d/percpu.meta" 2>/dev/null)" "^rseq_helpers: kernel tree" "metadata names the rseq helpers"
like "$(cat "$d/percpu.meta" 2>/dev/null)" "^lab_commit: ." "metadata has lab_commit"
like "$(cat "$t/log")" "rseq critical section \(add, commit\): +[0-9.]+ ns +[0-9.]+x" \
	"prints the seed-format table with the speedup"
RUNS="*" DATA=$t/data PLOTS=$t/plots "$LAB/scripts/report" > /dev/null 2>&1
scaling=$(sed -n '/^Per-CPU strategies, thread scaling: host/,/^$/p' "$t/plots/report.txt" 2>/dev/null)
like "$scaling" "^method +1 thr +2 thr$" "the report's thread-scaling table: a column per thread count"
want=$(csv_cols "$csv" method ns_per_op --where threads=2 --where method=counter-rseq | cut -f2)
like "$scaling" "^counter-rseq +[0-9.]+ +$(awk -v v="$want" 'BEGIN { printf(v < 10 ? "%.3g" : "%.1f", v) }' | sed 's/\./\\./')$" \
	"... its counter-rseq row has the CSV's 2-thread figure ($want)"

DATA=$t/both HOST_PROCS=2 "$LAB/scripts/bench-host" --reps 1 --duration 5 >"$t/log2" 2>&1
ok $? "bench-host (both benches) runs"
d=$(ls -d "$t"/both/*-host 2>/dev/null | head -n 1)
ok $([ -s "$d/cpu-read.csv" ] && [ -s "$d/percpu.csv" ]; echo $?) \
	"one run directory with cpu-read.csv and percpu.csv"
done_testing
